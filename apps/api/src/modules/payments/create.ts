import {
  canManageArea,
  centsToString,
  collectableAtCounter,
  collectingBranchId,
  methodRefusal,
  WHO_PAYS_MESSAGES,
  type PaymentMoment,
  displayName,
  PAYMENT_MESSAGES,
  receiptKey,
  toCents,
  type ManualPaymentRequest,
  type ManualPaymentResult,
  type PriceComponentAnswer,
  inScope,
  INVOICE_MESSAGES,
  scopeOf,
} from '@tramo/domain';
import { AppError, conflict, forbidden, notFound, pgError, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { methodsAcceptedAt } from '../who-pays/index.ts';
import { sessionForPayment } from './cash-sessions.ts';
import {
  emitToProvider,
  preparePaymentReceipt,
  receiptAddress,
  recordEmission,
  type DocumentRecord,
  type PreparedReceipt,
} from '../billing/index.ts';
import { toPayment } from './access.ts';
import { confirmIn, outcomeOf, receiptOfPayment, type ReceiptOutcome } from './lifecycle.ts';
import { lockSession } from './queries/cash-sessions.ts';
import * as repo from './queries/payments.ts';
import type { PaymentView } from './queries/payments.ts';

/**
 * `POST /payments/manual`: the payment is stored pending (the partial unique index refuses a second
 * live one for the shipment) with its receipt numbered, the receipt is sent, and the payment confirmed.
 *
 * Why the click is split where it is: the provider (SUNAT through Nubefact, or the sandbox) is a
 * network call that can take seconds or never answer, so no transaction stays open across it.
 * Before the call, what must exist whatever the provider does is committed: first the pending
 * payment holding its shipment, with its audit (one statement locking the cashier's open session;
 * a transaction when it must open one); then billing's document with its
 * number under the payment's key, in one statement of its own, so the branch's series counter,
 * which every cashier's receipt takes, is locked only while PostgreSQL runs that statement (issue
 * 37: held across the payment's commit, it queued eight cashiers behind each round trip to a busy
 * event loop). A retry or the sweep finds that document under the key and never takes a second
 * number; a request that dies between the two leaves a pending payment with no receipt, which a
 * retry issues under the same key and the sweep voids once its lease is over (nothing was issued).
 * After the answer, one transaction commits what follows from it: billing's status, event and
 * audit, and the payment paid with its document, its cash movement and its audit (or, when the
 * provider did not take it, the payment kept pending with the document and the error). The reads
 * that may wait on the network too (a factura's address from the RUC lookup) come before all of it.
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
  const methodProblem = methodRefusal(input.methodCode, await methodsAcceptedAt(ctx, user.branchId ?? collector));
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
  // A factura needs the customer's address (issue 32): a RUC whose lookup has none is refused before anything is stored.
  const customerAddress = await receiptAddress(ctx, {
    ...input,
    docType: input.customerDocType,
    docNumber: input.customerDocNumber,
    typed: input.customerAddress,
  });
  if (input.customerDocType === 6 && !customerAddress) {
    const message = INVOICE_MESSAGES.facturaNeedsAddress;
    throw unprocessable(message, { customerAddress: message }, 'FACTURA_NEEDS_ADDRESS');
  }

  // The payment's receipt, checked by billing before any transaction (its reads, the RUC lookup).
  // The receipt is the collecting branch's (see lifecycle's receiptFor).
  const branchId = user.branchId ?? collector;
  const issuer = { ...user, branchId };
  let prepared: PreparedReceipt | { ok: false; refused: null; error: string };
  try {
    prepared = await preparePaymentReceipt(
      ctx,
      issuer,
      await receiptOfPayment(
        ctx,
        { ...input, shipmentId: shipment.id, customerId: input.customerId ?? null, customerAddress },
        shipment.code,
        (shipment.priceComponents as PriceComponentAnswer[] | null) ?? null,
      ),
    );
  } catch (err) {
    if (!(err instanceof AppError)) ctx.log.error({ err }, 'payment receipt failed');
    prepared = { ok: false, refused: null, error: err instanceof AppError ? err.message : PAYMENT_MESSAGES.createFailed };
  }
  const refused: ReceiptOutcome | null = prepared.ok
    ? null
    : prepared.refused
      ? outcomeOf(prepared.refused)
      : { ok: false, receipt: null, documentId: null, error: prepared.error };

  // The first write: the pending payment and its audit (or its receipt's refusal kept on it).
  const now = ctx.now();
  const row = {
    shipmentId: shipment.id,
    status: 'pending' as const,
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
    customerAddress,
    branchId,
    userId: user.id,
    userName: displayName(user),
    createdAt: now,
    updatedAt: now,
  };
  const after = {
    shipmentId: shipment.id,
    amountCents: input.amountCents,
    discountCents: input.discountCents,
    discountReason: input.discountReason,
    method: input.methodCode,
  };
  let created: { id: number; opened: boolean };
  try {
    // The counter's usual click (its cashier's session open, the receipt ready): one statement.
    const inOpenSession = !input.cashSessionId && !refused ? await repo.insertPaymentInOpenSession(ctx.db, row, after) : null;
    created = inOpenSession
      ? { id: inOpenSession.id, opened: false }
      : await createInTransaction(ctx, user, input.cashSessionId, row, after, refused);
  } catch (err) {
    const pg = pgError(err);
    if (pg?.code === '23505' && pg.constraint === 'payments_one_live_per_shipment_uq') {
      const live = await repo.livePaymentOf(ctx.db, shipment.id);
      throw conflict(live?.status === 'paid' ? PAYMENT_MESSAGES.duplicatePaid : PAYMENT_MESSAGES.duplicatePending, undefined, 'PAYMENT_EXISTS');
    }
    throw err;
  }
  const answer = prepared.ok ? await numberAndSend(ctx, user, issuer, created.id, prepared) : await pending(ctx, created.id, refused!);
  return { statusCode: answer.statusCode, result: { ...answer.result, cashSessionOpened: created.opened } };
}

/**
 * The pending payment in a transaction: into the session the request names (checked to be the
 * cashier's and open), else the cashier's open one, opened here when there is none; a refused
 * receipt is kept on it in the same transaction.
 */
async function createInTransaction(
  ctx: ServiceContext,
  user: SessionUser,
  cashSessionId: number | null | undefined,
  row: Omit<repo.NewPaymentRow, 'cashSessionId'> & { createdAt: Date },
  after: Record<string, unknown>,
  refused: ReceiptOutcome | null,
): Promise<{ id: number; opened: boolean }> {
  return ctx.db.transaction(async (tx) => {
    let session: { id: number; opened: boolean };
    if (cashSessionId) {
      const s = await lockSession(tx, cashSessionId);
      if (!s) throw notFound(PAYMENT_MESSAGES.sessionNotFound);
      if (s.userId !== user.id) throw forbidden(PAYMENT_MESSAGES.sessionNotYours);
      if (s.closedAt) throw conflict(PAYMENT_MESSAGES.sessionClosed, undefined, 'CASH_SESSION_CLOSED');
      session = { id: s.id, opened: false };
    } else session = await sessionForPayment(ctx, tx, user);
    const paymentId = await repo.insertPaymentAudited(tx, { ...row, cashSessionId: session.id }, { ...after, cashSessionId: session.id });
    // A refused receipt stays on the still pending payment: the cashier corrects and retries, or voids it.
    if (refused) await repo.recordReceipt(tx, paymentId, null, refused.error, row.createdAt);
    return { id: paymentId, opened: session.opened };
  });
}

type ClickAnswer = { statusCode: 201 | 202; result: ManualPaymentResult };

/** The committed payment's receipt numbered under its key (see createManualPayment), then sent and the payment confirmed. */
async function numberAndSend(
  ctx: ServiceContext,
  user: SessionUser,
  issuer: SessionUser,
  id: number,
  prepared: Extract<PreparedReceipt, { ok: true }>,
): Promise<ClickAnswer> {
  let doc: DocumentRecord;
  try {
    doc = await prepared.number(receiptKey(id));
  } catch (err) {
    // No number was taken (the statement rolled back whole): the payment stays pending with the error, for a retry or a void.
    const error = err instanceof AppError ? err.message : PAYMENT_MESSAGES.createFailed;
    if (!(err instanceof AppError)) ctx.log.error({ err }, 'payment receipt failed');
    await repo.recordReceipt(ctx.db, id, null, error, ctx.now());
    return pending(ctx, id, { ok: false, receipt: null, documentId: null, error });
  }
  return sendAndConfirm(ctx, user, issuer, id, doc);
}

async function pending(ctx: ServiceContext, id: number, outcome: ReceiptOutcome, warning: string | null = null): Promise<ClickAnswer> {
  const after = (await repo.paymentById(ctx.db, id))!;
  return {
    statusCode: 202,
    result: { ok: false, payment: toPayment(after), receipt: outcome.receipt, error: outcome.error, warning, cashSessionOpened: false },
  };
}

/** The provider call, then the second transaction: billing's answer and the payment confirmed (or kept pending) together. */
async function sendAndConfirm(ctx: ServiceContext, user: SessionUser, issuer: SessionUser, id: number, doc: DocumentRecord): Promise<ClickAnswer> {
  // What billing answered, once known: a failure after it (the confirmation) keeps the answer for the reply.
  const seen: { outcome: ReceiptOutcome | null } = { outcome: null };
  let done: { outcome: ReceiptOutcome; canceled: boolean; view: PaymentView | null };
  try {
    const sent = await emitToProvider(ctx, doc);
    done = await ctx.db.transaction(async (tx) => {
      // The payment's cash session is locked before billing's rows (the document and its counters):
      // every transaction of the module takes its session first (lifecycle's confirmIn), so two of
      // them never wait on each other's rows in opposite orders.
      const locked = await repo.findPaymentLockingSession(tx, id);
      const outcome = outcomeOf(await recordEmission(ctx, tx, issuer, doc, sent));
      seen.outcome = outcome;
      if (!outcome.ok) {
        await repo.recordReceipt(tx, id, doc.id, outcome.error, ctx.now());
        return { outcome, canceled: false, view: null };
      }
      // The payment as read above, its session locked since: confirmIn reads and locks neither again.
      const confirmed = await confirmIn(ctx, tx, user, id, doc.id, locked);
      return { outcome, canceled: confirmed.status === 'canceled', view: confirmed.status === 'paid' ? confirmed.view : null };
    });
  } catch (err) {
    if (seen.outcome === null) {
      // Sending failed before billing answered: the payment stays pending with its numbered receipt and the error.
      const error = err instanceof AppError ? err.message : PAYMENT_MESSAGES.createFailed;
      if (!(err instanceof AppError)) ctx.log.error({ err }, 'payment receipt failed');
      await repo.recordReceipt(ctx.db, id, doc.id, error, ctx.now());
      return pending(ctx, id, { ok: false, receipt: null, documentId: doc.id, error });
    }
    // The payment keeps its receipt whatever happened: a retry or the sweep confirms it from there.
    await repo.recordReceipt(ctx.db, id, doc.id, null, ctx.now());
    if (err instanceof AppError) throw err;
    ctx.log.error({ err }, 'payment confirmation failed');
    return pending(ctx, id, { ...seen.outcome, error: null }, PAYMENT_MESSAGES.confirmWarning);
  }
  // A void took the payment while its receipt was at the provider: billing's answer is kept, the confirmation refused.
  if (done.canceled) throw conflict(PAYMENT_MESSAGES.alreadyCanceled);
  if (!done.outcome.ok) return pending(ctx, id, done.outcome);
  const receipt = done.outcome.receipt;
  const warning = receipt && !receipt.enlace_del_pdf ? PAYMENT_MESSAGES.noPdf : null;
  // Paid by this click: the confirmation answered the payment as the API shows it; else it is read.
  const after = done.view ?? (await repo.paymentById(ctx.db, id))!;
  const paid = after.p.status === 'paid';
  return {
    statusCode: paid ? 201 : 202,
    result: { ok: paid, payment: toPayment(after), receipt, error: null, warning, cashSessionOpened: false },
  };
}

function notCollectable(s: { status: string; paymentMoment: PaymentMoment }): string {
  if (s.paymentMoment === 'destino') return WHO_PAYS_MESSAGES.collectWhenArrived;
  return s.status === 'Creado' ? PAYMENT_MESSAGES.shipmentNotToday : PAYMENT_MESSAGES.shipmentNotCreado;
}
