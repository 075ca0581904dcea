/** The guides module (issue 15): dispatch guides, retention and perception vouchers, and the carrier guide of a transport's load. */
export { default as guidesRoutes } from './routes.ts';
