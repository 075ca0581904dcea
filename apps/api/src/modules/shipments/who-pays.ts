import { canEdit, PAYER_LABELS, PAYMENT_MOMENT_LABELS, toCents, whoPaysChangeRefusal, whoPaysColumns, type WhoPaysChange } from '@tramo/domain';
import { audit } from '../../lib/audit.ts';
import { conflict, forbidden } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { loadDto } from './dto.ts';
import { addShipmentEvent } from './events.ts';
import { hasLiveCharge, loadedOnPlate, updateShipmentRow } from './rows.ts';
import { lockForManagement } from './commands.ts';
import { auditCreditOverride, checkWhoPays, creditCustomerOf } from './who-pays-check.ts';

const describe = (v: WhoPaysChange) => `${PAYER_LABELS[v.payer]} — ${PAYMENT_MOMENT_LABELS[v.paymentMoment]}`;

/**
 * PUT /shipments/{id}/who-pays: until the freight is paid or the parcel loaded (left 'Creado'),
 * the origin changes who pays and when; a history line and an audit row say from what to what.
 */
export async function changeWhoPays(ctx: ServiceContext, actor: SessionUser, idOrCode: string, data: WhoPaysChange) {
  return ctx.db.transaction(async (tx) => {
    const current = await lockForManagement(tx, actor, idOrCode);
    if (!canEdit(actor, current.originBranchId)) throw forbidden('Solo la sucursal de origen cambia quién paga.');
    const refusal = whoPaysChangeRefusal({
      hasLivePayment: await hasLiveCharge(tx, current.id),
      loaded: current.status !== 'Creado' || (await loadedOnPlate(tx, current.id)) !== null,
    });
    if (refusal) throw conflict(refusal, { paymentMoment: refusal }, 'WHO_PAYS_LOCKED');
    const before = current.before;
    const creditOverride = await checkWhoPays(
      tx,
      data,
      {
        originBranchId: before.originBranchId,
        destinationBranchId: before.destinationBranchId,
        priceCents: toCents(before.quotedPrice),
        weightKg: before.weightKg,
        senderCustomerId: before.senderCustomerId ?? null,
      },
      { actor, now: ctx.now() },
    );
    if (creditOverride)
      await auditCreditOverride(
        tx,
        actor,
        current.id,
        creditCustomerOf(data, before.senderCustomerId ?? null),
        creditOverride,
        toCents(before.quotedPrice),
      );
    const columns = whoPaysColumns(data);
    await updateShipmentRow(tx, current.id, { ...columns, updatedAt: ctx.now() });
    await addShipmentEvent(tx, actor, ctx.now(), current.id, { kind: 'edit', name: `Pago: ${describe(data)}` });
    const { payer, paymentMoment, payerDocType, payerDocNumber, payerName, payerCustomerId } = before;
    await audit(tx, {
      userId: actor.id,
      entity: 'shipment',
      entityId: current.id,
      action: 'who-pays',
      before: { payer, paymentMoment, payerDocType, payerDocNumber, payerName, payerCustomerId },
      after: columns,
    });
    return loadDto(tx, actor, { id: current.id });
  });
}
