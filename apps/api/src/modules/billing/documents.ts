import {
  BILLING_MESSAGES,
  centsToNumber,
  formatDocumentNumber,
  inScope,
  scopeOf,
  toCents,
  type DocumentStatus,
  type IssueResult,
  type SunatDocumentType,
} from '@tramo/domain';
import { forbidden, notFound } from '../../lib/errors.ts';
import type { DocumentRef } from '../../providers/billing/index.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import * as repo from './repository.ts';
import type { DocumentRecord } from './repository.ts';

/** What issuing, the provider lifecycle and rendering share: who sees a document, its kind, its number and its answer. */

/** Admins see every branch's documents; agents their branch's (DESIGN.md section 4). */
export function assertVisible(user: SessionUser, doc: DocumentRecord) {
  if (!inScope(scopeOf(user), doc.branchId)) throw forbidden(BILLING_MESSAGES.forbidden);
}

/** Dispatch guides (GRE-R 09, GRE-T 31) and retention/perception vouchers (20, 40) share the register with invoices. */
export const isGuideType = (type: string): type is '09' | '31' => type === '09' || type === '31';
export const isVoucherType = (type: string): type is '20' | '40' => type === '20' || type === '40';
export const isInvoiceType = (type: string) => type === '01' || type === '03' || type === '07';

export async function visibleDocument(ctx: ServiceContext, user: SessionUser, id: number): Promise<DocumentRecord> {
  const doc = await repo.findDocument(ctx.db, id);
  if (!doc) throw notFound(BILLING_MESSAGES.notFound);
  assertVisible(user, doc);
  return doc;
}

export const ref = (doc: DocumentRecord): DocumentRef => ({ type: doc.type as SunatDocumentType, series: doc.series, number: doc.number });
export const fullNumber = (doc: { series: string; number: number }) => formatDocumentNumber(doc.series, doc.number);
export const money = (numeric: string) => centsToNumber(toCents(numeric));

/**
 * The PDF link of a document. A guide has none until SUNAT accepted it (its QR is SUNAT's link to
 * it): the guide form polls `POST /guides/consult` until the link arrives.
 */
export function pdfLink(doc: DocumentRecord): string | null {
  if (doc.pdfUrl) return doc.pdfUrl;
  if (isGuideType(doc.type) && (doc.status === 'pendiente' || doc.status === 'rechazado')) return null;
  return `/api/billing/documents/${doc.id}/pdf?format=a4`;
}

export function issueResult(doc: DocumentRecord, error: string | null = null): IssueResult {
  return {
    ok: error === null && doc.status !== 'rechazado',
    error: error ?? (doc.status === 'rechazado' ? doc.providerMessage : null),
    id: doc.id,
    enlace_del_pdf: pdfLink(doc),
    serie: doc.series,
    numero: doc.number,
    status: doc.status as DocumentStatus,
  };
}

export const refusal = (problems: string[]): IssueResult => ({
  ok: false,
  error: BILLING_MESSAGES.corrige(problems),
  id: null,
  enlace_del_pdf: null,
  serie: null,
  numero: null,
  status: null,
  problems,
});

/** What a create/emit call answers: the HTTP status and the issue result. */
export interface IssueAnswer {
  statusCode: 200 | 201 | 202 | 422 | 424;
  result: IssueResult;
}
