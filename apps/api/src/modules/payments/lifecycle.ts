import {
  destinationVoidRefusal,
  limaDay,
  PAYMENT_MESSAGES,
  RECEIPT_DESCRIPTION_MAX,
  receiptItemFor,
  receiptItemsFromComponents,
  receiptKey,
  toCents,
  type IssueResult,
  type ManualPayment,
  type ManualPaymentResult,
  type PriceComponentAnswer,
  type PaymentStatus,
  scopeOf,
} from '@tramo/domain';
import { audit } from '../../lib/audit.ts';
import type { KeysetRequest } from '../../lib/keyset.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import type { Tx } from '../../db/client.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { issuePaymentReceipt, lookupDocument, voidDocument, type CounterReceipt, type IssueAnswer } from '../billing/index.ts';
import { loadCompanyTariff } from '../pricing/index.ts';
import { toPayment, visiblePayment } from './access.ts';
import { sessionForPayment } from './cash-sessions.ts';
import type { CashSessionRecord } from './queries/cash-sessions.ts';
import * as repo from './queries/payments.ts';
import type { PaymentRecord, PaymentView } from './queries/payments.ts';

/** A payment's life: created pending, its receipt issued, confirmed paid; or voided with its receipt. */

export async function listManualPayments(
  ctx: ServiceContext,
  user: SessionUser,
  day: string | undefined,
  status: PaymentStatus | undefined,
  request: KeysetRequest,
) {
  const { rows, total, totalCapped, next, prev } = await repo.listPayments(ctx.db, scopeOf(user), day ?? limaDay(ctx.now()), status, request);
  return { items: rows.map(toPayment), total, totalCapped, page: request.page, pageSize: request.pageSize, next, prev };
}

export async function getPayment(ctx: ServiceContext, user: SessionUser, id: number): Promise<ManualPayment> {
  return toPayment(await visiblePayment(ctx, user, id));
}

/** `POST /payments/manual/{id}/confirm`: issues (or finds) the receipt of a pending payment and confirms it. Idempotent. */
export async function confirmManualPayment(
  ctx: ServiceContext,
  user: SessionUser,
  id: number,
): Promise<{ statusCode: 201 | 202; result: ManualPaymentResult }> {
  const v = await visiblePayment(ctx, user, id);
  if (v.p.status === 'canceled') throw conflict(PAYMENT_MESSAGES.alreadyCanceled);
  if (v.p.status === 'paid')
    return { statusCode: 201, result: { ok: true, payment: toPayment(v), receipt: null, error: null, warning: null, cashSessionOpened: false } };
  return complete(ctx, user, id);
}

export interface ReceiptOutcome {
  ok: boolean;
  receipt: IssueResult | null;
  documentId: number | null;
  error: string | null;
}

/** The payment fields its receipt is made of. */
type ReceiptSource = Pick<
  PaymentRecord,
  'amountCents' | 'discountCents' | 'discountReason' | 'customerId' | 'customerDocType' | 'customerDocNumber' | 'customerName' | 'customerAddress'
>;

/**
 * The receipt a payment asks billing for: its amount in céntimos, its customer as the payment has
 * it, its items (one per stored price component, issue 34; a shipment priced before them keeps the
 * one item) and the company's liability clause.
 */
export async function receiptOfPayment(
  ctx: ServiceContext,
  p: ReceiptSource & { shipmentId: number },
  shipmentCode: string,
  /** The shipment's stored components when the caller read its row already (undefined: read here). */
  knownComponents?: PriceComponentAnswer[] | null,
): Promise<Omit<CounterReceipt, 'idempotencyKey'>> {
  const item = receiptItemFor(shipmentCode, p.amountCents, p.customerDocType === 6 ? 6 : 1, { cents: p.discountCents, reason: p.discountReason });
  const [components, company] = await Promise.all([
    knownComponents !== undefined ? knownComponents : repo.priceComponentsOf(ctx.db, p.shipmentId),
    ctx.references.get('tariff:company', () => loadCompanyTariff(ctx.db)),
  ]);
  const byComponent = receiptItemsFromComponents(
    components?.map((c) => ({ kind: c.kind, description: c.description, amountCents: toCents(c.amount.toFixed(2)) })),
    p.amountCents,
  );
  // The first item names the shipment (and an admin's discount, as the one item does).
  const items = byComponent?.map((it, i) =>
    i === 0 ? { ...it, description: `${item.description}: ${it.description}`.slice(0, RECEIPT_DESCRIPTION_MAX) } : it,
  );
  return {
    amountCents: p.amountCents,
    customerId: p.customerId,
    customer: { docType: p.customerDocType, docNumber: p.customerDocNumber, name: p.customerName, address: p.customerAddress },
    shipmentCode,
    description: item.description,
    items,
    liabilityClause: company.liabilityClause,
  };
}

