/** The billing module: SUNAT documents. Payments issue and void their receipts through these. */
export { default as billingRoutes } from './routes.ts';
export { issueReceipt, voidDocument, lookupDocument, type IssueAnswer } from './service.ts';
