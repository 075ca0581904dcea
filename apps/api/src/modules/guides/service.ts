import { and, eq, sql } from 'drizzle-orm';
import {
  checkGuide,
  checkPerception,
  checkRetention,
  GUIDE_API_MESSAGES,
  limaDay,
  type DocumentState,
  type DocumentStatus,
  type GuideDraft,
  type ProviderRefRequest,
  type SunatDocumentType,
  type VoucherDraft,
} from '@tramo/domain';
import { documentEvents } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { getCompany } from '../company/index.ts';
import {
  assertVisible,
  findByNumber,
  issueOther,
  issueResult,
  pdfLink,
  refusal,
  syncDocument,
  voidDocument,
  voidStatus,
  type DocumentRecord,
  type IssueAnswer,
} from '../billing/index.ts';

/*
 * Dispatch guides (GRE remitente 09, GRE transportista 31) and retention (20) / perception (40)
 * vouchers: checked by the domain's rules (422 with the problems under 'Corrige:'), then numbered,
 * stored and sent like invoices by the billing module (same register, same series counter rows).
 */

/** The guide's draft as the billing module stores it: numbered in the emitting transaction. */
export function guideIssue(draft: GuideDraft, carriedShipmentIds: number[] = [], onShipmentTaken?: () => Promise<void>) {
  return {
    type: draft.type,
    series: draft.series,
    issueDate: draft.issueDate,
    contingency: draft.contingency,
    party: { docType: draft.client.docType, docNumber: draft.client.docNumber, name: draft.client.name },
    totalCents: 0,
    build: (number: number, issueTime: string) => ({ ...draft, number, issueTime }),
    idempotencyKey: draft.uniqueCode,
    carriedShipmentIds,
    onShipmentTaken,
  };
}

/** A GRE-T carries the company's MTC registration unless the payload named one (issue 36; SUNAT 4391 without it). */
export async function withCompanyMtc(ctx: ServiceContext, draft: GuideDraft): Promise<GuideDraft> {
  if (draft.type !== '31' || draft.mtcRegistration) return draft;
  return { ...draft, mtcRegistration: (await getCompany(ctx)).mtcRegistration };
}

/** `POST /guides/create-emit`: 201 accepted, 202 pending at SUNAT (the usual first answer of a GRE), 422 'Corrige:'. */
export async function createEmitGuide(ctx: ServiceContext, user: SessionUser, payload: unknown): Promise<IssueAnswer> {
  const check = checkGuide(payload, { today: limaDay(ctx.now()) });
  if (!check.ok) return { statusCode: 422, result: refusal(check.problems) };
  return issueOther(ctx, user, guideIssue(await withCompanyMtc(ctx, check.draft)));
}

function voucherIssue(draft: VoucherDraft) {
  return {
    type: draft.type,
    series: draft.series,
    issueDate: draft.issueDate,
    contingency: draft.contingency,
    party: { docType: draft.subject.docType, docNumber: draft.subject.docNumber, name: draft.subject.name },
    totalCents: draft.amountTotalCents,
    build: (number: number, issueTime: string) => ({ ...draft, number, issueTime }),
    idempotencyKey: draft.uniqueCode,
  };
}

/** `POST /retencion/create-emit` and `POST /percepcion/create-emit`. */
export async function createEmitVoucher(
  ctx: ServiceContext,
  user: SessionUser,
  kind: 'retencion' | 'percepcion',
  payload: unknown,
): Promise<IssueAnswer> {
  const day = { today: limaDay(ctx.now()) };
  const check = kind === 'retencion' ? checkRetention(payload, day) : checkPerception(payload, day);
  if (!check.ok) return { statusCode: 422, result: refusal(check.problems) };
  return issueOther(ctx, user, voucherIssue(check.draft));
}

async function documentByNumber(
  ctx: ServiceContext,
  user: SessionUser,
  type: SunatDocumentType,
  series: string,
  number: number,
): Promise<DocumentRecord> {
  const doc = await findByNumber(ctx.db, type, series, number);
  if (!doc) throw notFound(GUIDE_API_MESSAGES.notFound);
  assertVisible(user, doc);
  return doc;
}

/** `POST /guides/consult`: asks SUNAT about a pending guide; the PDF link comes once it is accepted. */
export async function consultGuide(ctx: ServiceContext, user: SessionUser, tipo: SunatDocumentType, serie: string, numero: number) {
  const doc = await documentByNumber(ctx, user, tipo, serie, numero);
  return issueResult(await syncDocument(ctx, user, doc));
}

const ACCEPTED: readonly DocumentStatus[] = ['aceptado', 'anulación pendiente', 'anulado'];

function stateOf(doc: DocumentRecord): DocumentState {
  return {
    id: doc.id,
    type: doc.type as SunatDocumentType,
    serie: doc.series,
    numero: doc.number,
    status: doc.status as DocumentStatus,
    aceptada_por_sunat: ACCEPTED.includes(doc.status as DocumentStatus),
    anulado: doc.status === 'anulado',
    sunat_description: doc.providerMessage,
    enlace_del_pdf: pdfLink(doc),
    enlace_del_xml: doc.xml ? `/api/billing/documents/${doc.id}/xml` : null,
    cadena_para_codigo_qr: doc.qrText,
    codigo_hash: doc.hash,
  };
}

/** `POST /payments/nubefact/consult`: where any document stands; a pending one is asked to the active provider. */
export async function providerConsult(ctx: ServiceContext, user: SessionUser, r: ProviderRefRequest): Promise<DocumentState> {
  const doc = await documentByNumber(ctx, user, r.type, r.series, r.number);
  return stateOf(await syncDocument(ctx, user, doc));
}

/**
 * `POST /payments/nubefact/annul`: voids any document through the active provider (a comunicación
 * de baja or resumen for invoices and guides, a reversión for vouchers). The same codigo_unico
 * asked again answers the void's status instead of refusing a second void.
 */
export async function providerAnnul(
  ctx: ServiceContext,
  user: SessionUser,
  r: ProviderRefRequest & { reason: string; codigo_unico?: string | null },
): Promise<DocumentState> {
  const doc = await documentByNumber(ctx, user, r.type, r.series, r.number);
  const code = r.codigo_unico || null;
  if (code) {
    const [asked] = await ctx.db
      .select({ id: documentEvents.id })
      .from(documentEvents)
      .where(
        and(eq(documentEvents.documentId, doc.id), eq(documentEvents.operation, 'void'), sql`${documentEvents.request}->>'codigo_unico' = ${code}`),
      )
      .limit(1);
    if (asked) {
      await voidStatus(ctx, user, doc.id);
      return stateOf((await findByNumber(ctx.db, r.type, r.series, r.number))!);
    }
  }
  await voidDocument(ctx, user, doc.id, r.reason, code);
  return stateOf((await findByNumber(ctx.db, r.type, r.series, r.number))!);
}

/** `POST /payments/nubefact/annul-status`: where a void stands (a pending one is asked to the provider). */
export async function providerAnnulStatus(ctx: ServiceContext, user: SessionUser, r: ProviderRefRequest): Promise<DocumentState> {
  const doc = await documentByNumber(ctx, user, r.type, r.series, r.number);
  await voidStatus(ctx, user, doc.id);
  return stateOf((await findByNumber(ctx.db, r.type, r.series, r.number))!);
}
