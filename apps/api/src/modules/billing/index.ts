/** The billing module: SUNAT documents. Payments issue and void their receipts through these; guides and vouchers are numbered and stored through them. */
export { default as billingRoutes } from './routes.ts';
export { assertVisible, issueResult, isGuideType, isVoucherType, pdfLink, refusal, type IssueAnswer } from './documents.ts';
export { createAndEmit, issueOther, issuePaymentReceipt, issueReceipt, type CounterReceipt, type OtherIssue } from './issuing.ts';
export { syncDocument, voidDocument, voidStatus } from './lifecycle.ts';
export { lookupDocument, unbilledShipments } from './rendering.ts';
export { findByIdempotencyKey, findByNumber, findDocument, liveDocumentOfShipment, liveGuidesOf, type DocumentRecord } from './repository.ts';
/** The issuer (company name, RUC, address) printed on the trips' cargo manifests. */
export { billingOf } from './provider.ts';
