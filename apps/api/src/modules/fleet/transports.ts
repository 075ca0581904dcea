import { and, asc, count, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  FLEET_MESSAGES,
  routeText,
  TRIP_MESSAGES,
  type Transport,
  type TransportData,
  type TransportListQuery,
  type TransportStatus,
  type VehicleType,
} from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { branches, drivers, shipments, transportAssignments, transports, trips } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, isForeignKeyViolation, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';

const driver1 = alias(drivers, 'driver1');
const driver2 = alias(drivers, 'driver2');
const trailer = alias(transports, 'trailer');

function selectTransports(db: Db | Tx) {
  // What each transport carries now, in one grouped scan; weights are summed as numeric in SQL.
  const load = db
    .select({
      transportId: transportAssignments.transportId,
      n: sql<number>`count(*)::int`.as('loaded_count'),
      kg: sql<string>`coalesce(sum(${shipments.weightKg}), 0)`.as('loaded_kg'),
    })
    .from(transportAssignments)
    .innerJoin(shipments, eq(shipments.id, transportAssignments.shipmentId))
    .groupBy(transportAssignments.transportId)
    .as('load');
  return db
    .select({
      id: transports.id,
      platePrimary: transports.platePrimary,
      plateSecondary: transports.plateSecondary,
      make: transports.make,
      model: transports.model,
      capacityKg: transports.capacityKg,
      netWeightKg: transports.netWeightKg,
      status: transports.status,
      route: transports.route,
      originBranchId: transports.originBranchId,
      destinationBranchId: transports.destinationBranchId,
      driverId1: transports.driverId1,
      driverId2: transports.driverId2,
      driver1Name: driver1.fullName,
      driver2Name: driver2.fullName,
      vehicleType: transports.vehicleType,
      tucNumber: transports.tucNumber,
      configuration: transports.configuration,
      payloadKg: transports.payloadKg,
      axles: transports.axles,
      trailerId: transports.trailerId,
      trailerPlate: trailer.platePrimary,
      loadedCount: load.n,
      loadedKg: load.kg,
    })
    .from(transports)
    .leftJoin(driver1, eq(driver1.id, transports.driverId1))
    .leftJoin(driver2, eq(driver2.id, transports.driverId2))
    .leftJoin(trailer, eq(trailer.id, transports.trailerId))
    .leftJoin(load, eq(load.transportId, transports.id));
}

type TransportRow = Awaited<ReturnType<typeof selectTransports>>[number];

const numberOrNull = (v: string | null) => (v === null ? null : Number(v));

