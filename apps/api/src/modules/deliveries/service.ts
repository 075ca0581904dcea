import { asc, eq, inArray } from 'drizzle-orm';
import {
  canConfirmDelivery,
  canDeliverFrom,
  cannotDeliverFrom,
  DELIVERY_LOCK,
  DELIVERY_MESSAGES,
  deliveryPaymentRefusal,
  SHIPMENT_MESSAGES,
  toCents,
  type PaymentMoment,
  type DeliveredInfo,
  type Delivery,
  type DeliveryAgent,
} from '@tramo/domain';
import type { Tx } from '../../db/client.ts';
import { branches, deliveryAttempts, shipments, users } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { forbidden, notFound, tooManyRequests, unprocessable } from '../../lib/errors.ts';
import type { SessionUser, ServiceContext } from '../../types.ts';
import { freightPaid } from '../payments/index.ts';
import { changeShipmentStatus, findEvents, findRow, toShipmentDto, type ShipmentDto } from '../shipments/index.ts';
import { checkRequiredProof, decodeProofImage, proofRequired, storeProof } from './proof.ts';

const windowMs = DELIVERY_LOCK.windowMinutes * 60_000;
const lockMs = DELIVERY_LOCK.lockMinutes * 60_000;

async function loadDto(tx: Tx, actor: SessionUser, id: number): Promise<ShipmentDto> {
  const row = await findRow(tx, { id });
  if (!row) throw notFound(SHIPMENT_MESSAGES.notFound);
  return toShipmentDto(row, actor, await findEvents(tx, id));
}

/** What the delivery transaction decided; refusals that must keep their counter are thrown after commit. */
type Outcome = { kind: 'delivered'; shipment: ShipmentDto } | { kind: 'wrong-code' } | { kind: 'locked-now' };

/**
 * Counts one wrong code. A window older than 15 minutes (or an expired lock) starts again at 1;
 * the fifth failure inside the window locks delivery for 15 minutes. The shipment row lock taken
 * by the caller serializes this read-modify-write per shipment.
 */
async function countFailure(tx: Tx, shipmentId: number, now: Date): Promise<{ failures: number; locked: boolean }> {
  const [current] = await tx.select().from(deliveryAttempts).where(eq(deliveryAttempts.shipmentId, shipmentId));
  const fresh = !current || now.getTime() - current.windowStart.getTime() >= windowMs || current.lockedUntil !== null;
  const failures = fresh ? 1 : current.failures + 1;
  const locked = failures >= DELIVERY_LOCK.maxFailures;
  const values = {
    failures,
    windowStart: fresh ? now : current.windowStart,
    lockedUntil: locked ? new Date(now.getTime() + lockMs) : null,
  };
  await tx
    .insert(deliveryAttempts)
    .values({ shipmentId, ...values })
    .onConflictDoUpdate({ target: deliveryAttempts.shipmentId, set: values });
  return { failures, locked };
}

/**
 * Confirms a delivery in one transaction: shipment row lock, branch rule, status, attempt lock,
 * secret code, then the state change, history event, audit row and counter reset. Two concurrent
 * deliveries queue on the row lock; the second then sees 'Entregado' and is refused.
 */
