import { and, asc, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  alreadyLoadedOn,
  canSee,
  FLEET_MESSAGES,
  formatDocumentNumber,
  loadedEventName,
  onlyCreatedLoadable,
  SHIPMENT_MESSAGES,
  unloadedEventName,
  type LoadableShipment,
  type ShipmentAssignment,
  type TransportLoad,
  type TransportStatus,
} from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { branches, documents, documentShipments, drivers, shipments, transportAssignments, transports } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { addShipmentEvent } from '../shipments/index.ts';
import { conflict, forbidden, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { branchScope, shipmentKey, textSearch } from '../shipments/index.ts';
import { refuseIfNotCompliant } from './compliance.ts';
import { lockTransport, refuseIfDeparted, refuseIfInMaintenance } from './transports.ts';

const originBranch = alias(branches, 'origin_branch');
const destinationBranch = alias(branches, 'destination_branch');

/**
 * The loaded packages of a transport, oldest load first, with the total weight against its capacity.
 * An agent sees only the packages they may open (DESIGN.md section 4, as loading is scoped): the
 * total weight still counts the whole load, since it is the truck's.
 */
export async function transportLoad(db: Db | Tx, transportId: number, actor: SessionUser): Promise<TransportLoad> {
  const [transport] = await db
    .select({ capacityKg: transports.capacityKg, netWeightKg: transports.netWeightKg })
    .from(transports)
    .where(eq(transports.id, transportId));
  if (!transport) throw notFound(FLEET_MESSAGES.transportNotFound);
  const rows = await db
    .select({
      id: transportAssignments.id,
      shipmentId: shipments.id,
      code: shipments.code,
      status: shipments.status,
      createdAt: shipments.createdAt,
      loadedAt: transportAssignments.loadedAt,
      senderName: shipments.senderName,
      recipientName: shipments.recipientName,
      recipientDoc: shipments.recipientDoc,
      weightKg: shipments.weightKg,
      billableWeightKg: shipments.billableWeightKg,
      originBranchId: shipments.originBranchId,
      destinationBranchId: shipments.destinationBranchId,
      destinationName: destinationBranch.name,
      guideId: documents.id,
      guideSeries: documents.series,
      guideNumber: documents.number,
    })
    .from(transportAssignments)
    .innerJoin(shipments, eq(shipments.id, transportAssignments.shipmentId))
    .innerJoin(destinationBranch, eq(destinationBranch.id, shipments.destinationBranchId))
    // The live carrier guide the shipment travels under (at most one: document_shipments_guide_live_uq).
    .leftJoin(
      documentShipments,
      and(eq(documentShipments.shipmentId, shipments.id), eq(documentShipments.live, true), eq(documentShipments.role, 'guia')),
    )
    .leftJoin(documents, eq(documents.id, documentShipments.documentId))
    .where(eq(transportAssignments.transportId, transportId))
    .orderBy(asc(transportAssignments.loadedAt), asc(transportAssignments.id));
  // Weights have 2 decimals: summing whole hundredths keeps the total exact.
  const totalHundredths = rows.reduce((sum, r) => sum + Math.round(Number(r.weightKg) * 100), 0);
  return {
    items: rows
      .filter((r) => canSee(actor, r))
      .map((r) => ({
        id: r.id,
        shipmentId: r.shipmentId,
        code: r.code,
        status: r.status,
        createdAt: r.createdAt.toISOString(),
        loaded_at: r.loadedAt.toISOString(),
        senderName: r.senderName,
        recipientName: r.recipientName,
        recipientDoc: r.recipientDoc,
        weightKg: Number(r.weightKg),
        billableWeightKg: r.billableWeightKg,
        destinationName: r.destinationName,
        guideId: r.guideId,
        guideNumber: r.guideSeries !== null && r.guideNumber !== null ? formatDocumentNumber(r.guideSeries, r.guideNumber) : null,
      })),
    totalWeightKg: totalHundredths / 100,
    totalBillableWeightKg: rows.reduce((sum, r) => sum + r.billableWeightKg, 0),
    capacityKg: transport.capacityKg === null ? null : Number(transport.capacityKg),
    netWeightKg: transport.netWeightKg === null ? null : Number(transport.netWeightKg),
  };
}

function writeEvent(tx: Tx, ctx: ServiceContext, actor: SessionUser, shipmentId: number, name: string) {
  return addShipmentEvent(tx, actor, ctx.now(), shipmentId, { kind: 'transport', name });
}

/**
 * All or nothing: every shipment must exist, be Creado and be on no transport. A shipment already
 * on another transport is refused (not moved): moving a loaded package is an explicit unload
 * first, so nobody takes a package off a truck by accident. The shipment rows are locked in id
 * order (no deadlocks between two loads); the UNIQUE(shipment_id) index settles any race left.
 */
export async function loadShipments(ctx: ServiceContext, actor: SessionUser, transportId: number, shipmentIds: number[]) {
  const ids = [...new Set(shipmentIds)].sort((a, b) => a - b);
  return ctx.db
    .transaction(async (tx) => {
      const transport = await lockTransport(tx, transportId);
      refuseIfInMaintenance(transport);
      await refuseIfDeparted(tx, transport);
      await refuseIfNotCompliant(tx, transportId, ctx.now());
      const rows = await tx
        .select({
          id: shipments.id,
          code: shipments.code,
          status: shipments.status,
          originBranchId: shipments.originBranchId,
          destinationBranchId: shipments.destinationBranchId,
        })
        .from(shipments)
        .where(inArray(shipments.id, ids))
        .orderBy(asc(shipments.id))
        .for('update');
      if (rows.length !== ids.length) {
        throw unprocessable(FLEET_MESSAGES.shipmentNotFound, { shipmentIds: FLEET_MESSAGES.shipmentNotFound });
      }
      if (!rows.every((r) => canSee(actor, r))) throw forbidden(SHIPMENT_MESSAGES.notVisible);
      const notCreated = rows.find((r) => r.status !== 'Creado');
      if (notCreated) {
        const message = onlyCreatedLoadable(notCreated.code, notCreated.status);
        throw unprocessable(message, { shipmentIds: message }, 'NOT_LOADABLE');
      }
      const [loaded] = await tx
        .select({ shipmentId: transportAssignments.shipmentId, plate: transports.platePrimary })
        .from(transportAssignments)
        .innerJoin(transports, eq(transports.id, transportAssignments.transportId))
        .where(inArray(transportAssignments.shipmentId, ids))
        .limit(1);
      if (loaded) {
        const code = rows.find((r) => r.id === loaded.shipmentId)!.code;
        const message = alreadyLoadedOn(code, loaded.plate);
        throw conflict(message, { shipmentIds: message }, 'ALREADY_LOADED');
      }
      const now = ctx.now();
      const created = await tx
        .insert(transportAssignments)
        .values(ids.map((shipmentId) => ({ transportId, shipmentId, loadedAt: now, loadedBy: actor.id })))
        .returning({ id: transportAssignments.id, shipmentId: transportAssignments.shipmentId });
      for (const a of created) {
        await writeEvent(tx, ctx, actor, a.shipmentId, loadedEventName(transport.plate));
        await audit(tx, {
          userId: actor.id,
          entity: 'shipment',
          entityId: a.shipmentId,
          action: 'transport.load',
          after: { assignmentId: a.id, transportId, plate: transport.plate },
        });
      }
      return transportLoad(tx, transportId, actor);
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw conflict(FLEET_MESSAGES.alreadyLoadedRace, undefined, 'ALREADY_LOADED');
      throw err;
    });
}

export async function unloadShipment(ctx: ServiceContext, actor: SessionUser, transportId: number, assignmentId: number) {
  await ctx.db.transaction(async (tx) => {
    const transport = await lockTransport(tx, transportId);
    await refuseIfDeparted(tx, transport);
    const [assignment] = await tx
      .select({ id: transportAssignments.id, shipmentId: transportAssignments.shipmentId, loadedAt: transportAssignments.loadedAt })
      .from(transportAssignments)
      .where(and(eq(transportAssignments.id, assignmentId), eq(transportAssignments.transportId, transportId)));
    if (!assignment) throw notFound(FLEET_MESSAGES.assignmentNotFound);
    // Unloading is scoped like loading: only who may see the package takes it off a truck.
    const [shipment] = await tx
      .select({ originBranchId: shipments.originBranchId, destinationBranchId: shipments.destinationBranchId })
      .from(shipments)
      .where(eq(shipments.id, assignment.shipmentId));
    if (!shipment || !canSee(actor, shipment)) throw forbidden(SHIPMENT_MESSAGES.notVisible);
    await tx.delete(transportAssignments).where(eq(transportAssignments.id, assignment.id));
    await writeEvent(tx, ctx, actor, assignment.shipmentId, unloadedEventName(transport.plate));
    await audit(tx, {
      userId: actor.id,
      entity: 'shipment',
      entityId: assignment.shipmentId,
      action: 'transport.unload',
      before: { assignmentId: assignment.id, transportId, plate: transport.plate, loadedAt: assignment.loadedAt.toISOString() },
    });
  });
}

const driver1 = alias(drivers, 'driver1');
const driver2 = alias(drivers, 'driver2');

/**
 * The transport a shipment is on, or null when it is on none (200 either way: "not loaded" is an
 * answer, not an error); 404 only when the shipment does not exist. Read-only for every staff
 * role, like tracking, so the detail page of any shipment can show it.
 */
export async function shipmentAssignment(ctx: ServiceContext, actor: SessionUser, idOrCode: string): Promise<ShipmentAssignment | null> {
  const key = shipmentKey(idOrCode);
  const [shipment] = await ctx.db
    .select({ id: shipments.id, originBranchId: shipments.originBranchId, destinationBranchId: shipments.destinationBranchId })
    .from(shipments)
    .where('id' in key ? eq(shipments.id, key.id) : eq(shipments.code, key.code));
  if (!shipment) throw notFound(SHIPMENT_MESSAGES.notFound);
  // The same visibility as the shipment's own detail.
  if (!canSee(actor, shipment)) throw forbidden(SHIPMENT_MESSAGES.notVisible);
  const [row] = await ctx.db
    .select({
      assignmentId: transportAssignments.id,
      loadedAt: transportAssignments.loadedAt,
      id: transports.id,
      platePrimary: transports.platePrimary,
      plateSecondary: transports.plateSecondary,
      status: transports.status,
      route: transports.route,
      driver1Id: driver1.id,
      driver1Name: driver1.fullName,
      driver2Id: driver2.id,
      driver2Name: driver2.fullName,
    })
    .from(transportAssignments)
    .innerJoin(transports, eq(transports.id, transportAssignments.transportId))
    .leftJoin(driver1, eq(driver1.id, transports.driverId1))
    .leftJoin(driver2, eq(driver2.id, transports.driverId2))
    .where(eq(transportAssignments.shipmentId, shipment.id));
  if (!row) return null;
  return {
    id: row.id,
    assignmentId: row.assignmentId,
    plate_primary: row.platePrimary,
    plate_secondary: row.plateSecondary,
    status: row.status as TransportStatus,
    route: row.route,
    driver1: row.driver1Id !== null && row.driver1Name !== null ? { id: row.driver1Id, full_name: row.driver1Name } : null,
    driver2: row.driver2Id !== null && row.driver2Name !== null ? { id: row.driver2Id, full_name: row.driver2Name } : null,
    loaded_at: row.loadedAt.toISOString(),
  };
}

const LOADABLE_LIMIT = 30;

/**
 * Shipments that can be loaded now: status Creado and on no transport, matching `q` (code,
 * recipient document, sender or recipient name); newest first. Every branch: loading is a fleet
 * task of admins and agents (DESIGN.md section 4), not scoped like the shipment list.
 */
/** Only shipments the user may see (DESIGN.md section 4): an agent loads what leaves or reaches their branch. */
export async function loadableShipments(ctx: ServiceContext, actor: SessionUser, q: string | undefined): Promise<LoadableShipment[]> {
  const where: (SQL | undefined)[] = [eq(shipments.status, 'Creado'), isNull(transportAssignments.id), branchScope(actor)];
  if (q) where.push(textSearch(q));
  const rows = await ctx.db
    .select({
      id: shipments.id,
      code: shipments.code,
      createdAt: shipments.createdAt,
      senderName: shipments.senderName,
      recipientName: shipments.recipientName,
      recipientDoc: shipments.recipientDoc,
      weightKg: shipments.weightKg,
      originName: originBranch.name,
      destinationName: destinationBranch.name,
    })
    .from(shipments)
    .innerJoin(originBranch, eq(originBranch.id, shipments.originBranchId))
    .innerJoin(destinationBranch, eq(destinationBranch.id, shipments.destinationBranchId))
    .leftJoin(transportAssignments, eq(transportAssignments.shipmentId, shipments.id))
    .where(and(...where))
    .orderBy(desc(shipments.createdAt), desc(shipments.id))
    .limit(LOADABLE_LIMIT);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), weightKg: Number(r.weightKg) }));
}

/**
 * Which of these shipments are on a transport, and on which plate (issue 16, item 4: the list shows
 * the plate and does not offer what would be refused). Only shipments the user may see are answered.
 */
export async function loadedPlatesOf(ctx: ServiceContext, actor: SessionUser, shipmentIds: number[]) {
  if (shipmentIds.length === 0) return [];
  const rows = await ctx.db
    .select({
      shipmentId: transportAssignments.shipmentId,
      transportId: transports.id,
      plate: transports.platePrimary,
      originBranchId: shipments.originBranchId,
      destinationBranchId: shipments.destinationBranchId,
    })
    .from(transportAssignments)
    .innerJoin(transports, eq(transports.id, transportAssignments.transportId))
    .innerJoin(shipments, eq(shipments.id, transportAssignments.shipmentId))
    .where(inArray(transportAssignments.shipmentId, shipmentIds));
  return rows.filter((r) => canSee(actor, r)).map((r) => ({ shipmentId: r.shipmentId, transportId: r.transportId, plate: r.plate }));
}
