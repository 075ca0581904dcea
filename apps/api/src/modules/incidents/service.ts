import { and, count, desc, eq, isNull } from 'drizzle-orm';
import {
  canSee,
  centsToNumber,
  incidentCompensation,
  toCents,
  displayName,
  INCIDENT_PHOTO_INVALID,
  INCIDENT_REASON_LABELS,
  SHIPMENT_MESSAGES,
  type Incident,
  type IncidentReason,
} from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { incidents, shipments } from '../../db/schema.ts';
import { badRequest, forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import { reencodeImage, type StoredImageType } from '../../lib/images.ts';
import type { SessionUser, ServiceContext } from '../../types.ts';
import { loadCompanyTariff } from '../pricing/index.ts';
import { branchScope, recordShipmentEvent, shipmentKey } from '../shipments/index.ts';

const columns = {
  id: incidents.id,
  shipmentId: incidents.shipmentId,
  shipmentCode: shipments.code,
  reason: incidents.reason,
  note: incidents.note,
  photo: incidents.photo,
  tripId: incidents.tripId,
  createdAt: incidents.createdAt,
  createdByName: incidents.createdByName,
  closedAt: incidents.closedAt,
  closedByName: incidents.closedByName,
};
type Row = { [K in keyof typeof columns]: (typeof columns)[K]['_']['data'] | ((typeof columns)[K]['_']['notNull'] extends true ? never : null) };

function toDto(r: Row): Incident {
  return {
    id: r.id,
    shipmentId: r.shipmentId,
    shipmentCode: r.shipmentCode,
    reason: r.reason as IncidentReason,
    note: r.note,
    hasPhoto: r.photo !== null,
    tripId: r.tripId,
    createdAt: r.createdAt.toISOString(),
    createdByName: r.createdByName,
    closedAt: r.closedAt?.toISOString() ?? null,
    closedByName: r.closedByName,
  };
}

async function visibleShipment(db: Db | Tx, actor: SessionUser, idOrCode: string) {
  const key = shipmentKey(idOrCode);
  const [shipment] = await db
    .select({ id: shipments.id, originBranchId: shipments.originBranchId, destinationBranchId: shipments.destinationBranchId })
    .from(shipments)
    .where('id' in key ? eq(shipments.id, key.id) : eq(shipments.code, key.code));
  if (!shipment) throw notFound(SHIPMENT_MESSAGES.notFound);
  if (!canSee(actor, shipment)) throw forbidden(SHIPMENT_MESSAGES.notVisible);
  return shipment;
}

/** A shipment's incidents, newest first; one of loss or damage with the compensation its clause pays. */
export async function shipmentIncidents(ctx: ServiceContext, actor: SessionUser, idOrCode: string): Promise<Incident[]> {
  const shipment = await visibleShipment(ctx.db, actor, idOrCode);
  const [rows, company] = await Promise.all([
    ctx.db
      .select({ ...columns, declaredValue: shipments.declaredValue, insured: shipments.insured })
      .from(incidents)
      .innerJoin(shipments, eq(shipments.id, incidents.shipmentId))
      .where(eq(incidents.shipmentId, shipment.id))
      .orderBy(desc(incidents.createdAt), desc(incidents.id)),
    ctx.references.get('tariff:company', () => loadCompanyTariff(ctx.db)),
  ]);
  return rows.map((r) => {
    const due = incidentCompensation(
      r.reason,
      { declaredValueCents: r.declaredValue === null ? null : toCents(r.declaredValue), insured: r.insured },
      company,
    );
    const compensation = due && { amount: centsToNumber(due.amountCents), basis: due.basis, description: due.description };
    return { ...toDto(r), photo: r.photo, compensation };
  });
}

/** Open incidents the user may see (the Panel's counter), and the newest of them. */
export async function openIncidents(ctx: ServiceContext, actor: SessionUser) {
  const where = and(isNull(incidents.closedAt), branchScope(actor));
  const [total] = await ctx.db.select({ n: count() }).from(incidents).innerJoin(shipments, eq(shipments.id, incidents.shipmentId)).where(where);
  const rows = await ctx.db
    .select(columns)
    .from(incidents)
    .innerJoin(shipments, eq(shipments.id, incidents.shipmentId))
    .where(where)
    .orderBy(desc(incidents.createdAt), desc(incidents.id))
    .limit(20);
  return { open: Number(total?.n ?? 0), items: rows.map(toDto) };
}

/**
 * The photo's data URL (the schema checked its shape) as this server encodes it again; refused
 * with a 400 on `photo` when its bytes are not the image the URL names.
 */
async function storablePhoto(dataUrl: string): Promise<string> {
  const [, type, base64] = /^data:(image\/[a-z]+);base64,(.*)$/.exec(dataUrl) ?? [];
  const bytes = type && base64 ? await reencodeImage(Buffer.from(base64, 'base64'), type as StoredImageType) : null;
  if (!bytes) throw badRequest(INCIDENT_PHOTO_INVALID, { photo: INCIDENT_PHOTO_INVALID });
  return `data:${type};base64,${bytes.toString('base64')}`;
}

export async function createIncident(
  ctx: ServiceContext,
  actor: SessionUser,
  idOrCode: string,
  data: { reason: IncidentReason; note: string | null; photo: string | null },
): Promise<Incident> {
  // Before anything is read or written: a bad image is a 400 that changes nothing.
  const photo = data.photo === null ? null : await storablePhoto(data.photo);
  return ctx.db.transaction(async (tx) => {
    const shipment = await visibleShipment(tx, actor, idOrCode);
    const now = ctx.now();
    const [created] = await tx
      .insert(incidents)
      .values({
        shipmentId: shipment.id,
        reason: data.reason,
        note: data.note,
        photo,
        createdAt: now,
        createdBy: actor.id,
        createdByName: displayName(actor),
      })
      .returning({ id: incidents.id });
    const label = INCIDENT_REASON_LABELS[data.reason];
    await recordShipmentEvent(
      tx,
      actor,
      now,
      shipment.id,
      { kind: 'incident', name: `Incidencia: ${label}`, note: data.note },
      { action: 'incident.create', after: { incidentId: created!.id, reason: data.reason, note: data.note, photo: photo !== null } },
    );
    const [row] = await tx
      .select(columns)
      .from(incidents)
      .innerJoin(shipments, eq(shipments.id, incidents.shipmentId))
      .where(eq(incidents.id, created!.id));
    return toDto(row!);
  });
}

export async function closeIncident(ctx: ServiceContext, actor: SessionUser, incidentId: number, note: string | null): Promise<Incident> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ ...columns, originBranchId: shipments.originBranchId, destinationBranchId: shipments.destinationBranchId })
      .from(incidents)
      .innerJoin(shipments, eq(shipments.id, incidents.shipmentId))
      .where(eq(incidents.id, incidentId))
      .for('update', { of: incidents });
    if (!row) throw notFound('Incidencia no encontrada.');
    if (!canSee(actor, row)) throw forbidden(SHIPMENT_MESSAGES.notVisible);
    if (row.closedAt !== null) throw unprocessable('La incidencia ya está cerrada.', undefined, 'ALREADY_CLOSED');
    const now = ctx.now();
    await tx
      .update(incidents)
      .set({ closedAt: now, closedBy: actor.id, closedByName: displayName(actor) })
      .where(eq(incidents.id, incidentId));
    const label = INCIDENT_REASON_LABELS[row.reason as IncidentReason];
    await recordShipmentEvent(
      tx,
      actor,
      now,
      row.shipmentId,
      { kind: 'incident', name: `Incidencia cerrada: ${label}`, note },
      { action: 'incident.close', after: { incidentId, note } },
    );
    const [after] = await tx
      .select(columns)
      .from(incidents)
      .innerJoin(shipments, eq(shipments.id, incidents.shipmentId))
      .where(eq(incidents.id, incidentId));
    return toDto(after!);
  });
}
