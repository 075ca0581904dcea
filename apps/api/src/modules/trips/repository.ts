import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import {
  branches,
  complianceOverrides,
  incidents,
  shipments,
  transportAssignments,
  transports,
  tripExtraScans,
  trips,
  tripShipments,
} from '../../db/schema.ts';

const originBranch = alias(branches, 'trip_origin');
const destinationBranch = alias(branches, 'trip_destination');

/** A trip's row with its branch names, and how many shipments it carried. */
export async function findTrip(db: Db | Tx, tripId: number) {
  const [row] = await db
    .select({
      id: trips.id,
      transportId: trips.transportId,
      plate: trips.plate,
      originBranchId: trips.originBranchId,
      originName: originBranch.name,
      destinationBranchId: trips.destinationBranchId,
      destinationName: destinationBranch.name,
      weightKg: trips.weightKg,
      billableWeightKg: trips.billableWeightKg,
      capacityKg: trips.capacityKg,
      overloaded: trips.overloaded,
      departedAt: trips.departedAt,
      departedByName: trips.departedByName,
      arrivedAt: trips.arrivedAt,
      arrivedByName: trips.arrivedByName,
      overrideReason: complianceOverrides.reason,
      overrideRefusal: complianceOverrides.refusal,
      overrideByName: complianceOverrides.createdByName,
      overrideAt: complianceOverrides.createdAt,
    })
    .from(trips)
    .innerJoin(originBranch, eq(originBranch.id, trips.originBranchId))
    .innerJoin(destinationBranch, eq(destinationBranch.id, trips.destinationBranchId))
    .leftJoin(complianceOverrides, eq(complianceOverrides.tripId, trips.id))
    .where(eq(trips.id, tripId));
  if (!row) return null;
  const carried = await db.select({ shipmentId: tripShipments.shipmentId }).from(tripShipments).where(eq(tripShipments.tripId, tripId));
  return { ...row, shipmentCount: carried.length };
}

export async function transportExists(db: Db, transportId: number): Promise<boolean> {
  const [transport] = await db.select({ id: transports.id }).from(transports).where(eq(transports.id, transportId));
  return transport !== undefined;
}

