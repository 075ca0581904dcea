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
  toCents,
  type ManualPaymentRequest,
  type ManualPaymentResult,
  inScope,
  scopeOf,
} from '@tramo/domain';
import { audit } from '../../lib/audit.ts';
import { conflict, forbidden, notFound, pgError, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { methodsAcceptedAt } from '../who-pays/index.ts';
import { sessionForPayment } from './cash-sessions.ts';
import { complete } from './lifecycle.ts';
import { lockSession } from './queries/cash-sessions.ts';
import * as repo from './queries/payments.ts';

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
