import { and, eq, or } from 'drizzle-orm';
import {
  amountInWords,
  BILLING_MESSAGES,
  centsToNumber,
  checkInvoice,
  displayName,
  formatDocumentNumber,
  limaDay,
  NUMBERED_PAGE_ROWS,
  paymentReceiptDraft,
  sunatQrText,
  toCents,
  VOID_REASON_MAX_LENGTH,
  type BillingCustomer,
  type BillingDocType,
  type DocumentDetail,
  type DocumentEventKind,
  type DocumentFilters,
  type DocumentPage,
  type DocumentRow,
  type DocumentStatus,
  type InvoiceDraft,
  type InvoicePayload,
  type IssueResult,
  type ReceiptRequest,
  type SunatDocumentType,
  type UnbilledShipment,
  type VoidStatus,
} from '@tramo/domain';
import { customers, documents, documentShipments } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { fingerprint } from '../../lib/fingerprint.ts';
import type { KeysetRequest } from '../../lib/keyset.ts';
import { AppError, badRequest, conflict, forbidden, notFound, pgError, unprocessable } from '../../lib/errors.ts';
import {
  BillingProviderError,
  renderDocumentPdf,
  renderGuidePdf,
  renderVoucherPdf,
  type BillingDocument,
  type BillingProvider,
  type DocumentRef,
  type EmitResult,
  type GuideDocument,
  type PdfFormat,
  type VoidResult,
  type VoucherDocument,
} from '../../providers/billing/index.ts';
import type { App, SessionUser } from '../../types.ts';
import { billingOf } from './provider.ts';
import * as repo from './repository.ts';
import type { DocumentRecord } from './repository.ts';

/** Admins see every branch's documents; agents their branch's. */
export const scopeOf = (u: SessionUser): number | null | 'all' => (u.role === 'admin' ? 'all' : u.branchId);

export function assertVisible(user: SessionUser, doc: DocumentRecord) {
  const scope = scopeOf(user);
  if (scope !== 'all' && doc.branchId !== scope) throw forbidden(BILLING_MESSAGES.forbidden);
}

/** Dispatch guides (GRE-R 09, GRE-T 31) and retention/perception vouchers (20, 40) share the register with invoices. */
export const isGuideType = (type: string): type is '09' | '31' => type === '09' || type === '31';
export const isVoucherType = (type: string): type is '20' | '40' => type === '20' || type === '40';
const isInvoiceType = (type: string) => type === '01' || type === '03' || type === '07';

/** The provider call that issues a stored document, by its type. */
function emitByType(provider: BillingProvider, doc: DocumentRecord): Promise<EmitResult> {
  if (isGuideType(doc.type)) return provider.emitGuide(doc.document as GuideDocument);
  if (doc.type === '20') return provider.emitRetention(doc.document as VoucherDocument);
  if (doc.type === '40') return provider.emitPerception(doc.document as VoucherDocument);
  return provider.emit(doc.document as BillingDocument);
}

/** What SUNAT says now about a document, through the provider call of its type. */
function consultByType(provider: BillingProvider, doc: DocumentRecord) {
  if (isGuideType(doc.type)) return provider.consultGuide(ref(doc));
  if (isVoucherType(doc.type)) return provider.consultVoucher(ref(doc));
  return provider.consult(ref(doc));
}

/** Voids a document: a comunicación de baja / resumen for invoices and guides, a reversión for vouchers. */
function voidByType(provider: BillingProvider, doc: DocumentRecord, reason: string): Promise<VoidResult> {
  if (isVoucherType(doc.type)) return provider.reverseVoucher(ref(doc), reason);
  return provider.void(ref(doc), reason);
}

/** Where a void stands; a voucher's reversión is answered at once, so its consult tells. */
async function voidStatusByType(provider: BillingProvider, doc: DocumentRecord): Promise<VoidResult> {
  if (!isVoucherType(doc.type)) return provider.voidStatus(ref(doc));
  const consulted = await provider.consultVoucher(ref(doc));
  return {
    status: consulted.voided ? 'anulado' : 'anulación pendiente',
    ticket: null,
    sunatCode: consulted.sunatCode,
    sunatDescription: consulted.sunatDescription,
    raw: consulted.raw,
  };
}

export async function visibleDocument(app: App, user: SessionUser, id: number): Promise<DocumentRecord> {
  const doc = await repo.findDocument(app.db, id);
  if (!doc) throw notFound(BILLING_MESSAGES.notFound);
  assertVisible(user, doc);
  return doc;
}

