/** The credit module's public face (issue 35): its routes, and what shipments ask of an account. */
export { default as creditRoutes } from './routes.ts';
export { creditShipmentRefusal, hasActiveAccount } from './accounts.ts';
/** What the demo seed does as an admin would (seed/credit.ts). */
export { saveAccount } from './accounts.ts';
export { registerCollection } from './collections.ts';
export { issuePeriodInvoice } from './period-invoice.ts';
