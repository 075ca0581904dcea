/** The credit module's public face (issue 35): its routes, and what shipments ask of an account. */
export { default as creditRoutes } from './routes.ts';
export { creditShipmentRefusal, hasActiveAccount } from './accounts.ts';
