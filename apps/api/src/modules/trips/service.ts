import {
  arrivedEventName,
  canSee,
  canTransition,
  departedEventName,
  displayName,
  FLEET_MESSAGES,
  formatDocumentNumber,
  formatKg,
  missingOnUnloadNote,
  SHIPMENT_MESSAGES,
  TRIP_MESSAGES,
  wouldOverload,
  wrongDestination,
  type ScanAnswer,
  type ShipmentStatus,
  type Trip,
  type UnloadCheck,
} from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, forbidden, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { loadShipments, lockTransport, openTripOf, overrideForDeparture, spendOverride, transportLoad } from '../fleet/index.ts';
import { changeShipmentStatus, recordShipmentEvent } from '../shipments/index.ts';
import { findDocument, liveGuidesOf, syncDocument } from '../billing/index.ts';
import { guidesBeforeDeparture } from '../company/index.ts';
import {
  addExtraScan,
  branchName,
  closeTrip,
  findOnTrip,
  findTrip,
  insertIncident,
  insertTrip,
  loadedShipmentIds,
  lockCarried,
  lockLoad,
  markScanned,
  scanShipment,
  scanTransport,
  setTransportStatus,
  transportExists,
  transportPlate,
  tripIdsOf,
  unloadRows,
} from './repository.ts';

/** The trip as the screens show it, with its branch names and how many shipments it carried. */
export async function tripDto(db: Db | Tx, tripId: number): Promise<Trip> {
  const found = await findTrip(db, tripId);
  if (!found) throw notFound('Viaje no encontrado.');
  const { overrideReason, overrideRefusal, overrideByName, overrideAt, ...row } = found;
  return {
    ...row,
    complianceOverride:
      overrideReason !== null && overrideRefusal !== null && overrideByName !== null && overrideAt !== null
        ? { reason: overrideReason, refusal: overrideRefusal, byName: overrideByName, at: overrideAt.toISOString() }
        : null,
    weightKg: Number(row.weightKg),
    capacityKg: row.capacityKg === null ? null : Number(row.capacityKg),
    departedAt: row.departedAt.toISOString(),
    arrivedAt: row.arrivedAt?.toISOString() ?? null,
  };
}

/** GET /transports/{id}/trip: the open trip of a transport, or null when it is not on the road. */
export async function currentTrip(ctx: ServiceContext, transportId: number): Promise<Trip | null> {
  if (!(await transportExists(ctx.db, transportId))) throw notFound(FLEET_MESSAGES.transportNotFound);
  const open = await openTripOf(ctx.db, transportId);
  return open ? tripDto(ctx.db, open.id) : null;
}

/** The trips a transport made, newest first (the trip's page lists them for reprinting manifests). */
export async function transportTrips(ctx: ServiceContext, transportId: number): Promise<Trip[]> {
  const ids = await tripIdsOf(ctx.db, transportId, 20);
  return Promise.all(ids.map((id) => tripDto(ctx.db, id)));
}

/**
 * 'Registrar salida': every loaded shipment goes to 'En tránsito' with its history line, in one
 * transaction. The transport row lock serializes two departures of the same truck; the partial
 * unique index trips_open_uq is the last word if anything slips past it.
 */
