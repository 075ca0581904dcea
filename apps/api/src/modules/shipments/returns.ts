import {
  alreadyReturnedAs,
  canReturn,
  canSee,
  RETURN_MESSAGES,
  returnRefusal,
  SHIPMENT_MESSAGES,
  whoPaysAfterReturn,
  whoPaysColumns,
  type PaymentMoment,
  type Payer,
  type ShipmentLine,
  type ShipmentStatus,
} from '@tramo/domain';
import { audit } from '../../lib/audit.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { SessionUser, ServiceContext } from '../../types.ts';
import { newRow } from './commands.ts';
import { loadDto, shipmentKey, snapshot, type ShipmentDto } from './dto.ts';
import { addShipmentEvent } from './events.ts';
import {
  customerByDoc,
  customerContact,
  findReturnLeg,
  findRow,
  hasLiveCharge,
  insertShipment,
  lockRow,
  returnIdempotencyKey,
  updateShipmentRow,
} from './rows.ts';
import { changeShipmentStatus } from './status.ts';

/**
 * Return to origin (DESIGN.md 5a), in one transaction: the original is closed as 'Devuelto' and a
 * return leg is registered from its destination back to its origin, sender and recipient swapped,
 * the same lines. The return leg is not charged (price 0): the spec and DESIGN.md price a shipment
 * the customer asked for, and a parcel that could not be delivered was already paid for once; a
 * counter that wants to bill the return registers a normal shipment instead.
 *
 * Who pays (issue 33): an original left for pago en destino and not yet paid there becomes the
 * sender's to pay at the origin (whoPaysAfterReturn): the recipient never got it. It then counts
 * in the sender's Cuentas por cobrar at the origin, no longer in 'Por cobrar en destino'. The
 * return leg itself charges S/ 0.00 and is the sender's at origin, so nothing is left to collect on it.
 *
 * The original's row lock makes a double return one: the second finds it 'Devuelto' and is refused
 * (409), unless it repeats the first request's Idempotency-Key, which answers the same return again.
 */
export async function returnToOrigin(
  ctx: ServiceContext,
  actor: SessionUser,
  idOrCode: string,
  data: { reason: string; secretCode: string },
  idempotencyKey: string | null,
): Promise<{ replayed: boolean; original: ShipmentDto; returnShipment: ShipmentDto }> {
  const secretCodeHash = ctx.secretCodes.hash(data.secretCode);
  return ctx.db.transaction(async (tx) => {
    const locked = await lockRow(tx, shipmentKey(idOrCode));
    if (!locked) throw notFound(SHIPMENT_MESSAGES.notFound);
    const original = (await findRow(tx, { id: locked.id }))!;
    if (!canSee(actor, original)) throw forbidden(SHIPMENT_MESSAGES.notVisible);
    const status = original.status as ShipmentStatus;
    if (status === 'Devuelto') {
      const leg = await findReturnLeg(tx, original.id);
      if (leg && idempotencyKey !== null && (await returnIdempotencyKey(tx, original.id)) === idempotencyKey) {
        return { replayed: true, original: await loadDto(tx, actor, { id: original.id }), returnShipment: await loadDto(tx, actor, { id: leg.id }) };
      }
      if (leg) throw conflict(alreadyReturnedAs(leg.code), undefined, 'ALREADY_RETURNED');
    }
    if (!canReturn(actor, original)) throw forbidden(RETURN_MESSAGES.notOwnBranch);
    const refusal = returnRefusal(status);
    if (refusal) throw conflict(refusal, undefined, 'CANNOT_RETURN');

    const now = ctx.now();
    const sender = await customerContact(tx, original.senderCustomerId);
    const [first = original.senderName, ...rest] = original.senderName.trim().split(/\s+/);
    const lines = (original.multiLineDetail as ShipmentLine[]).map((l) => ({ ...l, factorPerKg: 0, price: 0 }));
    const leg = await insertShipment(
      tx,
      {
        ...newRow(actor, now),
        originBranchId: original.destinationBranchId,
        destinationBranchId: original.originBranchId,
        senderCustomerId: await customerByDoc(tx, original.recipientDoc),
        senderName: original.recipientName,
        recipientFirstName: first,
        // A company sender ('Comercial Andina SAC') has no last name: its whole name is kept below.
        recipientLastName: rest.join(' '),
        recipientName: original.senderName,
        // A sender registered without a customer record has no document on file; the counter checks
        // the person's document when handing the parcel back.
        recipientDoc: sender?.docNumber ?? '',
        recipientPhone: sender?.phone ?? null,
        recipientEmail: sender?.email ?? null,
        productType: original.productType,
        weightKg: original.weightKg,
        billableWeightKg: original.billableWeightKg,
        description: original.description,
        quotedPrice: '0.00',
        quotedCurrency: original.quotedCurrency,
        quotedFactorPerKg: '0',
        usingReverse: false,
        multiLineDetail: lines,
        secretCodeHash,
        returnOfShipmentId: original.id,
      },
      { id: original.destinationBranchId, name: original.destinationName, city: original.destinationCity },
      { id: original.originBranchId, name: original.originName, city: original.originCity },
    );
    await addShipmentEvent(tx, actor, now, leg.id, {
      kind: 'status',
      name: `Creado — Retorno de ${original.code}`,
      note: data.reason,
      statusTo: 'Creado',
    });
    const whoPays = { payer: original.payer as Payer, paymentMoment: original.paymentMoment as PaymentMoment };
    const after = whoPaysAfterReturn(whoPays, await hasLiveCharge(tx, original.id));
    if (after !== whoPays) {
      const columns = whoPaysColumns({ ...after, payerDocType: null, payerDocNumber: null, payerName: null, payerCustomerId: null });
      await updateShipmentRow(tx, original.id, { ...columns, updatedAt: now });
      await addShipmentEvent(tx, actor, now, original.id, {
        kind: 'edit',
        name: 'Pago: Remitente — Contado en origen (devuelto antes de cobrarse en destino)',
      });
      await audit(tx, {
        userId: actor.id,
        entity: 'shipment',
        entityId: original.id,
        action: 'who-pays',
        before: {
          payer: original.payer,
          paymentMoment: original.paymentMoment,
          payerDocNumber: original.payerDocNumber,
          payerName: original.payerName,
        },
        after: { ...columns, reason: 'return' },
      });
    }
    await changeShipmentStatus(tx, actor, now, original, {
      to: 'Devuelto',
      via: 'return',
      event: { name: `Devuelto a origen: ${data.reason}`, note: data.reason },
      audit: { action: 'return', after: { reason: data.reason, returnShipmentId: leg.id, returnCode: leg.code, idempotencyKey } },
    });
    const returnShipment = await loadDto(tx, actor, { id: leg.id });
    await audit(tx, {
      userId: actor.id,
      entity: 'shipment',
      entityId: leg.id,
      action: 'create',
      after: { ...snapshot(returnShipment), returnOf: original.code },
    });
    return { replayed: false, original: await loadDto(tx, actor, { id: original.id }), returnShipment };
  });
}
