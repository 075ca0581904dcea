import { canManageArea, CREDIT_MESSAGES, whoPaysRefusal, type WhoPaysChange } from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { unprocessable } from '../../lib/errors.ts';
import type { SessionUser } from '../../types.ts';
import { creditShipmentRefusal, hasActiveAccount } from '../credit/index.ts';
import { rulesForRoute } from '../who-pays/index.ts';

export interface WhoPaysCheckTarget {
  originBranchId: number;
  destinationBranchId: number;
  priceCents: number;
  weightKg: number;
  senderCustomerId: number | null;
}

/** The customer whose account a credit shipment goes to: the third party when one pays, else the sender. */
export const creditCustomerOf = (choice: WhoPaysChange, senderCustomerId: number | null) =>
  choice.payer === 'tercero' ? (choice.payerCustomerId ?? null) : choice.payer === 'remitente' ? senderCustomerId : null;

/**
 * Who pays a shipment and when (issue 33), checked against the company's and the route's rules,
 * and a credit shipment against its customer's account (issue 35). The plain case (the sender at
 * origin) reads nothing: a creation's hot path stays one statement. A credit shipment must be
 * checked inside the transaction that writes it (`db` a Tx): the account is locked there, so two
 * shipments of one customer are judged one after the other against the limit.
 *
 * Answers the admin's override reason when one let a refused credit shipment through (the caller
 * audits it with the shipment's id), else null.
 */
export async function checkWhoPays(
  db: Db | Tx,
  choice: WhoPaysChange,
  shipment: WhoPaysCheckTarget,
  credit?: { actor: SessionUser; now: Date },
): Promise<string | null> {
  const plain = choice.paymentMoment === 'origen' && choice.payer !== 'tercero';
  if (plain) return null;
  const route =
    choice.paymentMoment === 'destino'
      ? await rulesForRoute(db, shipment.originBranchId, shipment.destinationBranchId)
      : { rules: { maxDestinationFreightCents: 0, originOnlyAboveKg: null }, routeAllowsDestination: false };
  const customerId = creditCustomerOf(choice, shipment.senderCustomerId);
  const isCredit = choice.paymentMoment === 'credito';
  const refusal = whoPaysRefusal(choice, {
    ...route,
    priceCents: shipment.priceCents,
    weightKg: shipment.weightKg,
    hasCreditAccount: isCredit && (await hasActiveAccount(db, customerId)),
  });
  if (refusal) throw unprocessable(refusal.message, { [refusal.field]: refusal.message }, 'WHO_PAYS_REFUSED');
  if (!isCredit || !credit) return null;
  const limit = await creditShipmentRefusal(db as Tx, customerId, shipment.priceCents, credit.now);
  if (!limit) return null;
  const reason = choice.creditOverrideReason?.trim() ?? '';
  if (limit.code !== 'NO_CREDIT_ACCOUNT' && canManageArea(credit.actor, 'credit') && reason.length >= 10) return reason;
  if (limit.code !== 'NO_CREDIT_ACCOUNT' && reason && canManageArea(credit.actor, 'credit'))
    throw unprocessable(CREDIT_MESSAGES.overrideReason, { creditOverrideReason: CREDIT_MESSAGES.overrideReason }, limit.code);
  throw unprocessable(limit.message, { paymentMoment: limit.message }, limit.code);
}

/** Audits an admin's override of a credit refusal, in the shipment's transaction. */
export function auditCreditOverride(
  tx: Db | Tx,
  actor: SessionUser,
  shipmentId: number,
  customerId: number | null,
  reason: string,
  priceCents: number,
) {
  return audit(tx, {
    userId: actor.id,
    entity: 'shipment',
    entityId: shipmentId,
    action: 'credit-override',
    after: { customerId, reason, priceCents },
  });
}
