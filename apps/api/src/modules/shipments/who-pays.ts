import {
  canEdit,
  PAYER_LABELS,
  PAYMENT_MOMENT_LABELS,
  toCents,
  whoPaysChangeRefusal,
  whoPaysColumns,
  whoPaysRefusal,
  type WhoPaysChange,
} from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, forbidden, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { rulesForRoute } from '../who-pays/index.ts';
import { loadDto } from './dto.ts';
import { addShipmentEvent } from './events.ts';
import { hasLiveCharge, loadedOnPlate, updateShipmentRow } from './rows.ts';
import { lockForManagement } from './commands.ts';

/**
 * Who pays a shipment and when (issue 33), checked against the company's and the route's rules.
 * The plain case (the sender at origin) reads nothing: a creation's hot path stays one statement.
 */
export async function checkWhoPays(
  db: Db | Tx,
  choice: WhoPaysChange,
  shipment: { originBranchId: number; destinationBranchId: number; priceCents: number; weightKg: number },
): Promise<void> {
  const plain = choice.paymentMoment === 'origen' && choice.payer !== 'tercero';
  if (plain) return;
  const route =
    choice.paymentMoment === 'destino'
      ? await rulesForRoute(db, shipment.originBranchId, shipment.destinationBranchId)
      : { rules: { maxDestinationFreightCents: 0, originOnlyAboveKg: null }, routeAllowsDestination: false };
  const refusal = whoPaysRefusal(choice, {
    ...route,
    priceCents: shipment.priceCents,
    weightKg: shipment.weightKg,
    // Credit accounts are another issue's: until they exist, nobody has one.
    hasCreditAccount: false,
  });
  if (refusal) throw unprocessable(refusal.message, { [refusal.field]: refusal.message }, 'WHO_PAYS_REFUSED');
}

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
    await checkWhoPays(tx, data, {
      originBranchId: before.originBranchId,
      destinationBranchId: before.destinationBranchId,
      priceCents: toCents(before.quotedPrice),
      weightKg: before.weightKg,
    });
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