const ref = (doc: DocumentRecord): DocumentRef => ({ type: doc.type as SunatDocumentType, series: doc.series, number: doc.number });
const fullNumber = (doc: { series: string; number: number }) => formatDocumentNumber(doc.series, doc.number);
const money = (numeric: string) => centsToNumber(toCents(numeric));
/** Lima wall-clock time (UTC−5, no daylight saving): the UBL IssueTime. */
export const limaTime = (instant: Date) => new Date(instant.getTime() - 5 * 3_600_000).toISOString().slice(11, 19);

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

async function customerById(app: App, id: number): Promise<BillingCustomer | null> {
  const [c] = await app.db.select().from(customers).where(eq(customers.id, id));
  if (!c) return null;
  return {
    docType: c.docType as BillingDocType,
    docNumber: c.docNumber,
    name: [c.firstName, c.lastName].filter(Boolean).join(' '),
    address: c.address,
    email: c.email,
  };
}

interface IssueOptions {
  idempotencyKey: string | null;
  /** The request as the client sent it, fingerprinted beside its key. */
  request: unknown;
  shipmentIds: number[];
}

/** The shipments a document will bill, checked before a number is taken. */
async function checkShipments(app: App, user: SessionUser, ids: number[]): Promise<void> {
  const rows = await repo.shipmentsByIds(app.db, ids);
  const scope = scopeOf(user);
  for (const id of ids) {
    const s = rows.find((r) => r.id === id);
    if (!s) throw unprocessable(BILLING_MESSAGES.shipmentNotFound(id));
    if (scope !== 'all' && s.originBranchId !== scope && s.destinationBranchId !== scope) throw forbidden(BILLING_MESSAGES.shipmentForbidden(s.code));
    if (s.status === 'Anulado') throw unprocessable(BILLING_MESSAGES.shipmentCancelled(s.code));
    const live = await repo.liveDocumentOfShipment(app.db, id);
    if (live) throw conflict(BILLING_MESSAGES.shipmentBilled(s.code, fullNumber(live)));
  }
}

/** What one issue stores: its register row (for the number it gets) and the shipments it links. */
interface NumberedIssue {
  type: SunatDocumentType;
  series: string;
  idempotencyKey: string | null;
  /** Fingerprint of the request the key came with (see `issueNumbered`). */
  payloadHash: string;
  /** The register's columns and the provider's document, once the series gave its number. */
  row(number: number, issueTime: string): { columns: RegisterColumns; document: BillingDocument | GuideDocument | VoucherDocument };
  links: { shipmentId: number; role?: 'guia' }[];
  /** The partial unique index a concurrent issue over the same shipments breaks, and who explains it. */
  liveLink: { constraint: string; explain: () => Promise<void> };
  /** Refusals that need the database, asked after a replay is ruled out (a replay's shipments are billed already). */
  check?: () => Promise<void>;
}

type RegisterColumns = Omit<
  typeof documents.$inferInsert,
  'id' | 'type' | 'series' | 'number' | 'document' | 'idempotencyKey' | 'idempotencyHash' | 'branchId' | 'userId' | 'userName'
>;

/**
 * Numbers, stores and sends any document (invoice, note, guide, voucher). The series' counter row is
 * locked in the inserting transaction (gapless, no duplicates under concurrency) and the number is
 * committed before the provider is called: whatever the provider does (answers, refuses, times out),
 * the document keeps its number, and a consult or retry completes it without taking another. The
 * same idempotency key from the same issuing branch with the same payload answers the same
 * document, even when two requests race; another branch's key is not theirs to replay (issue 31).
 */
