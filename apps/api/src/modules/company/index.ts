/** The company's own data (issue 36): the admins' 'Empresa' settings; manifests and GRE transportista read it through getCompany. */
export { default as companyRoutes } from './routes.ts';
export { findCompanyLogo, getCompany, guidesBeforeDeparture } from './service.ts';