/** What billing's answer means for the payment: 201 is the provider's yes; 202 (no answer yet), 422 (refused) and 424 (provider failed) leave it pending. */
export function outcomeOf(answer: IssueAnswer): ReceiptOutcome {
  const r = answer.result;
  const ok = answer.statusCode === 201 && r.status !== 'rechazado';
  return { ok, receipt: { ...r, ok }, documentId: r.id, error: ok ? null : (r.error ?? PAYMENT_MESSAGES.createFailed) };
}

/** Issues the receipt under the payment's key; a document already under it is consulted instead (one document, never two). */
async function receiptFor(ctx: ServiceContext, user: SessionUser, p: PaymentRecord, shipmentCode: string): Promise<ReceiptOutcome> {
  // The receipt is the collecting branch's whoever confirms it: its key is looked up per issuing
  // branch, so an admin retrying an agent's payment finds the receipt already issued, never a second.
  const issuer = { ...user, branchId: p.branchId ?? user.branchId };
  const receipt = await receiptOfPayment(ctx, p, shipmentCode);
  const issue = (attempt: number) => issuePaymentReceipt(ctx, issuer, { ...receipt, idempotencyKey: receiptKey(p.id, attempt) });
  let attempt = p.receiptAttempts;
  let answer = await issue(attempt);
  if (answer.statusCode === 200 && answer.result.id !== null) {
    // Already issued under this key (a retry): ask the provider where it stands (a lost one is sent again).
    const detail = await lookupDocument(ctx, user, answer.result.id);
    const last = detail.history.at(-1);
    if (detail.status === 'aceptado' || (detail.status === 'pendiente' && last?.kind !== 'error')) {
      return { ok: true, receipt: { ...answer.result, ok: true, error: null, status: detail.status }, documentId: detail.id, error: null };
    }
    if (detail.status === 'pendiente') {
      return {
        ok: false,
        receipt: { ...answer.result, ok: false, status: 'pendiente', error: last?.note ?? null },
        documentId: detail.id,
        error: last?.note ?? PAYMENT_MESSAGES.createFailed,
      };
    }
    // Rejected (or voided through billing): the next attempt takes a new document under a new key.
    attempt += 1;
    await repo.setReceiptAttempts(ctx.db, p.id, attempt, ctx.now());
    answer = await issue(attempt);
  }
  return outcomeOf(answer);
}

export async function complete(ctx: ServiceContext, user: SessionUser, id: number): Promise<{ statusCode: 201 | 202; result: ManualPaymentResult }> {
  const v = (await repo.paymentById(ctx.db, id))!;
  let outcome: ReceiptOutcome;
  try {
    outcome = await receiptFor(ctx, user, v.p, v.shipmentCode);
  } catch (err) {
    const message = err instanceof AppError ? err.message : PAYMENT_MESSAGES.createFailed;
    if (!(err instanceof AppError)) ctx.log.error({ err }, 'payment receipt failed');
    outcome = { ok: false, receipt: null, documentId: null, error: message };
  }
  const documentId = outcome.documentId ?? v.p.documentId;
  if (!outcome.ok) {
    // The receipt's document and its error stay on the still pending payment: the cashier retries or voids it.
    await repo.recordReceipt(ctx.db, id, documentId, outcome.error, ctx.now());
    const after = (await repo.paymentById(ctx.db, id))!;
    return {
      statusCode: 202,
      result: { ok: false, payment: toPayment(after), receipt: outcome.receipt, error: outcome.error, warning: null, cashSessionOpened: false },
    };
  }
  let warning: string | null = outcome.receipt && !outcome.receipt.enlace_del_pdf ? PAYMENT_MESSAGES.noPdf : null;
  let confirmed: PaymentView | null = null;
  try {
    confirmed = await confirm(ctx, user, id, documentId);
  } catch (err) {
    // The payment keeps its receipt whatever happened: a retry or the sweep confirms it from there.
    await repo.recordReceipt(ctx.db, id, documentId, null, ctx.now());
    if (err instanceof AppError) throw err;
    ctx.log.error({ err }, 'payment confirmation failed');
    warning = PAYMENT_MESSAGES.confirmWarning;
  }
  const after = confirmed ?? (await repo.paymentById(ctx.db, id))!;
  const paid = after.p.status === 'paid';
  return {
    statusCode: paid ? 201 : 202,
    result: { ok: paid, payment: toPayment(after), receipt: outcome.receipt, error: null, warning, cashSessionOpened: false },
  };
}

/**
 * pending → paid with its receipt's document, its charge in the ledger (the payment's session if
 * still open, else the confirming user's), and the audit row: everything after the provider's
 * answer in one transaction.
 */
async function confirm(ctx: ServiceContext, user: SessionUser, id: number, documentId: number | null): Promise<PaymentView | null> {
  return ctx.db.transaction(async (tx) => {
    const confirmed = await confirmIn(ctx, tx, user, id, documentId);
    if (confirmed.status === 'canceled') throw conflict(PAYMENT_MESSAGES.alreadyCanceled);
    return confirmed.status === 'paid' ? confirmed.view : null;
  });
}