async function issueNumbered(app: App, user: SessionUser, spec: NumberedIssue): Promise<IssueAnswer> {
  const idempotencyKey = repo.idempotencyKeyOf(spec.idempotencyKey);
  const replay = async (): Promise<IssueAnswer | null> => {
    const existing = await repo.findByIdempotencyKey(app.db, user.branchId, idempotencyKey);
    if (!existing) return null;
    // The key with another payload is a different request: refused, and nothing of the document told.
    // A key stored before payloads were fingerprinted (no hash) replays as it always did.
    if (existing.idempotencyHash !== null && existing.idempotencyHash !== spec.payloadHash) {
      throw conflict(BILLING_MESSAGES.idempotencyKeyReused, undefined, 'IDEMPOTENCY_KEY_REUSED');
    }
    return { statusCode: 200, result: issueResult(existing) };
  };
  const earlier = await replay();
  if (earlier) return earlier;
  await spec.check?.();
  const now = app.now();
  let doc: DocumentRecord;
  try {
    doc = await app.db.transaction(async (tx) => {
      const number = await repo.takeNumber(tx, spec.type, spec.series);
      const { columns, document } = spec.row(number, limaTime(now));
      const [row] = await tx
        .insert(documents)
        .values({
          ...columns,
          type: spec.type,
          series: spec.series,
          number,
          document,
          idempotencyKey,
          idempotencyHash: idempotencyKey ? spec.payloadHash : null,
          branchId: user.branchId,
          userId: user.id,
          userName: displayName(user),
        })
        .returning();
      if (spec.links.length > 0) await tx.insert(documentShipments).values(spec.links.map((link) => ({ ...link, documentId: row!.id })));
      await repo.addEvent(tx, row!.id, { kind: 'emitido', userId: user.id, userName: displayName(user), operation: 'emit', request: document });
      await audit(tx, {
        userId: user.id,
        entity: 'document',
        entityId: row!.id,
        action: 'emit',
        after: { type: spec.type, series: spec.series, number },
      });
      return row!;
    });
  } catch (err) {
    const pg = pgError(err);
    // Two emissions with the same key raced: the loser's transaction (and its number) rolled back.
    if (pg?.code === '23505' && pg.constraint === 'documents_branch_idempotency_uq') {
      const winner = await replay();
      if (winner) return winner;
    }
    // A shipment taken by a concurrent document between the check and the insert.
    if (pg?.code === '23505' && pg.constraint === spec.liveLink.constraint) await spec.liveLink.explain();
    throw err;
  }
  return send(app, user, doc);
}

/** Numbers, stores and sends a checked invoice, boleta or note (see `issueNumbered`). */
async function issueDraft(app: App, user: SessionUser, draft: InvoiceDraft, options: IssueOptions): Promise<IssueAnswer> {
  const t = draft.totals;
  const money = (cents: number) => (cents / 100).toFixed(2);
  return issueNumbered(app, user, {
    type: draft.type,
    series: draft.series,
    idempotencyKey: options.idempotencyKey,
    payloadHash: fingerprint({ request: options.request, shipmentIds: [...options.shipmentIds].sort((a, b) => a - b) }),
    row: (number, issueTime) => ({
      document: { ...draft, number, issueTime },
      columns: {
        issueDate: draft.issueDate,
        contingency: draft.contingency,
        customerId: draft.customerId,
        customerDocType: String(draft.customer.docType),
        customerDocNumber: draft.customer.docNumber,
        customerName: draft.customer.name,
        gravada: money(t.gravadaCents),
        exonerada: money(t.exoneradaCents),
        inafecta: money(t.inafectaCents),
        igv: money(t.igvCents),
        total: money(t.totalCents),
        modifies: draft.creditNote ? formatDocumentNumber(draft.creditNote.modifiedSeries, draft.creditNote.modifiedNumber) : null,
      },
    }),
    links: options.shipmentIds.map((shipmentId) => ({ shipmentId })),
    check: () => checkShipments(app, user, options.shipmentIds),
    liveLink: { constraint: 'document_shipments_live_uq', explain: () => checkShipments(app, user, options.shipmentIds) },
  });
}

/** A guide or voucher checked by the domain, ready to be numbered and stored like an invoice. */
export interface OtherIssue {
  type: SunatDocumentType;
  series: string;
  issueDate: string;
  contingency: boolean;
  /** The guide's client or the voucher's subject: the register's customer columns. */
  party: { docType: number; docNumber: string; name: string };
  /** The voucher's withheld or perceived total (0 for a guide). */
  totalCents: number;
  /** The document the provider takes, once numbered. */
  build(number: number, issueTime: string): GuideDocument | VoucherDocument;
  idempotencyKey: string | null;
  /** Shipments carried under the guide (a GRE-T from a load), linked in the numbering transaction. */
  carriedShipmentIds?: number[];
  /** Asked again when a concurrent guide took one of the shipments between the check and the insert. */
  onShipmentTaken?: () => Promise<void>;
}

/** Numbers, stores and sends a guide or voucher exactly as an invoice (see `issueNumbered`). */
export async function issueOther(app: App, user: SessionUser, spec: OtherIssue): Promise<IssueAnswer> {
  const carried = [...new Set(spec.carriedShipmentIds ?? [])];
  return issueNumbered(app, user, {
    type: spec.type,
    series: spec.series,
    idempotencyKey: spec.idempotencyKey,
    // A guide or voucher is fingerprinted as built: the domain's draft is all its request says.
    payloadHash: fingerprint(spec.build(0, '')),
    row: (number, issueTime) => ({
      document: spec.build(number, issueTime),
      columns: {
        issueDate: spec.issueDate,
        contingency: spec.contingency,
        customerDocType: String(spec.party.docType),
        customerDocNumber: spec.party.docNumber,
        customerName: spec.party.name,
        gravada: '0.00',
        exonerada: '0.00',
        inafecta: '0.00',
        igv: '0.00',
        total: (spec.totalCents / 100).toFixed(2),
      },
    }),
    links: carried.map((shipmentId) => ({ shipmentId, role: 'guia' as const })),
    liveLink: { constraint: 'document_shipments_guide_live_uq', explain: async () => spec.onShipmentTaken?.() },
  });
}

