import { BILLING_MESSAGES, displayName, voidReasonField, type DocumentEventKind, type DocumentStatus, type VoidStatus } from '@tramo/domain';
import { audit } from '../../lib/audit.ts';
import { AppError, badRequest, conflict, unprocessable } from '../../lib/errors.ts';
import {
  BillingProviderError,
  type BillingDocument,
  type BillingProvider,
  type EmitResult,
  type GuideDocument,
  type VoidResult,
  type VoidSummary,
  type VoucherDocument,
} from '../../providers/billing/index.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { isGuideType, isInvoiceType, isVoucherType, issueResult, ref, visibleDocument, type IssueAnswer } from './documents.ts';
import { assertNoteVoidable } from './credit-notes.ts';
import { billingOf } from './provider.ts';
import * as repo from './repository.ts';
import type { DocumentRecord } from './repository.ts';

/** A stored document's life at the provider: sent, consulted until SUNAT settles it, voided. */

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

/** The provider's answer to an emission: what it returned, or the provider error it raised. */
export type EmitAnswer = { result: EmitResult; error?: undefined } | { result?: undefined; error: BillingProviderError };

/** The provider call that issues a stored document; no transaction is open across it (it can take seconds). */
export async function emitToProvider(ctx: ServiceContext, doc: DocumentRecord): Promise<EmitAnswer> {
  try {
    return { result: await emitByType(billingOf(ctx).provider, doc) };
  } catch (err) {
    if (!(err instanceof BillingProviderError)) throw err;
    return { error: err };
  }
}

/** Writes the provider's answer (status, event, audit) in the caller's transaction and tells the issue's answer. */
export async function recordEmission(
  ctx: ServiceContext,
  tx: Tx,
  user: SessionUser | null,
  doc: DocumentRecord,
  answer: EmitAnswer,
): Promise<IssueAnswer> {
  if (answer.error === undefined) return recordEmitted(ctx, tx, user, doc, answer.result);
  const err = answer.error;
  const updated = await applyProviderErrorIn(ctx, tx, user, doc, err, 'emit');
  if (updated.status === 'rechazado') return { statusCode: 422, result: issueResult(updated, err.message) };
  if (err.uncertain) return { statusCode: 202, result: { ...issueResult(updated), error: BILLING_MESSAGES.providerPending } };
  return { statusCode: 424, result: { ...issueResult(updated, err.message), ok: false } };
}

/** The provider's answer to an emission, written (see `applyEmitIn`), and the issue's answer. */
async function recordEmitted(
  ctx: ServiceContext,
  db: Db | Tx,
  user: SessionUser | null,
  doc: DocumentRecord,
  result: EmitResult,
): Promise<IssueAnswer> {
  const updated = await applyEmitIn(ctx, db, user, doc, result, 'emit');
  // A guide waits for SUNAT (202 until a consult finds it accepted); an invoice answers as before.
  if (!isInvoiceType(doc.type) && updated.status === 'pendiente') return { statusCode: 202, result: issueResult(updated) };
  return { statusCode: 201, result: issueResult(updated) };
}

/** Sends a stored document and records the answer in a transaction of its own. */
export async function send(ctx: ServiceContext, user: SessionUser | null, doc: DocumentRecord): Promise<IssueAnswer> {
  const answer = await emitToProvider(ctx, doc);
  // An answer that frees no shipments here is written by one statement: no transaction around it (a
  // crediting note's acceptance frees its factura's in that statement's trigger, migration 0115).
  if (answer.error === undefined && answer.result.status !== 'rechazado') return recordEmitted(ctx, ctx.db, user, doc, answer.result);
  return ctx.db.transaction((tx) => recordEmission(ctx, tx, user, doc, answer));
}

const EVENT_OF_STATUS: Record<string, DocumentEventKind> = { aceptado: 'aceptado', rechazado: 'rechazado', pendiente: 'consultado' };

async function applyEmit(
  ctx: ServiceContext,
  user: SessionUser | null,
  doc: DocumentRecord,
  result: EmitResult,
  operation: string,
): Promise<DocumentRecord> {
  // A guide is polled while SUNAT has not accepted it: a consult that changes nothing writes nothing.
  if (operation === 'consult' && isGuideType(doc.type) && doc.status === 'pendiente' && result.status === 'pendiente') return doc;
  return ctx.db.transaction((tx) => applyEmitIn(ctx, tx, user, doc, result, operation));
}