/** The ids of the newest `limit` trips of a transport. */
export async function tripIdsOf(db: Db, transportId: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: trips.id })
    .from(trips)
    .where(eq(trips.transportId, transportId))
    .orderBy(desc(trips.departedAt), desc(trips.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

export async function branchName(tx: Tx, id: number): Promise<string> {
  const [row] = await tx.select({ name: branches.name }).from(branches).where(eq(branches.id, id));
  return row?.name ?? '';
}

/** The shipments loaded on a transport, locked for the departure's transaction. */
/** The ids of the shipments on a transport now (unlocked: what the departure asks SUNAT about first). */
export async function loadedShipmentIds(db: Db | Tx, transportId: number): Promise<number[]> {
  const rows = await db
    .select({ id: transportAssignments.shipmentId })
    .from(transportAssignments)
    .where(eq(transportAssignments.transportId, transportId));
  return rows.map((r) => r.id);
}

export async function lockLoad(tx: Tx, transportId: number) {
  return tx
    .select({
      id: shipments.id,
      code: shipments.code,
      status: shipments.status,
      weightKg: shipments.weightKg,
      billableWeightKg: shipments.billableWeightKg,
    })
    .from(transportAssignments)
    .innerJoin(shipments, eq(shipments.id, transportAssignments.shipmentId))
    .where(eq(transportAssignments.transportId, transportId))
    .orderBy(asc(shipments.id))
    .for('update', { of: shipments });
}

/** A departed trip and the shipments it carries; answers the trip's id. */
export async function insertTrip(tx: Tx, values: typeof trips.$inferInsert, shipmentIds: number[]): Promise<number> {
  const [trip] = await tx.insert(trips).values(values).returning({ id: trips.id });
  await tx.insert(tripShipments).values(shipmentIds.map((shipmentId) => ({ tripId: trip!.id, shipmentId })));
  return trip!.id;
}

export async function setTransportStatus(tx: Tx, transportId: number, status: string, now: Date): Promise<void> {
  await tx.update(transports).set({ status, updatedAt: now }).where(eq(transports.id, transportId));
}

/** The shipments a trip carries and whether each was scanned off, locked for the arrival's transaction. */
export async function lockCarried(tx: Tx, tripId: number) {
  return tx
    .select({ id: shipments.id, status: shipments.status, scannedAt: tripShipments.scannedAt })
    .from(tripShipments)
    .innerJoin(shipments, eq(shipments.id, tripShipments.shipmentId))
    .where(eq(tripShipments.tripId, tripId))
    .orderBy(asc(shipments.id))
    .for('update', { of: shipments });
}

/** An open incident; answers its id. */
export async function insertIncident(tx: Tx, values: typeof incidents.$inferInsert): Promise<number> {
  const [incident] = await tx.insert(incidents).values(values).returning({ id: incidents.id });
  return incident!.id;
}

/** The trip is over: the transport's load list empties and the trip records who received it and when. */
export async function closeTrip(tx: Tx, tripId: number, transportId: number, arrived: { at: Date; by: number; byName: string }) {
  await tx.delete(transportAssignments).where(eq(transportAssignments.transportId, transportId));
  await tx.update(trips).set({ arrivedAt: arrived.at, arrivedBy: arrived.by, arrivedByName: arrived.byName }).where(eq(trips.id, tripId));
}

/** A transport as a load scan reads it: its plate, destination and capacity. */
export async function scanTransport(db: Db, transportId: number) {
  const [transport] = await db
    .select({
      plate: transports.platePrimary,
      destinationBranchId: transports.destinationBranchId,
      destinationName: destinationBranch.name,
      capacityKg: transports.capacityKg,
    })
    .from(transports)
    .leftJoin(destinationBranch, eq(destinationBranch.id, transports.destinationBranchId))
    .where(eq(transports.id, transportId));
  return transport ?? null;
}

/** A scanned shipment: its route, status, weight and the transport it is loaded on, if any. */
export async function scanShipment(db: Db, code: string) {
  const [shipment] = await db
    .select({
      id: shipments.id,
      code: shipments.code,
      originBranchId: shipments.originBranchId,
      destinationBranchId: shipments.destinationBranchId,
      destinationName: branches.name,
      status: shipments.status,
      weightKg: shipments.weightKg,
      onTransport: transportAssignments.transportId,
    })
    .from(shipments)
    .innerJoin(branches, eq(branches.id, shipments.destinationBranchId))
    .leftJoin(transportAssignments, eq(transportAssignments.shipmentId, shipments.id))
    .where(eq(shipments.code, code));
  return shipment ?? null;
}

export async function transportPlate(db: Db | Tx, transportId: number): Promise<string | null> {
  const [transport] = await db.select({ plate: transports.platePrimary }).from(transports).where(eq(transports.id, transportId));
  return transport?.plate ?? null;
}

/** What the trip carries (by code) and whether each came off, and the codes scanned that it does not carry. */
export async function unloadRows(db: Db | Tx, tripId: number) {
  const carried = await db
    .select({ shipmentId: shipments.id, code: shipments.code, recipientName: shipments.recipientName, scannedAt: tripShipments.scannedAt })
    .from(tripShipments)
    .innerJoin(shipments, eq(shipments.id, tripShipments.shipmentId))
    .where(eq(tripShipments.tripId, tripId))
    .orderBy(asc(shipments.code));
  const extras = await db
    .select({ shipmentId: tripExtraScans.shipmentId, code: tripExtraScans.code, recipientName: shipments.recipientName })
    .from(tripExtraScans)
    .leftJoin(shipments, eq(shipments.id, tripExtraScans.shipmentId))
    .where(eq(tripExtraScans.tripId, tripId))
    .orderBy(asc(tripExtraScans.scannedAt), asc(tripExtraScans.code));
  return { carried, extras };
}

/** The trip's line for a code, if the trip carries it. */
export async function findOnTrip(tx: Tx, tripId: number, code: string) {
  const [onTrip] = await tx
    .select({ shipmentId: tripShipments.shipmentId, scannedAt: tripShipments.scannedAt })
    .from(tripShipments)
    .innerJoin(shipments, eq(shipments.id, tripShipments.shipmentId))
    .where(and(eq(tripShipments.tripId, tripId), eq(shipments.code, code)));
  return onTrip ?? null;
}

export async function markScanned(tx: Tx, tripId: number, shipmentId: number, now: Date): Promise<void> {
  await tx
    .update(tripShipments)
    .set({ scannedAt: now })
    .where(and(eq(tripShipments.tripId, tripId), eq(tripShipments.shipmentId, shipmentId), isNull(tripShipments.scannedAt)));
}

/** A code scanned off a trip that does not carry it (a known shipment's id when there is one); once per code. */
export async function addExtraScan(tx: Tx, tripId: number, code: string, now: Date): Promise<void> {
  const [known] = await tx.select({ id: shipments.id }).from(shipments).where(eq(shipments.code, code));
  await tx
    .insert(tripExtraScans)
    .values({ tripId, code, shipmentId: known?.id ?? null, scannedAt: now })
    .onConflictDoNothing();
}