export async function send(app: App, user: SessionUser | null, doc: DocumentRecord): Promise<IssueAnswer> {
  const { provider } = billingOf(app);
  try {
    const result = await emitByType(provider, doc);
    const updated = await applyEmit(app, user, doc, result, 'emit');
    // A guide waits for SUNAT (202 until a consult finds it accepted); an invoice answers as before.
    if (!isInvoiceType(doc.type) && updated.status === 'pendiente') return { statusCode: 202, result: issueResult(updated) };
    return { statusCode: 201, result: issueResult(updated) };
  } catch (err) {
    if (!(err instanceof BillingProviderError)) throw err;
    const updated = await applyProviderError(app, user, doc, err, 'emit');
    if (updated.status === 'rechazado') return { statusCode: 422, result: issueResult(updated, err.message) };
    if (err.uncertain) return { statusCode: 202, result: { ...issueResult(updated), error: BILLING_MESSAGES.providerPending } };
    return { statusCode: 424, result: { ...issueResult(updated, err.message), ok: false } };
  }
}

const EVENT_OF_STATUS: Record<string, DocumentEventKind> = { aceptado: 'aceptado', rechazado: 'rechazado', pendiente: 'consultado' };

async function applyEmit(app: App, user: SessionUser | null, doc: DocumentRecord, result: EmitResult, operation: string): Promise<DocumentRecord> {
  // A guide is polled while SUNAT has not accepted it: a consult that changes nothing writes nothing.
  if (operation === 'consult' && isGuideType(doc.type) && doc.status === 'pendiente' && result.status === 'pendiente') return doc;
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(documents)
      .set({
        status: result.status,
        hash: result.hash ?? doc.hash,
        qrText: result.qrText ?? doc.qrText,
        xml: result.xml ?? doc.xml,
        pdfUrl: result.links?.pdf ?? doc.pdfUrl,
        providerMessage: result.sunatDescription ?? doc.providerMessage,
        updatedAt: app.now(),
      })
      .where(and(eq(documents.id, doc.id), eq(documents.status, 'pendiente')))
      .returning();
    if (result.status === 'rechazado') await freeShipments(tx, doc.id);
    await repo.addEvent(tx, doc.id, {
      kind: EVENT_OF_STATUS[result.status] ?? 'consultado',
      userId: user?.id,
      userName: user ? displayName(user) : null,
      note: result.sunatDescription,
      operation,
      answer: result.raw,
    });
    await audit(tx, { userId: user?.id ?? null, entity: 'document', entityId: doc.id, action: operation, after: { status: result.status } });
    return row ?? (await repo.findDocument(tx, doc.id))!;
  });
}

async function applyProviderError(app: App, user: SessionUser | null, doc: DocumentRecord, err: BillingProviderError, operation: string) {
  return app.db.transaction(async (tx) => {
    const rejected = err.kind === 'rejected';
    const [row] = await tx
      .update(documents)
      .set({ status: rejected ? 'rechazado' : doc.status, providerMessage: err.message, updatedAt: app.now() })
      .where(eq(documents.id, doc.id))
      .returning();
    if (rejected) await freeShipments(tx, doc.id);
    await repo.addEvent(tx, doc.id, {
      kind: rejected ? 'rechazado' : 'error',
      userId: user?.id,
      userName: user ? displayName(user) : null,
      note: err.message,
      operation,
      answer: { kind: err.kind, message: err.message },
    });
    await audit(tx, { userId: user?.id ?? null, entity: 'document', entityId: doc.id, action: operation, after: { error: err.kind } });
    return row!;
  });
}

type Tx = Parameters<Parameters<App['db']['transaction']>[0]>[0];
async function freeShipments(tx: Tx, documentId: number) {
  await tx.update(documentShipments).set({ live: false }).where(eq(documentShipments.documentId, documentId));
}

/** `POST /billing/create-emit`: the form's payload, checked by the same rules as the form. */
export async function createAndEmit(app: App, user: SessionUser, payload: InvoicePayload, shipmentIds: number[] = []): Promise<IssueAnswer> {
  const customer = payload.customerId ? await customerById(app, payload.customerId) : null;
  const check = checkInvoice(payload, { today: limaDay(app.now()), customer });
  if (!check.ok) return { statusCode: 422, result: refusal(check.problems) };
  return issueDraft(app, user, check.draft, {
    idempotencyKey: payload.extras.codigo_unico ?? null,
    request: payload,
    shipmentIds: [...new Set(shipmentIds)],
  });
}