export async function depart(ctx: ServiceContext, actor: SessionUser, transportId: number, confirmOverload: boolean): Promise<Trip> {
  const waitForGuides = await guidesBeforeDeparture(ctx.db);
  // Issue 36: the guides still pending are asked to SUNAT first, so pressing again is the retry.
  if (waitForGuides) await refreshPendingGuides(ctx, actor, transportId);
  return ctx.db
    .transaction(async (tx) => {
      const transport = await lockTransport(tx, transportId);
      if (transport.originBranchId === null || transport.destinationBranchId === null)
        throw unprocessable(TRIP_MESSAGES.noRoute, undefined, 'NO_ROUTE');
      if (actor.role !== 'admin' && actor.branchId !== transport.originBranchId) throw forbidden(TRIP_MESSAGES.originOnly);
      if (transport.status === 'mantenimiento') throw unprocessable(TRIP_MESSAGES.maintenance(transport.plate), undefined, 'MAINTENANCE');
      if (await openTripOf(tx, transportId)) throw conflict(TRIP_MESSAGES.alreadyDeparted(transport.plate), undefined, 'ALREADY_DEPARTED');

      const load = await lockLoad(tx, transportId);
      if (load.length === 0) throw unprocessable(TRIP_MESSAGES.emptyLoad, undefined, 'EMPTY_LOAD');
      const stuck = load.find((s) => !canTransition(s.status as ShipmentStatus, 'En tránsito', 'trip'));
      if (stuck) throw unprocessable(TRIP_MESSAGES.notCreated(stuck.code, stuck.status), undefined, 'NOT_DEPARTABLE');

      // Issue 36: an expired or missing required document stops the truck, unless an admin's
      // override is pending; this departure spends it.
      const override = await overrideForDeparture(tx, transportId, ctx.now());
      // Issue 36: with the company's 'guides before departure' on, a GRE-T of the load that SUNAT
      // has not accepted yet holds the truck (a rejected one no longer covers its shipments).
      if (waitForGuides) {
        const guides = await liveGuidesOf(
          tx,
          load.map((s) => s.id),
        );
        const pending = [
          ...new Set([...guides.values()].filter((g) => g.status === 'pendiente').map((g) => formatDocumentNumber(g.series, g.number))),
        ];
        if (pending.length) throw unprocessable(TRIP_MESSAGES.guidePending(pending), undefined, 'GUIDE_PENDING');
      }

      const hundredths = load.reduce((sum, s) => sum + Math.round(Number(s.weightKg) * 100), 0);
      const capacity = transport.capacityKg === null ? null : Number(transport.capacityKg);
      const overloaded = wouldOverload(hundredths / 100, 0, capacity);
      if (overloaded && !confirmOverload) {
        throw unprocessable(TRIP_MESSAGES.overloaded(formatKg(hundredths / 100), formatKg(capacity ?? 0)), undefined, 'OVERLOADED');
      }

      const now = ctx.now();
      const destination = await branchName(tx, transport.destinationBranchId);
      const ids = load.map((s) => s.id);
      const tripId = await insertTrip(
        tx,
        {
          transportId,
          plate: transport.plate,
          originBranchId: transport.originBranchId,
          destinationBranchId: transport.destinationBranchId,
          weightKg: (hundredths / 100).toFixed(2),
          billableWeightKg: load.reduce((sum, s) => sum + s.billableWeightKg, 0),
          capacityKg: transport.capacityKg,
          overloaded,
          departedAt: now,
          departedBy: actor.id,
          departedByName: displayName(actor),
        },
        ids,
      );
      if (override) await spendOverride(tx, actor, override, tripId);
      for (const s of load) {
        await changeShipmentStatus(tx, actor, now, s, {
          to: 'En tránsito',
          via: 'trip',
          event: { name: departedEventName(transport.plate, destination) },
          audit: { action: 'trip.depart', after: { tripId: tripId, plate: transport.plate } },
        });
      }
      await setTransportStatus(tx, transportId, 'en_ruta', now);
      await audit(tx, {
        userId: actor.id,
        entity: 'trip',
        entityId: tripId,
        action: 'depart',
        before: { transportStatus: transport.status },
        after: { transportId, plate: transport.plate, shipmentIds: ids, overloaded, complianceOverrideId: override?.id ?? null },
      });
      return tripDto(tx, tripId);
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw conflict(TRIP_MESSAGES.alreadyDeparted(''), undefined, 'ALREADY_DEPARTED');
      throw err;
    });
}

/** Asks the provider about the load's pending carrier guides (SUNAT may have accepted them meanwhile). */
async function refreshPendingGuides(ctx: ServiceContext, actor: SessionUser, transportId: number) {
  const load = await loadedShipmentIds(ctx.db, transportId);
  const guides = await liveGuidesOf(ctx.db, load);
  const pendingIds = new Set([...guides.values()].filter((g) => g.status === 'pendiente').map((g) => g.id));
  for (const id of pendingIds) {
    const doc = await findDocument(ctx.db, id);
    if (doc) await syncDocument(ctx, actor, doc);
  }
}

