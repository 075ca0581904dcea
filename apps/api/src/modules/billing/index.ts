/** The billing module: SUNAT documents. Payments issue and void their receipts through these; guides and vouchers are numbered and stored through them. */
export { default as billingRoutes } from './routes.ts';
export {
  assertVisible,
  issueOther,
  issueReceipt,
  issueResult,
  isGuideType,
  isVoucherType,
  lookupDocument,
  pdfLink,
  refusal,
  syncDocument,
  voidDocument,
  voidStatus,
  type IssueAnswer,
  type OtherIssue,
} from './service.ts';
export { findByIdempotencyKey, findByNumber, liveDocumentOfShipment, type DocumentRecord } from './repository.ts';
/** The issuer (company name, RUC, address) printed on the trips' cargo manifests. */
export { billingOf } from './provider.ts';
