/** The incidents module (issue 17): a shipment's incidents with reason codes, open ones counted on the Panel. */
export { default as incidentRoutes } from './routes.ts';