async function lockOpenTrip(tx: Tx, actor: SessionUser, transportId: number) {
  const transport = await lockTransport(tx, transportId);
  const open = await openTripOf(tx, transportId);
  if (!open) throw unprocessable(TRIP_MESSAGES.notDeparted(transport.plate), undefined, 'NOT_DEPARTED');
  if (actor.role !== 'admin' && actor.branchId !== open.destinationBranchId) throw forbidden(TRIP_MESSAGES.destinationOnly);
  return { transport, trip: open };
}

/**
 * 'Registrar llegada': closes the open trip. With `receive: 'all'` everything on it came off; with
 * 'scanned' the unload check decides: scanned shipments arrive, the missing ones stay 'En tránsito'
 * with an open incident 'faltante en desembarque'. Either way the truck is empty and available again.
 */
export async function arrive(ctx: ServiceContext, actor: SessionUser, transportId: number, receive: 'all' | 'scanned'): Promise<Trip> {
  return ctx.db.transaction(async (tx) => {
    const { transport, trip } = await lockOpenTrip(tx, actor, transportId);
    const carried = await lockCarried(tx, trip.id);
    const now = ctx.now();
    const destination = await branchName(tx, trip.destinationBranchId);
    const arrived = receive === 'all' ? carried : carried.filter((s) => s.scannedAt !== null);
    const missing = receive === 'all' ? [] : carried.filter((s) => s.scannedAt === null);
    for (const s of arrived) {
      // A shipment delivered or returned on the way keeps its status; only what is still travelling arrives.
      if (!canTransition(s.status as ShipmentStatus, 'En agencia', 'trip')) continue;
      await changeShipmentStatus(tx, actor, now, s, {
        to: 'En agencia',
        via: 'trip',
        event: { name: arrivedEventName(destination) },
        audit: { action: 'trip.arrive', after: { tripId: trip.id } },
      });
    }
    for (const s of missing) {
      const incidentId = await insertIncident(tx, {
        shipmentId: s.id,
        reason: 'faltante en desembarque',
        note: missingOnUnloadNote(transport.plate),
        tripId: trip.id,
        createdAt: now,
        createdBy: actor.id,
        createdByName: displayName(actor),
      });
      await recordShipmentEvent(
        tx,
        actor,
        now,
        s.id,
        { kind: 'incident', name: `Incidencia: faltante en desembarque (${transport.plate})` },
        { action: 'incident.create', after: { incidentId, reason: 'faltante en desembarque', tripId: trip.id } },
      );
    }
    await closeTrip(tx, trip.id, transportId, { at: now, by: actor.id, byName: displayName(actor) });
    await setTransportStatus(tx, transportId, 'disponible', now);
    await audit(tx, {
      userId: actor.id,
      entity: 'trip',
      entityId: trip.id,
      action: 'arrive',
      after: { receive, arrived: arrived.map((s) => s.id), missing: missing.map((s) => s.id) },
    });
    return tripDto(tx, trip.id);
  });
}

/**
 * A scanner's code typed into the load box: loads that one shipment, or says why not. A shipment
 * for another destination than the transport's is refused (loading by hand stays possible).
 */