/**
 * `confirm`'s writes in the caller's transaction (the click's second one writes billing's answer
 * beside them). 'canceled' when a void took the payment first: nothing is written then, and the
 * caller refuses; 'taken' when a concurrent confirmation paid it already; 'paid' with the payment
 * as the API answers it when this one paid it.
 */
export async function confirmIn(
  ctx: ServiceContext,
  tx: Tx,
  user: SessionUser,
  id: number,
  documentId: number | null,
  /** The payment and its session, already read and locked in this transaction by the caller (findPaymentLockingSession). */
  locked?: { payment: PaymentRecord; session: CashSessionRecord } | null,
): Promise<{ status: 'paid'; view: PaymentView } | { status: 'taken' | 'canceled' }> {
  const now = ctx.now();
  // Sessions are locked before the payment row, in every transaction here: a creation holds its
  // session and then waits on the shipment's live payment, so the other order would deadlock.
  const current = locked === undefined ? await repo.findPaymentLockingSession(tx, id) : locked;
  if (!current) throw notFound(PAYMENT_MESSAGES.notFound);
  if (current.payment.status === 'canceled') return { status: 'canceled' };
  const own = current.session;
  const sessionId = !own.closedAt ? own.id : (await sessionForPayment(ctx, tx, user)).id;
  const view = await repo.confirmPending(tx, { id, now, documentId, sessionId, userId: user.id });
  if (!view) {
    const after = await repo.findPayment(tx, id);
    // Voided between the read and the update: thrown, so the session this may have opened rolls back.
    if (after?.status === 'canceled') throw conflict(PAYMENT_MESSAGES.alreadyCanceled);
    return { status: 'taken' }; // already paid by a concurrent confirmation
  }
  return { status: 'paid', view };
}

/**
 * `POST /payments/manual/{id}/cancel` and `/payments/payments/{id}/cancel`: the payment becomes
 * canceled (once: the conditional update decides between concurrent voids), a reversal lands in the
 * voiding user's open session, and the receipt is voided through billing. If billing refuses, the
 * payment is as it was.
 */
export async function cancelPayment(ctx: ServiceContext, user: SessionUser, id: number, motivo: string): Promise<ManualPayment> {
  const v = await visiblePayment(ctx, user, id);
  const before = v.p;
  if (before.status === 'canceled') throw conflict(PAYMENT_MESSAGES.alreadyCanceled, undefined, 'ALREADY_CANCELED');
  // Pago en destino collected and the parcel handed over: the money stays (issue 33; trigger 0071 holds it too).
  const shipment = await repo.findShipment(ctx.db, before.shipmentId);
  const delivered =
    shipment && destinationVoidRefusal({ paymentMoment: shipment.paymentMoment, shipmentStatus: shipment.status, paymentStatus: before.status });
  if (delivered) throw conflict(delivered, undefined, 'DESTINATION_PAID_DELIVERED');
  // A receipt SUNAT accepted, or still holds (a boleta waits for the daily summary), is voided with
  // its payment at once: billing takes the void of a pending one too ('anulación pendiente', then
  // 'anulado'), so a same-day void never waits on SUNAT (issue 31). One already voided stays so.
  const receipt = before.documentId ? await lookupDocument(ctx, user, before.documentId) : null;
  const voidReceipt = receipt !== null && (receipt.status === 'aceptado' || receipt.status === 'pendiente');
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const session = await sessionForPayment(ctx, tx, user); // the session first, then the payment (see confirm)
    const row = await repo.markCanceled(tx, id, before.status, motivo, now);
    // Taken by a concurrent void: throwing rolls back whatever this transaction opened.
    if (!row) throw conflict(PAYMENT_MESSAGES.alreadyCanceled, undefined, 'ALREADY_CANCELED');
    await repo.insertMovementAudited(
      tx,
      {
        paymentId: id,
        kind: 'anulacion',
        method: row.method,
        amountCents: -(await repo.chargeOf(tx, id)),
        cashSessionId: session.id,
        userId: user.id,
        at: now,
      },
      { userId: user.id, action: 'cancel', before: { status: before.status }, after: { status: 'canceled', reason: motivo } },
    );
  });
  if (voidReceipt) {
    try {
      await voidDocument(ctx, user, before.documentId!, motivo);
    } catch (err) {
      await ctx.db.transaction(async (tx) => {
        await repo.undoCancel(tx, id, before.status, ctx.now());
        await audit(tx, {
          userId: user.id,
          entity: 'payment',
          entityId: id,
          action: 'cancel-failed',
          after: { status: before.status, error: err instanceof Error ? err.message : String(err) },
        });
      });
      const detail = err instanceof AppError ? ` ${err.message}` : '';
      throw new AppError(err instanceof AppError ? err.statusCode : 424, 'CANCEL_FAILED', `${PAYMENT_MESSAGES.cancelFailed}${detail}`);
    }
  }
  return toPayment((await repo.paymentById(ctx.db, id))!);
}
