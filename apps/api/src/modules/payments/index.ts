/** The payments module: counter payments with receipts, movements, receivables and cash sessions. */
export { default as paymentRoutes } from './routes.ts';
export { recoverPaymentsInBackground } from './sweep.ts';
export { freightPaid } from './queries/payments.ts';
export { destinationDue } from './receivables.ts';