export async function scanToLoad(
  ctx: ServiceContext,
  actor: SessionUser,
  transportId: number,
  code: string,
  confirmOverload = false,
): Promise<ScanAnswer> {
  const transport = await scanTransport(ctx.db, transportId);
  if (!transport) throw notFound(FLEET_MESSAGES.transportNotFound);
  const shipment = await scanShipment(ctx.db, code);
  if (!shipment) throw notFound(TRIP_MESSAGES.unknownCode(code));
  if (!canSee(actor, shipment)) throw forbidden(SHIPMENT_MESSAGES.notVisible);
  if (shipment.onTransport === transportId) {
    const load = await transportLoad(ctx.db, transportId, actor);
    return {
      outcome: 'already',
      code,
      message: `${code} ya está cargado en ${transport.plate}.`,
      overCapacity: wouldOverload(load.totalWeightKg, 0, load.capacityKg),
    };
  }
  if (
    transport.destinationBranchId !== null &&
    transport.destinationName !== null &&
    shipment.destinationBranchId !== transport.destinationBranchId
  ) {
    const message = wrongDestination(code, shipment.destinationName, transport.destinationName);
    throw unprocessable(message, { code: message }, 'WRONG_DESTINATION');
  }
  // A shipment that cannot go on at all is refused by loadShipments, not asked about its weight.
  if (!confirmOverload && shipment.status === 'Creado') {
    // Warned before loading, as on the list: the scan that would go beyond the capacity loads
    // nothing until it is confirmed. A warning, not a limit: departure asks again.
    const current = await transportLoad(ctx.db, transportId, actor);
    const weightKg = Number(shipment.weightKg);
    if (wouldOverload(current.totalWeightKg, weightKg, current.capacityKg)) {
      const after = (Math.round(current.totalWeightKg * 100) + Math.round(weightKg * 100)) / 100;
      return {
        outcome: 'overload',
        code,
        message: TRIP_MESSAGES.scanOverload(code, formatKg(after), formatKg(current.capacityKg ?? 0)),
        overCapacity: true,
      };
    }
  }
  const load = await loadShipments(ctx, actor, transportId, [shipment.id]);
  return {
    outcome: 'loaded',
    code,
    message: `${code} cargado en ${transport.plate}.`,
    overCapacity: wouldOverload(load.totalWeightKg, 0, load.capacityKg),
  };
}

/** Expected, scanned, missing and extra of the open trip's unload check (desembarque). */
export async function unloadCheck(db: Db | Tx, actor: SessionUser, transportId: number): Promise<UnloadCheck> {
  const plate = await transportPlate(db, transportId);
  if (plate === null) throw notFound(FLEET_MESSAGES.transportNotFound);
  const open = await openTripOf(db, transportId);
  if (!open) throw unprocessable(TRIP_MESSAGES.notDeparted(plate), undefined, 'NOT_DEPARTED');
  if (actor.role !== 'admin' && actor.branchId !== open.destinationBranchId) throw forbidden(TRIP_MESSAGES.destinationOnly);
  const { carried: rows, extras } = await unloadRows(db, open.id);
  const row = (r: { shipmentId: number | null; code: string; recipientName: string | null }) => ({
    shipmentId: r.shipmentId,
    code: r.code,
    recipientName: r.recipientName,
  });
  return {
    trip: await tripDto(db, open.id),
    expected: rows.map(row),
    scanned: rows.filter((r) => r.scannedAt !== null).map(row),
    missing: rows.filter((r) => r.scannedAt === null).map(row),
    extra: extras.map(row),
  };
}

/** One code scanned off the truck: marks it as come off, or records it as an extra. */
export async function unloadScan(ctx: ServiceContext, actor: SessionUser, transportId: number, code: string) {
  return ctx.db.transaction(async (tx) => {
    const { trip } = await lockOpenTrip(tx, actor, transportId);
    const onTrip = await findOnTrip(tx, trip.id, code);
    const now = ctx.now();
    let outcome: 'scanned' | 'already' | 'extra';
    let message: string;
    if (onTrip && onTrip.scannedAt !== null) {
      outcome = 'already';
      message = `${code} ya fue escaneado.`;
    } else if (onTrip) {
      await markScanned(tx, trip.id, onTrip.shipmentId, now);
      await audit(tx, { userId: actor.id, entity: 'trip', entityId: trip.id, action: 'unload.scan', after: { shipmentId: onTrip.shipmentId } });
      outcome = 'scanned';
      message = `${code} bajó del transporte.`;
    } else {
      await addExtraScan(tx, trip.id, code, now);
      await audit(tx, { userId: actor.id, entity: 'trip', entityId: trip.id, action: 'unload.extra', after: { code } });
      outcome = 'extra';
      message = TRIP_MESSAGES.notOnTrip(code);
    }
    return { outcome, code, message, check: await unloadCheck(tx, actor, transportId) };
  });
}