/** `POST /billing/emit` and the payments module: the receipt of a payment taken at the counter. */
export async function issueReceipt(app: App, user: SessionUser, input: ReceiptRequest, shipmentIds: number[] = []): Promise<IssueAnswer> {
  const today = limaDay(app.now());
  const registered = input.customerId ? await customerById(app, input.customerId) : null;
  if (input.customerId && !registered) return { statusCode: 422, result: refusal([BILLING_MESSAGES.customerNotFound]) };
  let amountCents: number;
  try {
    amountCents = toCents(input.amount);
  } catch {
    return { statusCode: 422, result: refusal(['Monto inválido']) };
  }
  const c = input.customer;
  const customer: BillingCustomer = registered ?? {
    docType: (c?.doc_type ?? 1) as BillingDocType,
    docNumber: c?.doc_number ?? '',
    name: c?.name ?? '',
    address: c?.address ?? null,
    email: c?.email ?? null,
  };
  const check = paymentReceiptDraft(
    {
      amountCents,
      customer,
      customerId: input.customerId ?? null,
      issueDate: today,
      code: input.shipmentCode ?? null,
      ...(input.description ? { description: input.description } : {}),
    },
    { today, customer: registered },
  );
  if (!check.ok) return { statusCode: 422, result: refusal(check.problems) };
  return issueDraft(app, user, check.draft, { idempotencyKey: input.codigo_unico ?? null, request: input, shipmentIds });
}

/** A pending document asks the provider again (a pending void likewise); a lost one is sent again with its own number. */
export async function syncDocument(app: App, user: SessionUser | null, doc: DocumentRecord): Promise<DocumentRecord> {
  const { provider } = billingOf(app);
  if (doc.status === 'pendiente') {
    try {
      const result = await consultByType(provider, doc);
      return await applyEmit(app, user, doc, result, 'consult');
    } catch (err) {
      if (!(err instanceof BillingProviderError)) throw err;
      // The provider never received it (the emission's answer was lost before it arrived): send it again, same number.
      if (err.kind === 'not_found') {
        await send(app, user, doc);
        return (await repo.findDocument(app.db, doc.id))!;
      }
      return applyProviderError(app, user, doc, err, 'consult');
    }
  }
  if (doc.status === 'anulación pendiente') {
    try {
      const result = await voidStatusByType(provider, doc);
      return await applyVoid(app, user, doc, result.status, result.sunatDescription, result.raw, 'void-status');
    } catch (err) {
      if (!(err instanceof BillingProviderError)) throw err;
      await app.db.transaction(async (tx) => {
        await repo.addEvent(tx, doc.id, { kind: 'error', userId: user?.id, note: err.message, operation: 'void-status' });
        await audit(tx, { userId: user?.id ?? null, entity: 'document', entityId: doc.id, action: 'void-status', after: { error: err.kind } });
      });
      return doc;
    }
  }
  return doc;
}

async function applyVoid(
  app: App,
  user: SessionUser | null,
  doc: DocumentRecord,
  status: DocumentStatus,
  message: string | null,
  raw: unknown,
  operation: string,
): Promise<DocumentRecord> {
  return app.db.transaction(async (tx) => {
    // SUNAT refusing the void leaves the document as it was: accepted, or a boleta voided before
    // SUNAT accepted it pending again, for its consult to settle.
    const next = status === 'rechazado' ? ((await repo.wasAccepted(tx, doc.id)) ? 'aceptado' : 'pendiente') : status;
    const [row] = await tx
      .update(documents)
      .set({ status: next, providerMessage: message ?? doc.providerMessage, updatedAt: app.now() })
      .where(and(eq(documents.id, doc.id), eq(documents.status, 'anulación pendiente')))
      .returning();
    if (next === 'anulado') await freeShipments(tx, doc.id);
    const kind: DocumentEventKind = next === 'anulado' ? 'anulado' : status === 'rechazado' ? 'rechazado' : 'consultado';
    await repo.addEvent(tx, doc.id, { kind, userId: user?.id, userName: user ? displayName(user) : null, note: message, operation, answer: raw });
    await audit(tx, { userId: user?.id ?? null, entity: 'document', entityId: doc.id, action: operation, after: { status: next } });
    return row ?? (await repo.findDocument(tx, doc.id))!;
  });
}

/**
 * What a void starts from: an accepted document, or a boleta still pending at SUNAT (not yet in a
 * daily summary: SUNAT lets the summary report it voided, estado 3, and the void is tracked as any other).
 */