async function applyEmitIn(
  ctx: ServiceContext,
  tx: Db | Tx,
  user: SessionUser | null,
  doc: DocumentRecord,
  result: EmitResult,
  operation: string,
): Promise<DocumentRecord> {
  const row = await repo.answerPending(tx, {
    id: doc.id,
    status: result.status,
    hash: result.hash ?? doc.hash,
    qrText: result.qrText ?? doc.qrText,
    xml: result.xml ?? doc.xml,
    pdfUrl: result.links?.pdf ?? doc.pdfUrl,
    providerMessage: result.sunatDescription ?? doc.providerMessage,
    updatedAt: ctx.now(),
    eventKind: EVENT_OF_STATUS[result.status] ?? 'consultado',
    userId: user?.id ?? null,
    userName: user ? displayName(user) : null,
    note: result.sunatDescription ?? null,
    operation,
    answer: result.raw,
  });
  if (result.status === 'rechazado') await repo.freeShipments(tx, doc.id);
  return row ?? (await repo.findDocument(tx, doc.id))!;
}

async function applyProviderError(ctx: ServiceContext, user: SessionUser | null, doc: DocumentRecord, err: BillingProviderError, operation: string) {
  return ctx.db.transaction((tx) => applyProviderErrorIn(ctx, tx, user, doc, err, operation));
}

async function applyProviderErrorIn(
  ctx: ServiceContext,
  tx: Tx,
  user: SessionUser | null,
  doc: DocumentRecord,
  err: BillingProviderError,
  operation: string,
): Promise<DocumentRecord> {
  const rejected = err.kind === 'rejected';
  const row = await repo.updateDocument(tx, doc.id, {
    status: rejected ? 'rechazado' : doc.status,
    providerMessage: err.message,
    updatedAt: ctx.now(),
  });
  if (rejected) await repo.freeShipments(tx, doc.id);
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
}

/** A pending document asks the provider again (a pending void likewise); a lost one is sent again with its own number. */
export async function syncDocument(ctx: ServiceContext, user: SessionUser | null, doc: DocumentRecord): Promise<DocumentRecord> {
  const { provider } = billingOf(ctx);
  if (doc.status === 'pendiente') {
    try {
      const result = await consultByType(provider, doc);
      return await applyEmit(ctx, user, doc, result, 'consult');
    } catch (err) {
      if (!(err instanceof BillingProviderError)) throw err;
      // The provider never received it (the emission's answer was lost before it arrived): send it again, same number.
      if (err.kind === 'not_found') {
        await send(ctx, user, doc);
        return (await repo.findDocument(ctx.db, doc.id))!;
      }
      return applyProviderError(ctx, user, doc, err, 'consult');
    }
  }
  if (doc.status === 'anulación pendiente') {
    try {
      const result = await voidStatusByType(provider, doc);
      return await applyVoid(ctx, user, doc, result.status, result.sunatDescription, result.raw, 'void-status', result.summary);
    } catch (err) {
      if (!(err instanceof BillingProviderError)) throw err;
      await ctx.db.transaction(async (tx) => {
        await repo.addEvent(tx, doc.id, { kind: 'error', userId: user?.id, note: err.message, operation: 'void-status' });
        await audit(tx, { userId: user?.id ?? null, entity: 'document', entityId: doc.id, action: 'void-status', after: { error: err.kind } });
      });
      return doc;
    }
  }
  return doc;
}

