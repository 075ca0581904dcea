import {
  canManageArea,
  centsToString,
  collectableAtCounter,
  collectingBranchId,
  methodRefusal,
  WHO_PAYS_MESSAGES,
  type PaymentMoment,
  displayName,
  limaDay,
  PAYMENT_MESSAGES,
  RECEIPT_DESCRIPTION_MAX,
  receiptItemFor,
  receiptItemsFromComponents,
  receiptKey,
  toCents,
  type IssueResult,
  type ManualPayment,
  type ManualPaymentRequest,
  type ManualPaymentResult,
  type PaymentStatus,
  inScope,
  scopeOf,
} from '@tramo/domain';
import { audit } from '../../lib/audit.ts';
import type { KeysetRequest } from '../../lib/keyset.ts';
import { AppError, conflict, forbidden, notFound, pgError, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { issuePaymentReceipt, lookupDocument, voidDocument } from '../billing/index.ts';
import { loadCompanyTariff } from '../pricing/index.ts';
import { methodsAcceptedAt } from '../who-pays/index.ts';
import { toPayment, visiblePayment } from './access.ts';
import { sessionForPayment } from './cash-sessions.ts';
import { lockSession } from './queries/cash-sessions.ts';
import * as repo from './queries/payments.ts';
import type { PaymentRecord } from './queries/payments.ts';

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

/**
 * `POST /payments/manual`: the payment is stored pending (the partial unique index refuses a second
 * live one for the shipment), then its receipt is issued and the payment confirmed.
 *
 * Why the click is split where it is: the provider (SUNAT through Nubefact, or the sandbox) is a
 * network call that can take seconds or never answer, so no transaction stays open across it. What
 * must exist before it is committed first (the pending payment holding its shipment, and billing's
 * numbered document under the payment's key, so a retry or the sweep finds the same document and
 * never takes a second number); what follows the answer (billing's status, then the payment paid
 * with its document, its cash movement and its audit in `confirm`) is committed after.
 */
export async function createManualPayment(
  ctx: ServiceContext,
  user: SessionUser,
  input: ManualPaymentRequest,
): Promise<{ statusCode: 201 | 202; result: ManualPaymentResult }> {
  const shipment = await repo.findShipment(ctx.db, input.shipmentId);
  if (!shipment) throw notFound(PAYMENT_MESSAGES.shipmentNotFound);
  const scope = scopeOf(user);
  // Pago en destino is the destination counter's to collect (issue 33); the rest is the origin's.
  const collectable = { ...shipment, paymentMoment: shipment.paymentMoment as PaymentMoment };
  const collector = collectingBranchId(collectable);
  if (collectable.paymentMoment === 'credito') throw unprocessable(WHO_PAYS_MESSAGES.creditNotCollected, undefined, 'CREDIT_SHIPMENT');
  if (!inScope(scope, collector))
    throw forbidden(collectable.paymentMoment === 'destino' ? WHO_PAYS_MESSAGES.collectAtDestination : PAYMENT_MESSAGES.shipmentForbidden);
  if (!collectableAtCounter(collectable, ctx.now())) throw unprocessable(notCollectable(collectable));
  const methodProblem = methodRefusal(input.methodCode, await methodsAcceptedAt(ctx.db, user.branchId ?? collector));
  if (methodProblem) throw unprocessable(methodProblem, { methodCode: methodProblem }, 'METHOD_NOT_ACCEPTED');
  // DESIGN.md 5b: a payment equals what the shipment owes (its stored price) less an admin's audited discount.
  if (input.discountCents > 0 && !canManageArea(user, 'discounts')) throw forbidden(PAYMENT_MESSAGES.discountAdminOnly, 'DISCOUNT_FORBIDDEN');
  const priceCents = toCents(shipment.quotedPrice);
  if (input.discountCents >= priceCents) {
    const message = PAYMENT_MESSAGES.discountTooLarge(centsToString(priceCents));
    throw unprocessable(message, { discount: message }, 'DISCOUNT_TOO_LARGE');
  }
  const dueCents = priceCents - input.discountCents;
  if (input.amountCents !== dueCents) {
    const message = PAYMENT_MESSAGES.amountDue(centsToString(dueCents), input.discountCents > 0);
    throw unprocessable(message, { amount: message }, 'AMOUNT_NOT_DUE');
  }

  let created: { id: number; opened: boolean };
  try {
    created = await ctx.db.transaction(async (tx) => {
      let session: { id: number; opened: boolean };
      if (input.cashSessionId) {
        const s = await lockSession(tx, input.cashSessionId);
        if (!s) throw notFound(PAYMENT_MESSAGES.sessionNotFound);
        if (s.userId !== user.id) throw forbidden(PAYMENT_MESSAGES.sessionNotYours);
        if (s.closedAt) throw conflict(PAYMENT_MESSAGES.sessionClosed, undefined, 'CASH_SESSION_CLOSED');
        session = { id: s.id, opened: false };
      } else session = await sessionForPayment(ctx, tx, user);
      const now = ctx.now();
      const paymentId = await repo.insertPayment(tx, {
        shipmentId: shipment.id,
        status: 'pending',
        method: input.methodCode,
        amountCents: input.amountCents,
        discountCents: input.discountCents,
        discountReason: input.discountReason,
        currency: 'PEN',
        providerTxId: input.providerTxId,
        customerId: input.customerId,
        customerDocType: input.customerDocType,
        customerDocNumber: input.customerDocNumber,
        customerName: input.customerName,
        branchId: user.branchId ?? collector,
        userId: user.id,
        userName: displayName(user),
        cashSessionId: session.id,
        createdAt: now,
        updatedAt: now,
      });
      await audit(tx, {
        userId: user.id,
        entity: 'payment',
        entityId: paymentId,
        action: 'create',
        after: {
          shipmentId: shipment.id,
          amountCents: input.amountCents,
          discountCents: input.discountCents,
          discountReason: input.discountReason,
          method: input.methodCode,
          cashSessionId: session.id,
        },
      });
      return { id: paymentId, opened: session.opened };
    });
  } catch (err) {
    const pg = pgError(err);
    if (pg?.code === '23505' && pg.constraint === 'payments_one_live_per_shipment_uq') {
      const live = await repo.livePaymentOf(ctx.db, shipment.id);
      throw conflict(live?.status === 'paid' ? PAYMENT_MESSAGES.duplicatePaid : PAYMENT_MESSAGES.duplicatePending, undefined, 'PAYMENT_EXISTS');
    }
    throw err;
  }
  const answer = await complete(ctx, user, created.id);
  return { statusCode: answer.statusCode, result: { ...answer.result, cashSessionOpened: created.opened } };
}

function notCollectable(s: { status: string; paymentMoment: PaymentMoment }): string {
  if (s.paymentMoment === 'destino') return WHO_PAYS_MESSAGES.collectWhenArrived;
  return s.status === 'Creado' ? PAYMENT_MESSAGES.shipmentNotToday : PAYMENT_MESSAGES.shipmentNotCreado;
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

interface ReceiptOutcome {
  ok: boolean;
  receipt: IssueResult | null;
  documentId: number | null;
  error: string | null;
}

/** Issues the receipt under the payment's key; a document already under it is consulted instead (one document, never two). */
async function receiptFor(ctx: ServiceContext, user: SessionUser, p: PaymentRecord, shipmentCode: string): Promise<ReceiptOutcome> {
  const item = receiptItemFor(shipmentCode, p.amountCents, p.customerDocType === 6 ? 6 : 1, { cents: p.discountCents, reason: p.discountReason });
  // One item per stored price component (DESIGN.md 5b); a shipment priced before them keeps the one item.
  const [components, company] = await Promise.all([
    repo.priceComponentsOf(ctx.db, p.shipmentId),
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
  // The receipt is the collecting branch's whoever confirms it: its key is looked up per issuing
  // branch, so an admin retrying an agent's payment finds the receipt already issued, never a second.
  const issuer = { ...user, branchId: p.branchId ?? user.branchId };
  const issue = (attempt: number) =>
    issuePaymentReceipt(ctx, issuer, {
      amountCents: p.amountCents,
      customerId: p.customerId,
      customer: { docType: p.customerDocType, docNumber: p.customerDocNumber, name: p.customerName },
      shipmentCode,
      description: item.description,
      items,
      liabilityClause: company.liabilityClause,
      idempotencyKey: receiptKey(p.id, attempt),
    });
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
  const r = answer.result;
  // 201: the provider took it. 202 (no answer: pending), 422 (refused) and 424 (provider failed) leave the payment pending.
  const ok = answer.statusCode === 201 && r.status !== 'rechazado';
  return { ok, receipt: { ...r, ok }, documentId: r.id, error: ok ? null : (r.error ?? PAYMENT_MESSAGES.createFailed) };
}

async function complete(ctx: ServiceContext, user: SessionUser, id: number): Promise<{ statusCode: 201 | 202; result: ManualPaymentResult }> {
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
  try {
    await confirm(ctx, user, id, documentId);
  } catch (err) {
    // The payment keeps its receipt whatever happened: a retry or the sweep confirms it from there.
    await repo.recordReceipt(ctx.db, id, documentId, null, ctx.now());
    if (err instanceof AppError) throw err;
    ctx.log.error({ err }, 'payment confirmation failed');
    warning = PAYMENT_MESSAGES.confirmWarning;
  }
  const after = (await repo.paymentById(ctx.db, id))!;
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
async function confirm(ctx: ServiceContext, user: SessionUser, id: number, documentId: number | null): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    // Sessions are locked before the payment row, in every transaction here: a creation holds its
    // session and then waits on the shipment's live payment, so the other order would deadlock.
    const current = await repo.findPayment(tx, id);
    if (!current) throw notFound(PAYMENT_MESSAGES.notFound);
    const own = await lockSession(tx, current.cashSessionId);
    const sessionId = own && !own.closedAt ? own.id : (await sessionForPayment(ctx, tx, user)).id;
    const row = await repo.markPaid(tx, id, now, documentId ?? undefined);
    if (!row) {
      const after = await repo.findPayment(tx, id);
      if (after?.status === 'canceled') throw conflict(PAYMENT_MESSAGES.alreadyCanceled);
      return; // already paid by a concurrent confirmation
    }
    await repo.insertMovement(tx, {
      paymentId: id,
      kind: 'cobro',
      method: row.method,
      amountCents: row.amountCents,
      cashSessionId: sessionId,
      userId: user.id,
      at: now,
    });
    await audit(tx, {
      userId: user.id,
      entity: 'payment',
      entityId: id,
      action: 'confirm',
      before: { status: 'pending' },
      after: { status: 'paid', documentId: row.documentId },
    });
  });
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
    await repo.insertMovement(tx, {
      paymentId: id,
      kind: 'anulacion',
      method: row.method,
      amountCents: -(await repo.chargeOf(tx, id)),
      cashSessionId: session.id,
      userId: user.id,
      at: now,
    });
    await audit(tx, {
      userId: user.id,
      entity: 'payment',
      entityId: id,
      action: 'cancel',
      before: { status: before.status },
      after: { status: 'canceled', reason: motivo },
    });
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