const voidable = or(eq(documents.status, 'aceptado'), and(eq(documents.type, '03'), eq(documents.status, 'pendiente')));

const voidAnswer = (doc: DocumentRecord): VoidStatus => ({ id: doc.id, status: doc.status as DocumentStatus, message: doc.providerMessage });

/**
 * `POST /billing/void`: asks SUNAT to void an accepted document; a second request is refused.
 * `uniqueCode` (the caller's codigo_unico) is kept on the request's event: the same code asked again
 * is answered by the void's status instead of a refusal.
 */
export async function voidDocument(app: App, user: SessionUser, id: number, motivo: string, uniqueCode: string | null = null): Promise<VoidStatus> {
  const reason = motivo.trim();
  if (!reason) throw badRequest(BILLING_MESSAGES.voidReason, { motivo: BILLING_MESSAGES.voidReason });
  if (reason.length > VOID_REASON_MAX_LENGTH) throw badRequest(BILLING_MESSAGES.voidReasonLong, { motivo: BILLING_MESSAGES.voidReasonLong });
  const doc = await visibleDocument(app, user, id);
  if (await repo.isReceiptOfLivePayment(app.db, id)) throw conflict(BILLING_MESSAGES.receiptOfPayment, undefined, 'RECEIPT_OF_PAYMENT');
  // The conditional update is the lock: of two voids at once, one finds the document voidable.
  const requested = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(documents)
      .set({ status: 'anulación pendiente', voidReason: reason, updatedAt: app.now() })
      .where(and(eq(documents.id, id), voidable))
      .returning();
    if (!row) return null;
    await repo.addEvent(tx, id, {
      kind: 'anulación solicitada',
      userId: user.id,
      userName: displayName(user),
      note: reason,
      operation: 'void',
      request: uniqueCode ? { motivo: reason, codigo_unico: uniqueCode } : null,
    });
    await audit(tx, { userId: user.id, entity: 'document', entityId: id, action: 'void', before: { status: doc.status }, after: { reason } });
    return row;
  });
  if (!requested) {
    const current = (await repo.findDocument(app.db, id))!;
    if (current.status === 'anulado') throw conflict(BILLING_MESSAGES.alreadyVoided);
    if (current.status === 'anulación pendiente') throw conflict(BILLING_MESSAGES.voidPending);
    throw unprocessable(BILLING_MESSAGES.notAccepted);
  }
  try {
    const result = await voidByType(billingOf(app).provider, doc, reason);
    return voidAnswer(await applyVoid(app, user, requested, result.status, result.sunatDescription, result.raw, 'void'));
  } catch (err) {
    if (!(err instanceof BillingProviderError)) throw err;
    if (err.uncertain) return voidAnswer(requested);
    // The provider said no before SUNAT saw it: the document stays as it was.
    await app.db.transaction(async (tx) => {
      await tx.update(documents).set({ status: doc.status, updatedAt: app.now() }).where(eq(documents.id, id));
      await repo.addEvent(tx, id, { kind: 'error', userId: user.id, userName: displayName(user), note: err.message, operation: 'void' });
      await audit(tx, { userId: user.id, entity: 'document', entityId: id, action: 'void', after: { error: err.kind } });
    });
    throw new AppError(424, 'PROVIDER', err.message);
  }
}

export async function voidStatus(app: App, user: SessionUser, id: number): Promise<VoidStatus> {
  const doc = await visibleDocument(app, user, id);
  return voidAnswer(await syncDocument(app, user, doc));
}

function toRow(doc: DocumentRecord, branchName: string | null): DocumentRow {
  return {
    id: doc.id,
    type: doc.type as DocumentRow['type'],
    series: doc.series,
    number: doc.number,
    fullNumber: fullNumber(doc),
    issueDate: doc.issueDate,
    contingency: doc.contingency,
    status: doc.status as DocumentStatus,
    customerId: doc.customerId,
    customerDocType: doc.customerDocType,
    customerDocNumber: doc.customerDocNumber,
    customerName: doc.customerName,
    currency: 'PEN',
    total: money(doc.total),
    branchId: doc.branchId,
    branchName,
    issuedByName: doc.userName,
    createdAt: doc.createdAt.toISOString(),
    modifies: doc.modifies,
  };
}

