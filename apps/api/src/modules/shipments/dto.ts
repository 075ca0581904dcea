import {
  canEdit,
  canManage,
  normalizeShipmentCode,
  SHIPMENT_MESSAGES,
  type DeliveredInfo,
  type PriceComponentAnswer,
  type Payer,
  type PaymentMoment,
  type ProductType,
  type ShipmentLine,
  type ShipmentStatus,
} from '@tramo/domain';
import { and, eq } from 'drizzle-orm';
import { readBoth, type Db, type Tx } from '../../db/client.ts';
import { payments } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import type { SessionUser } from '../../types.ts';
import { findEvents, findReturnLinks, findRow, type EventRow, type ShipmentKey, type ShipmentRow } from './rows.ts';

export function toCheckpoint(e: EventRow) {
  return {
    id: e.id,
    name: e.name,
    at: e.at.toISOString(),
    userName: e.userName,
    kind: e.kind,
    note: e.note,
    statusFrom: e.statusFrom,
    statusTo: e.statusTo,
    visibleToCustomer: e.visibleToCustomer,
  };
}

/** Spec section 3 shape; numbers as numbers; the secret code hash never leaves the database. */
export function toShipmentDto(row: ShipmentRow, actor: SessionUser, events?: EventRow[]) {
  return {
    id: row.id,
    code: row.code,
    status: row.status as ShipmentStatus,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    createdByName: row.createdByName,
    originBranchId: row.originBranchId,
    destinationBranchId: row.destinationBranchId,
    originBranch: { name: row.originName, city: row.originCity },
    destinationBranch: { name: row.destinationName, city: row.destinationCity },
    senderCustomerId: row.senderCustomerId,
    senderName: row.senderName,
    recipientFirstName: row.recipientFirstName,
    recipientLastName: row.recipientLastName,
    recipientName: row.recipientName,
    recipientDoc: row.recipientDoc,
    productType: row.productType as ProductType,
    weightKg: Number(row.weightKg),
    billableWeightKg: row.billableWeightKg,
    description: row.description,
    quotedPrice: Number(row.quotedPrice),
    quotedCurrency: row.quotedCurrency,
    quotedFactorPerKg: Number(row.quotedFactorPerKg),
    usingReverse: row.usingReverse,
    multiLineDetail: row.multiLineDetail as ShipmentLine[],
    priceComponents: row.priceComponents as PriceComponentAnswer[] | null,
    declaredValue: row.declaredValue === null ? null : Number(row.declaredValue),
    insured: row.insured,
    surcharges: row.surcharges as string[],
    deliveredInfo: row.deliveredInfo as DeliveredInfo | null,
    payer: row.payer as Payer,
    paymentMoment: row.paymentMoment as PaymentMoment,
    payerDocType: row.payerDocType,
    payerDocNumber: row.payerDocNumber,
    payerName: row.payerName,
    payerCustomerId: row.payerCustomerId,
    ...(events ? { checkpoints: events.map(toCheckpoint) } : {}),
    canManage: canManage(actor, row.originBranchId),
    canEdit: row.status === 'Creado' && canEdit(actor, row.originBranchId),
  };
}
export type ShipmentDto = ReturnType<typeof toShipmentDto>;

/** `12` or `TMT-000012` (any case, padding optional) → the lookup key; anything else is a 404. */
export function shipmentKey(idOrCode: string): ShipmentKey {
  if (/^\d{1,9}$/.test(idOrCode)) return { id: Number(idOrCode) };
  const code = /^tmt/i.test(idOrCode) ? normalizeShipmentCode(idOrCode) : null;
  if (!code) throw notFound(SHIPMENT_MESSAGES.notFound);
  return { code };
}

/** A payment of the shipment's freight is 'paid' (the detail's amount due, Entregas' 'Cobrar'). */
export async function isFreightPaid(db: Db | Tx, shipmentId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.shipmentId, shipmentId), eq(payments.status, 'paid')))
    .limit(1);
  return row !== undefined;
}

export async function loadDto(db: Db | Tx, actor: SessionUser, key: ShipmentKey) {
  const row = await findRow(db, key);
  if (!row) throw notFound(SHIPMENT_MESSAGES.notFound);
  const [[events, links], freightPaid] = await readBoth(
    db,
    () =>
      readBoth(
        db,
        () => findEvents(db, row.id),
        () => findReturnLinks(db, row.id),
      ),
    () => isFreightPaid(db, row.id),
  );
  return { ...toShipmentDto(row, actor, events), ...links, freightPaid };
}

/** What audit rows keep of a shipment: everything but the secret. */
export function snapshot(dto: ShipmentDto & { returnOf?: unknown; returnedAs?: unknown; freightPaid?: boolean }) {
  const { canManage: _m, canEdit: _e, checkpoints: _c, returnOf: _ro, returnedAs: _ra, freightPaid: _p, ...rest } = dto;
  return rest;
}
