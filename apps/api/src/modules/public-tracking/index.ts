/** The customer's side (issue 18): the public tracking read. */
export { default as publicTrackingRoutes } from './routes.ts';