export async function deliverShipment(ctx: ServiceContext, actor: SessionUser, id: number, input: Delivery): Promise<ShipmentDto> {
  // Before anything is read or written: a bad image is a 400 that changes nothing.
  const photo = await decodeProofImage(input.photo, 'photo');
  const signature = await decodeProofImage(input.signature, 'signature');
  const outcome = await ctx.db.transaction(async (tx): Promise<Outcome> => {
    const [locked] = await tx
      .select({
        id: shipments.id,
        status: shipments.status,
        destinationBranchId: shipments.destinationBranchId,
        secretCodeHash: shipments.secretCodeHash,
        paymentMoment: shipments.paymentMoment,
        quotedPrice: shipments.quotedPrice,
      })
      .from(shipments)
      .where(eq(shipments.id, id))
      .for('update');
    if (!locked) throw notFound(SHIPMENT_MESSAGES.notFound);
    if (!canConfirmDelivery(actor, locked.destinationBranchId)) throw forbidden(DELIVERY_MESSAGES.forbidden);
    if (!canDeliverFrom(locked.status)) {
      const message = cannotDeliverFrom(locked.status);
      throw unprocessable(message, { secretCode: message }, 'NOT_DELIVERABLE');
    }
    // Pago en destino: the parcel leaves the counter only once its freight is paid (issue 33). The
    // row lock above queues a payment's confirmation (its trigger reads this row FOR SHARE) behind us.
    const unpaid = deliveryPaymentRefusal({
      paymentMoment: locked.paymentMoment as PaymentMoment,
      paid: locked.paymentMoment !== 'destino' || (await freightPaid(tx, id)),
      dueCents: toCents(locked.quotedPrice),
    });
    if (unpaid) throw unprocessable(unpaid, { secretCode: unpaid }, 'FREIGHT_UNPAID');
    const now = ctx.now();
    const [attempts] = await tx.select().from(deliveryAttempts).where(eq(deliveryAttempts.shipmentId, id));
    if (attempts?.lockedUntil && attempts.lockedUntil.getTime() > now.getTime()) {
      throw tooManyRequests(DELIVERY_MESSAGES.locked, 'DELIVERY_LOCKED');
    }
    // A form missing the proof the company requires is refused before the code is tried (and counted).
    checkRequiredProof(await proofRequired(tx), photo, signature);

    const verified = await ctx.secretCodes.verify(locked.secretCodeHash, input.secretCode);
    if (!verified.ok) {
      const counted = await countFailure(tx, id, now);
      if (counted.locked) {
        await audit(tx, {
          userId: actor.id,
          entity: 'shipment',
          entityId: id,
          action: 'delivery-locked',
          after: { failures: counted.failures, lockedMinutes: DELIVERY_LOCK.lockMinutes },
        });
        return { kind: 'locked-now' };
      }
      return { kind: 'wrong-code' };
    }

    const before = await loadDto(tx, actor, id);
    const deliveredInfo: DeliveredInfo = {
      receiverName: input.receiverName,
      receiverDoc: input.receiverDoc,
      deliveredByName: input.deliveredByName,
      deliveredAt: now.toISOString(),
      notes: input.notes,
      // Only when taken: a delivery without proof keeps the shape it always had.
      ...(photo ? { hasPhoto: true } : {}),
      ...(signature ? { hasSignature: true } : {}),
    };
    // A code stored by an older version as argon2 leaves as an HMAC (lib/secret-codes.ts).
    await changeShipmentStatus(tx, actor, now, locked, {
      to: 'Entregado',
      via: 'delivery',
      event: { kind: 'delivery', name: `Entregado a ${input.receiverName} (${input.receiverDoc})`, note: input.notes },
      audit: { action: 'deliver', before: { deliveredInfo: before.deliveredInfo }, after: { deliveredInfo } },
      columns: { deliveredInfo, ...(verified.rehash ? { secretCodeHash: verified.rehash } : {}) },
    });
    await storeProof(tx, id, photo, signature, now);
    await tx.delete(deliveryAttempts).where(eq(deliveryAttempts.shipmentId, id));
    const shipment = await loadDto(tx, actor, id);
    return { kind: 'delivered', shipment };
  });

  // Thrown here, after the commit, so the counted failure stays even though the request fails.
  if (outcome.kind === 'locked-now') throw tooManyRequests(DELIVERY_MESSAGES.locked, 'DELIVERY_LOCKED');
  if (outcome.kind === 'wrong-code') {
    throw unprocessable(DELIVERY_MESSAGES.wrongSecret, { secretCode: DELIVERY_MESSAGES.wrongSecret }, 'WRONG_SECRET_CODE');
  }
  return outcome.shipment;
}

/**
 * The people offered as 'delivered by': agents and couriers (a courier hands most parcels over),
 * every branch, sorted by username. Admin accounts are back-office and are not offered.
 */
export async function listDeliveryAgents(ctx: ServiceContext): Promise<DeliveryAgent[]> {
  const rows = await ctx.db
    .select({
      id: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      branchId: users.branchId,
      branchName: branches.name,
    })
    .from(users)
    .leftJoin(branches, eq(branches.id, users.branchId))
    .where(inArray(users.role, ['agent', 'courier']))
    .orderBy(asc(users.username), asc(users.id));
  return rows.map((r) => ({
    id: r.id,
    username: r.username || null,
    name: [r.firstName, r.lastName].filter(Boolean).join(' ') || null,
    role: r.role as DeliveryAgent['role'],
    branchId: r.branchId,
    branchName: r.branchName,
  }));
}
