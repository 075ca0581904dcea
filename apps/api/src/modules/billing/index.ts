/** The billing module: SUNAT documents. Payments issue and void their receipts through these; guides and vouchers are numbered and stored through them. */
export { default as billingRoutes } from './routes.ts';
export { assertVisible, issueResult, isGuideType, isVoucherType, pdfLink, refusal, type IssueAnswer } from './documents.ts';
export { createAndEmit, draftColumns, issueOther, type OtherIssue } from './issuing.ts';
export { issuePaymentReceipt, issueReceipt, preparePaymentReceipt, type CounterReceipt, type PreparedReceipt } from './counter-receipt.ts';
export { receiptAddress } from './customer-address.ts';
export { emitToProvider, recordEmission, syncDocument, voidDocument, voidStatus, type EmitAnswer } from './lifecycle.ts';
export { pruneDocumentSearch, pruneDocumentSearchInBackground } from './recent-search.ts';
export { lookupDocument, unbilledShipments } from './rendering.ts';
export { findByIdempotencyKey, findByNumber, findDocument, liveDocumentOfShipment, liveGuidesOf, type DocumentRecord } from './repository.ts';
/** The issuer (company name, RUC, address) printed on the trips' cargo manifests. */
export { billingOf } from './provider.ts';