/** `GET /billing/lookup/{id}`: the opened document; a pending one is consulted first. */
export async function lookupDocument(app: App, user: SessionUser, id: number): Promise<DocumentDetail> {
  const doc = await syncDocument(app, user, await visibleDocument(app, user, id));
  const [branchName, events, billed] = await Promise.all([
    repo.branchName(app.db, doc.branchId),
    repo.eventsOf(app.db, id),
    repo.shipmentsOf(app.db, id),
  ]);
  const common = {
    voidReason: doc.voidReason,
    shipmentIds: billed.map((s) => s.id),
    shipmentCodes: billed.map((s) => s.code),
    providerExchanges: events
      .filter((e) => e.operation && (e.request !== null || e.answer !== null))
      .map((e) => ({ at: e.at.toISOString(), operation: e.operation!, request: e.request, answer: e.answer })),
    history: events.map((e) => ({ at: e.at.toISOString(), kind: e.kind as DocumentEventKind, userName: e.userName, note: e.note })),
  };
  if (!isInvoiceType(doc.type)) return { ...otherDetail(doc, branchName), ...common };
  const d = doc.document as BillingDocument;
  const { issuer } = billingOf(app);
  return {
    ...toRow(doc, branchName),
    customerAddress: d.customer.address,
    customerEmail: d.customer.email,
    paymentForm: d.payment.form,
    instalments: d.payment.instalments.map((i) => ({ number: i.cuota, dueDate: i.fecha_de_pago, amount: centsToNumber(i.importeCents) })),
    lines: d.lines.map((l) => ({
      description: l.description,
      unit: l.unit,
      quantity: l.quantity,
      unitValue: l.unitValue,
      igvType: l.igvType,
      discount: centsToNumber(l.discountCents),
      taxable: centsToNumber(l.subtotalCents),
      igv: centsToNumber(l.igvCents),
      total: centsToNumber(l.totalCents),
    })),
    totals: {
      gravada: money(doc.gravada),
      exonerada: money(doc.exonerada),
      inafecta: money(doc.inafecta),
      igv: money(doc.igv),
      total: money(doc.total),
    },
    detraction: d.detraction
      ? {
          code: d.detraction.serviceCode,
          percent: d.detraction.percent,
          amount: centsToNumber(d.detraction.amountCents),
          bankAccount: d.detraction.bankAccount,
          paymentMeans: d.detraction.paymentMeans,
        }
      : null,
    creditNote: d.creditNote
      ? {
          reason: d.creditNote.reason,
          modifiedType: d.creditNote.modifiedType,
          modifiedSeries: d.creditNote.modifiedSeries,
          modifiedNumber: d.creditNote.modifiedNumber,
        }
      : null,
    guides: d.guides.map((g) => ({ type: g.type, series: g.series, number: String(g.number) })),
    qrText: doc.qrText ?? qrOf(issuer.ruc, doc, d),
    hash: doc.hash,
    amountInWords: amountInWords(d.totals.totalCents),
    ...common,
  };
}

const zeroTotals = { gravada: 0, exonerada: 0, inafecta: 0, igv: 0, total: 0 };

/** The opened guide or voucher: the invoice fields that do not apply are empty, and `guide` or `voucher` tells the rest. */
function otherDetail(doc: DocumentRecord, branchName: string | null) {
  const base = {
    ...toRow(doc, branchName),
    paymentForm: 'contado' as const,
    instalments: [],
    detraction: null,
    creditNote: null,
    guides: [],
    qrText: doc.qrText ?? '',
    hash: doc.hash,
  };
  if (isGuideType(doc.type)) {
    const g = doc.document as GuideDocument;
    return {
      ...base,
      customerAddress: g.client.address,
      customerEmail: g.client.email,
      lines: g.items.map((i) => ({
        description: i.code ? `${i.code} ${i.description}` : i.description,
        unit: i.unit,
        quantity: i.quantity,
        unitValue: '0',
        igvType: '',
        discount: 0,
        taxable: 0,
        igv: 0,
        total: 0,
      })),
      totals: zeroTotals,
      amountInWords: '',
      guide: {
        mode: g.mode,
        transferDate: g.transferDate,
        transferReason: g.transferReason,
        transportType: g.transportType,
        grossWeight: g.grossWeight,
        grossWeightUnit: g.grossWeightUnit,
        bundles: g.bundles,
        origin: g.origin,
        destination: g.destination,
        plate: g.plate,
        secondaryPlates: g.secondaryPlates,
        driver: g.driver ? { docNumber: g.driver.docNumber, names: g.driver.names, surnames: g.driver.surnames, licence: g.driver.licence } : null,
        carrier: g.carrier ? { docNumber: g.carrier.docNumber, name: g.carrier.name } : null,
        recipient: g.recipient ? { docNumber: g.recipient.docNumber, name: g.recipient.name } : null,
        items: g.items.map((i) => ({ code: i.code, description: i.description, quantity: i.quantity, unit: i.unit, weightKg: i.weightKg })),
      },
    };
  }
  const v = doc.document as VoucherDocument;
  return {
    ...base,
    customerAddress: v.subject.address,
    customerEmail: v.subject.email,
    lines: v.lines.map((l) => ({
      description: `${l.type} ${formatDocumentNumber(l.series, Number(l.number))}`,
      unit: 'ZZ',
      quantity: '1',
      unitValue: (l.baseCents / 100).toFixed(2),
      igvType: '',
      discount: 0,
      taxable: centsToNumber(l.baseCents),
      igv: 0,
      total: centsToNumber(l.amountCents),
    })),
    totals: { ...zeroTotals, total: centsToNumber(v.amountTotalCents) },
    amountInWords: amountInWords(v.amountTotalCents),
    voucher: {
      percent: v.percent,
      baseTotal: centsToNumber(v.baseTotalCents),
      amountTotal: centsToNumber(v.amountTotalCents),
      netTotal: centsToNumber(v.netTotalCents),
      lines: v.lines.map((l) => ({
        type: l.type,
        series: l.series,
        number: l.number,
        issueDate: l.issueDate,
        total: centsToNumber(l.totalCents),
        paymentDate: l.paymentDate,
        base: centsToNumber(l.baseCents),
        amount: centsToNumber(l.amountCents),
        net: centsToNumber(l.netCents),
      })),
    },
  };
}

