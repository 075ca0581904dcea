/** The ledger check ('Conciliación'): the money invariants over the whole database, for the API and `npm run check:ledger`. */
export { default as reconciliationRoutes } from './routes.ts';
export { reconcile } from './service.ts';