async function applyVoid(
  ctx: ServiceContext,
  user: SessionUser | null,
  doc: DocumentRecord,
  status: DocumentStatus,
  message: string | null,
  raw: unknown,
  operation: string,
  summary?: VoidSummary | null,
): Promise<DocumentRecord> {
  return ctx.db.transaction(async (tx) => {
    // The RA or RC that asked SUNAT, kept with the document like its own XML.
    const sent = summary ? { voidSummaryId: summary.id, voidTicket: summary.ticket, voidXml: summary.xml } : {};
    // SUNAT refusing the void leaves the document as it was: accepted, or a boleta voided before
    // SUNAT accepted it pending again, for its consult to settle.
    const next = status === 'rechazado' ? ((await repo.wasAccepted(tx, doc.id)) ? 'aceptado' : 'pendiente') : status;
    const row = await repo.updateDocument(
      tx,
      doc.id,
      { status: next, providerMessage: message ?? doc.providerMessage, updatedAt: ctx.now(), ...sent },
      'anulación pendiente',
    );
    if (next === 'anulado') await repo.freeShipments(tx, doc.id);
    const kind: DocumentEventKind = next === 'anulado' ? 'anulado' : status === 'rechazado' ? 'rechazado' : 'consultado';
    await repo.addEvent(tx, doc.id, { kind, userId: user?.id, userName: user ? displayName(user) : null, note: message, operation, answer: raw });
    await audit(tx, { userId: user?.id ?? null, entity: 'document', entityId: doc.id, action: operation, after: { status: next } });
    return row ?? (await repo.findDocument(tx, doc.id))!;
  });
}

const voidAnswer = (doc: DocumentRecord): VoidStatus => ({ id: doc.id, status: doc.status as DocumentStatus, message: doc.providerMessage });

/**
 * `POST /billing/void`: asks SUNAT to void an accepted document; a second request is refused.
 * `uniqueCode` (the caller's codigo_unico) is kept on the request's event: the same code asked again
 * is answered by the void's status instead of a refusal.
 */
export async function voidDocument(
  ctx: ServiceContext,
  user: SessionUser,
  id: number,
  motivo: string,
  uniqueCode: string | null = null,
): Promise<VoidStatus> {
  // The route checked it already; payments and the guides' annul call here directly.
  const checked = voidReasonField.safeParse(motivo);
  if (!checked.success) throw badRequest(checked.error.issues[0]!.message, { motivo: checked.error.issues[0]!.message });
  const reason = checked.data;
  if (!reason) throw badRequest(BILLING_MESSAGES.voidReason, { motivo: BILLING_MESSAGES.voidReason });
  const doc = await visibleDocument(ctx, user, id);
  if (await repo.isReceiptOfLivePayment(ctx.db, id)) throw conflict(BILLING_MESSAGES.receiptOfPayment, undefined, 'RECEIPT_OF_PAYMENT');
  // The conditional update is the lock: of two voids at once, one finds the document voidable.
  const requested = await ctx.db.transaction(async (tx) => {
    // A crediting note's void gives its document's shipments back: refused while another comprobante bills them.
    if (doc.type === '07') await assertNoteVoidable(tx, id);
    const row = await repo.updateDocument(tx, id, { status: 'anulación pendiente', voidReason: reason, updatedAt: ctx.now() }, 'voidable');
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
    const current = (await repo.findDocument(ctx.db, id))!;
    if (current.status === 'anulado') throw conflict(BILLING_MESSAGES.alreadyVoided);
    if (current.status === 'anulación pendiente') throw conflict(BILLING_MESSAGES.voidPending);
    throw unprocessable(BILLING_MESSAGES.notAccepted);
  }
  try {
    const result = await voidByType(billingOf(ctx).provider, doc, reason);
    return voidAnswer(await applyVoid(ctx, user, requested, result.status, result.sunatDescription, result.raw, 'void', result.summary));
  } catch (err) {
    if (!(err instanceof BillingProviderError)) throw err;
    if (err.uncertain) return voidAnswer(requested);
    // The provider said no before SUNAT saw it: the document stays as it was.
    await ctx.db.transaction(async (tx) => {
      await repo.updateDocument(tx, id, { status: doc.status, updatedAt: ctx.now() });
      await repo.addEvent(tx, id, { kind: 'error', userId: user.id, userName: displayName(user), note: err.message, operation: 'void' });
      await audit(tx, { userId: user.id, entity: 'document', entityId: id, action: 'void', after: { error: err.kind } });
    });
    throw new AppError(424, 'PROVIDER', err.message);
  }
}

export async function voidStatus(ctx: ServiceContext, user: SessionUser, id: number): Promise<VoidStatus> {
  const doc = await visibleDocument(ctx, user, id);
  return voidAnswer(await syncDocument(ctx, user, doc));
}