function qrOf(ruc: string, doc: DocumentRecord, d: BillingDocument): string {
  return sunatQrText({
    issuerRuc: ruc,
    type: d.type,
    series: doc.series,
    number: doc.number,
    igvCents: d.totals.igvCents,
    totalCents: d.totals.totalCents,
    issueDate: doc.issueDate,
    customerDocType: d.customer.docType,
    customerDocNumber: d.customer.docNumber,
    hash: doc.hash ?? '',
  });
}

export async function listDocuments(app: App, user: SessionUser, filters: DocumentFilters, request: KeysetRequest): Promise<DocumentPage> {
  const { page, pageSize } = request;
  const { rows, next, prev, sums } = await repo.listDocuments(app.db, filters, scopeOf(user), request);
  return {
    items: rows.map((r) => toRow(r.doc, r.branchName)),
    total: sums.capped ? NUMBERED_PAGE_ROWS : Number(sums.total),
    ...(sums.capped ? { totalCapped: true } : {}),
    page,
    pageSize,
    next,
    prev,
    sums: sums.capped
      ? null
      : {
          gravada: money(sums.gravada),
          exonerada: money(sums.exonerada),
          inafecta: money(sums.inafecta),
          igv: money(sums.igv),
          total: money(sums.amount),
        },
  };
}

export async function documentPdf(app: App, user: SessionUser, id: number, format: PdfFormat): Promise<{ pdf: Buffer; filename: string }> {
  const doc = await visibleDocument(app, user, id);
  const { issuer, provider } = billingOf(app);
  const filename = `${issuer.ruc}-${doc.type}-${fullNumber(doc)}.pdf`;
  const printed = { issuer, hash: doc.hash, qrText: doc.qrText, status: doc.status as DocumentStatus, demo: provider.name === 'sandbox' };
  // Guides and vouchers print on A4 only.
  if (isGuideType(doc.type)) return { pdf: await renderGuidePdf({ ...printed, document: doc.document as GuideDocument }), filename };
  if (isVoucherType(doc.type)) return { pdf: await renderVoucherPdf({ ...printed, document: doc.document as VoucherDocument }), filename };
  const document = doc.document as BillingDocument;
  const pdf = await renderDocumentPdf(
    {
      document,
      issuer,
      hash: doc.hash,
      qrText: doc.qrText ?? qrOf(issuer.ruc, doc, document),
      status: doc.status as DocumentStatus,
      demo: provider.name === 'sandbox',
    },
    format,
  );
  return { pdf, filename };
}

export async function documentXml(app: App, user: SessionUser, id: number): Promise<{ xml: string; filename: string }> {
  const doc = await visibleDocument(app, user, id);
  if (!doc.xml) throw notFound(BILLING_MESSAGES.xmlMissing);
  return { xml: doc.xml, filename: `${billingOf(app).issuer.ruc}-${doc.type}-${fullNumber(doc)}.xml` };
}

export async function unbilledShipments(app: App, user: SessionUser, customerId: number): Promise<UnbilledShipment[]> {
  const rows = await repo.unbilledShipments(app.db, customerId, scopeOf(user));
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    createdAt: r.createdAt.toISOString(),
    originName: r.originName,
    destinationName: r.destinationName,
    status: r.status,
    price: money(r.price),
  }));
}