/** Spec section 3 shape (snake_case on the wire), numbers as numbers, drivers as {id, full_name}. */
export function toTransportDto(row: TransportRow): Transport {
  return {
    id: row.id,
    plate_primary: row.platePrimary,
    plate_secondary: row.plateSecondary,
    make: row.make,
    model: row.model,
    capacity_kg: numberOrNull(row.capacityKg),
    net_weight_kg: numberOrNull(row.netWeightKg),
    status: row.status as TransportStatus,
    route: row.route,
    origin_branch_id: row.originBranchId,
    destination_branch_id: row.destinationBranchId,
    driver_id_1: row.driverId1,
    driver_id_2: row.driverId2,
    driver1: row.driverId1 !== null && row.driver1Name !== null ? { id: row.driverId1, full_name: row.driver1Name } : null,
    driver2: row.driverId2 !== null && row.driver2Name !== null ? { id: row.driverId2, full_name: row.driver2Name } : null,
    vehicle_type: row.vehicleType as VehicleType,
    tuc_number: row.tucNumber,
    configuration: row.configuration,
    payload_kg: numberOrNull(row.payloadKg),
    axles: row.axles,
    trailer_id: row.trailerId,
    trailer_plate: row.trailerPlate,
    loaded_count: row.loadedCount ?? 0,
    loaded_weight_kg: Number(row.loadedKg ?? 0),
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listTransports(ctx: ServiceContext, query: TransportListQuery) {
  const where: SQL[] = [];
  if (query.status) where.push(eq(transports.status, query.status));
  if (query.route) where.push(ilike(transports.route, `%${escapeLike(query.route)}%`));
  const condition = where.length ? and(...where) : undefined;
  const [rows, [totalRow]] = await Promise.all([
    selectTransports(ctx.db)
      .where(condition)
      .orderBy(asc(transports.platePrimary))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    ctx.db.select({ total: count() }).from(transports).where(condition),
  ]);
  return { items: rows.map(toTransportDto), total: totalRow?.total ?? 0, page: query.page, pageSize: query.limit };
}

export async function findTransport(db: Db | Tx, id: number): Promise<Transport> {
  const [row] = await selectTransports(db).where(eq(transports.id, id));
  if (!row) throw notFound(FLEET_MESSAGES.transportNotFound);
  return toTransportDto(row);
}

/** Locks the transport row: loading, unloading and deleting one transport never interleave. */
export async function lockTransport(tx: Tx, id: number) {
  const [row] = await tx
    .select({
      id: transports.id,
      plate: transports.platePrimary,
      capacityKg: transports.capacityKg,
      status: transports.status,
      originBranchId: transports.originBranchId,
      destinationBranchId: transports.destinationBranchId,
    })
    .from(transports)
    .where(eq(transports.id, id))
    .for('update');
  if (!row) throw notFound(FLEET_MESSAGES.transportNotFound);
  return row;
}

/** The trip a transport is on now (departed, not arrived), or undefined. */
export async function openTripOf(db: Db | Tx, transportId: number) {
  const [trip] = await db
    .select({ id: trips.id, destinationBranchId: trips.destinationBranchId })
    .from(trips)
    .where(and(eq(trips.transportId, transportId), isNull(trips.arrivedAt)));
  return trip;
}

/** A departed transport keeps its load as it left: nothing goes on or off until it arrives. */
export async function refuseIfDeparted(db: Db | Tx, transport: { id: number; plate: string }) {
  if (await openTripOf(db, transport.id)) throw conflict(TRIP_MESSAGES.departedNoLoad(transport.plate), undefined, 'TRANSPORT_DEPARTED');
}

/**
 * A truck in the shop takes no parcels (the assign dialog says so too): they would wait on it
 * unseen. Taking parcels off it stays allowed, since that is what a breakdown calls for.
 */
export function refuseIfInMaintenance(transport: { status: string; plate: string }) {
  if (transport.status === 'mantenimiento') throw unprocessable(TRIP_MESSAGES.maintenanceNoLoad(transport.plate), undefined, 'MAINTENANCE');
}

/** A renamed branch renames the routes of the transports that run from or to it (same transaction). */
export async function refreshRoutesOf(tx: Tx, branchId: number) {
  const origin = alias(branches, 'origin');
  const destination = alias(branches, 'destination');
  const rows = await tx
    .select({ id: transports.id, originName: origin.name, destinationName: destination.name })
    .from(transports)
    .innerJoin(origin, eq(origin.id, transports.originBranchId))
    .innerJoin(destination, eq(destination.id, transports.destinationBranchId))
    .where(or(eq(transports.originBranchId, branchId), eq(transports.destinationBranchId, branchId)));
  for (const row of rows) {
    await tx
      .update(transports)
      .set({ route: routeText(row.originName, row.destinationName) })
      .where(eq(transports.id, row.id));
  }
}

/**
 * Branches and drivers must exist (422 on the field that names them); the route text is derived
 * from the branch names whenever both are chosen, so the list never disagrees with the branches.
 */
async function resolveReferences(tx: Tx, data: TransportData, selfId: number | null) {
  const branchIds = [data.origin_branch_id, data.destination_branch_id].filter((v): v is number => v !== null);
  const found = branchIds.length
    ? await tx.select({ id: branches.id, name: branches.name }).from(branches).where(inArray(branches.id, branchIds))
    : [];
  const names = new Map(found.map((b) => [b.id, b.name]));
  for (const field of ['origin_branch_id', 'destination_branch_id'] as const) {
    const id = data[field];
    if (id !== null && !names.has(id)) throw unprocessable(FLEET_MESSAGES.branchNotFound, { [field]: FLEET_MESSAGES.branchNotFound });
  }
  const driverIds = [data.driver_id_1, data.driver_id_2].filter((v): v is number => v !== null);
  const foundDrivers = driverIds.length ? await tx.select({ id: drivers.id }).from(drivers).where(inArray(drivers.id, driverIds)) : [];
  const known = new Set(foundDrivers.map((d) => d.id));
  for (const field of ['driver_id_1', 'driver_id_2'] as const) {
    const id = data[field];
    if (id !== null && !known.has(id)) throw unprocessable(FLEET_MESSAGES.driverNotFound, { [field]: FLEET_MESSAGES.driverNotFound });
  }
  if (data.trailer_id !== null) {
    if (data.trailer_id === selfId) throw unprocessable(FLEET_MESSAGES.trailerSelf, { trailer_id: FLEET_MESSAGES.trailerSelf });
    const [found] = await tx.select({ vehicleType: transports.vehicleType }).from(transports).where(eq(transports.id, data.trailer_id));
    if (!found) throw unprocessable(FLEET_MESSAGES.trailerNotFound, { trailer_id: FLEET_MESSAGES.trailerNotFound });
    if (found.vehicleType !== 'semirremolque')
      throw unprocessable(FLEET_MESSAGES.trailerNotTrailer, { trailer_id: FLEET_MESSAGES.trailerNotTrailer });
  }
  const derived = routeText(
    data.origin_branch_id !== null ? names.get(data.origin_branch_id) : null,
    data.destination_branch_id !== null ? names.get(data.destination_branch_id) : null,
  );
  return {
    platePrimary: data.plate_primary,
    plateSecondary: data.plate_secondary,
    make: data.make,
    model: data.model,
    capacityKg: data.capacity_kg === null ? null : data.capacity_kg.toFixed(2),
    netWeightKg: data.net_weight_kg === null ? null : data.net_weight_kg.toFixed(2),
    status: data.status,
    originBranchId: data.origin_branch_id,
    destinationBranchId: data.destination_branch_id,
    route: derived ?? data.route,
    driverId1: data.driver_id_1,
    driverId2: data.driver_id_2,
    vehicleType: data.vehicle_type,
    tucNumber: data.tuc_number,
    configuration: data.configuration,
    payloadKg: data.payload_kg === null ? null : data.payload_kg.toFixed(2),
    axles: data.axles,
    trailerId: data.trailer_id,
  };
}

function duplicatePlate(err: unknown): never {
  if (isUniqueViolation(err)) {
    throw conflict(FLEET_MESSAGES.duplicatePlate, { plate_primary: FLEET_MESSAGES.duplicatePlate }, 'DUPLICATE');
  }
  // A branch or driver deleted between the check and the write.
  if (isForeignKeyViolation(err)) throw unprocessable(FLEET_MESSAGES.driverNotFound);
  throw err;
}

export function createTransport(ctx: ServiceContext, actor: SessionUser, data: TransportData) {
  return ctx.db
    .transaction(async (tx) => {
      const values = await resolveReferences(tx, data, null);
      const [created] = await tx.insert(transports).values(values).returning({ id: transports.id });
      const after = await findTransport(tx, created!.id);
      await audit(tx, { userId: actor.id, entity: 'transport', entityId: after.id, action: 'create', after });
      return after;
    })
    .catch(duplicatePlate);
}

export function updateTransport(ctx: ServiceContext, actor: SessionUser, id: number, data: TransportData) {
  return ctx.db
    .transaction(async (tx) => {
      await lockTransport(tx, id);
      const before = await findTransport(tx, id);
      const values = await resolveReferences(tx, data, id);
      await tx
        .update(transports)
        .set({ ...values, updatedAt: ctx.now() })
        .where(eq(transports.id, id));
      const after = await findTransport(tx, id);
      await audit(tx, { userId: actor.id, entity: 'transport', entityId: id, action: 'update', before, after });
      return after;
    })
    .catch(duplicatePlate);
}

/** Refused while it holds loaded shipments; the foreign key from the assignments is the backstop. */
export async function deleteTransport(ctx: ServiceContext, actor: SessionUser, id: number) {
  await ctx.db
    .transaction(async (tx) => {
      await lockTransport(tx, id);
      const before = await findTransport(tx, id);
      if (before.loaded_count > 0) throw conflict(FLEET_MESSAGES.transportHasLoad, undefined, 'HAS_LOAD');
      await tx.delete(transports).where(eq(transports.id, id));
      await audit(tx, { userId: actor.id, entity: 'transport', entityId: id, action: 'delete', before });
    })
    .catch((err: unknown) => {
      if (isForeignKeyViolation(err)) throw conflict(FLEET_MESSAGES.transportHasLoad, undefined, 'HAS_LOAD');
      throw err;
    });
}
