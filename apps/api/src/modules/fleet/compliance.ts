import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import {
  complianceRefusal,
  displayName,
  FLEET_DOCUMENT_MESSAGES,
  FLEET_MESSAGES,
  REQUIRED_DRIVER_DOCUMENTS,
  REQUIRED_VEHICLE_DOCUMENTS,
  type ComplianceOverride,
  type FleetDocumentType,
  type HeldDocument,
} from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { complianceOverrides, drivers, fleetDocuments, transports } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';

/**
 * The document gate (issue 36, DESIGN.md 5b): a vehicle whose required documents (SOAT, CITV) or
 * whose drivers' licence are expired or missing takes no load and does not depart, unless an
 * admin overrode the gate for its next departure.
 */

/**
 * The driver's licence as the driver's record has it (number and expiry in the Conductores form)
 * counts as a held licence, like an uploaded one: the gate never disagrees with the driver's card.
 */
const recordLicence = (d: { licenseNumber: string; licenseExpiresOn: string | null }): HeldDocument[] =>
  d.licenseExpiresOn === null ? [] : [{ type: 'licencia', number: d.licenseNumber, expiresOn: d.licenseExpiresOn }];

/** The first reason the transport may not load or depart today (vehicle first, then its drivers), or null. */
export async function complianceRefusalOf(db: Db | Tx, transportId: number, now: Date): Promise<string | null> {
  const [transport] = await db
    .select({ plate: transports.platePrimary, driverId1: transports.driverId1, driverId2: transports.driverId2 })
    .from(transports)
    .where(eq(transports.id, transportId));
  if (!transport) throw notFound(FLEET_MESSAGES.transportNotFound);
  const driverIds = [transport.driverId1, transport.driverId2].filter((v): v is number => v !== null);
  const [docs, crew] = await Promise.all([
    db
      .select({
        transportId: fleetDocuments.transportId,
        driverId: fleetDocuments.driverId,
        type: fleetDocuments.type,
        number: fleetDocuments.number,
        expiresOn: fleetDocuments.expiresOn,
      })
      .from(fleetDocuments)
      .where(
        driverIds.length
          ? or(eq(fleetDocuments.transportId, transportId), inArray(fleetDocuments.driverId, driverIds))
          : eq(fleetDocuments.transportId, transportId),
      ),
    driverIds.length
      ? db
          .select({ id: drivers.id, fullName: drivers.fullName, licenseNumber: drivers.licenseNumber, licenseExpiresOn: drivers.licenseExpiresOn })
          .from(drivers)
          .where(inArray(drivers.id, driverIds))
      : Promise.resolve([]),
  ]);
  const held = (d: (typeof docs)[number]): HeldDocument => ({ type: d.type as FleetDocumentType, number: d.number, expiresOn: d.expiresOn });
  const vehicle = complianceRefusal(docs.filter((d) => d.transportId === transportId).map(held), REQUIRED_VEHICLE_DOCUMENTS, transport.plate, now);
  if (vehicle) return vehicle;
  for (const id of driverIds) {
    const driver = crew.find((d) => d.id === id)!;
    const refusal = complianceRefusal(
      [...docs.filter((d) => d.driverId === id).map(held), ...recordLicence(driver)],
      REQUIRED_DRIVER_DOCUMENTS,
      driver.fullName,
      now,
    );
    if (refusal) return refusal;
  }
  return null;
}

const overrideColumns = {
  id: complianceOverrides.id,
  transportId: complianceOverrides.transportId,
  reason: complianceOverrides.reason,
  refusal: complianceOverrides.refusal,
  createdByName: complianceOverrides.createdByName,
  createdAt: complianceOverrides.createdAt,
  tripId: complianceOverrides.tripId,
};

type OverrideRow = { createdAt: Date } & Omit<ComplianceOverride, 'createdAt'>;
const toOverride = (row: OverrideRow): ComplianceOverride => ({ ...row, createdAt: row.createdAt.toISOString() });

/** The admin's override not yet used by a departure, if any. */
export async function pendingOverride(db: Db | Tx, transportId: number): Promise<ComplianceOverride | null> {
  const [row] = await db
    .select(overrideColumns)
    .from(complianceOverrides)
    .where(and(eq(complianceOverrides.transportId, transportId), isNull(complianceOverrides.tripId)));
  return row ? toOverride(row) : null;
}

/** Loading: refused (422 DOCUMENT_EXPIRED, naming the document and its date) unless an override is pending. */
export async function refuseIfNotCompliant(tx: Tx, transportId: number, now: Date): Promise<void> {
  const refusal = await complianceRefusalOf(tx, transportId, now);
  if (refusal && !(await pendingOverride(tx, transportId))) throw unprocessable(refusal, undefined, 'DOCUMENT_EXPIRED');
}

/**
 * Departure: a compliant transport just leaves (null); otherwise the pending override is spent on
 * this trip (the caller passes the trip id once it exists) or the departure is refused.
 */
export async function overrideForDeparture(tx: Tx, transportId: number, now: Date): Promise<ComplianceOverride | null> {
  const refusal = await complianceRefusalOf(tx, transportId, now);
  if (!refusal) return null;
  const override = await pendingOverride(tx, transportId);
  if (!override) throw unprocessable(refusal, undefined, 'DOCUMENT_EXPIRED');
  return override;
}

export async function spendOverride(tx: Tx, actor: SessionUser, override: ComplianceOverride, tripId: number): Promise<void> {
  await tx.update(complianceOverrides).set({ tripId }).where(eq(complianceOverrides.id, override.id));
  await audit(tx, {
    userId: actor.id,
    entity: 'compliance_override',
    entityId: override.id,
    action: 'use',
    before: override,
    after: { ...override, tripId },
  });
}

export async function transportCompliance(ctx: ServiceContext, transportId: number) {
  return { refusal: await complianceRefusalOf(ctx.db, transportId, ctx.now()), override: await pendingOverride(ctx.db, transportId) };
}

/** POST /transports/{id}/compliance-override (admin): one departure despite the refusal it records. */
export function createOverride(ctx: ServiceContext, actor: SessionUser, transportId: number, reason: string): Promise<ComplianceOverride> {
  return ctx.db
    .transaction(async (tx) => {
      // The transport row lock orders this against a departure spending an earlier override.
      const [transport] = await tx.select({ id: transports.id }).from(transports).where(eq(transports.id, transportId)).for('update');
      if (!transport) throw notFound(FLEET_MESSAGES.transportNotFound);
      const refusal = await complianceRefusalOf(tx, transportId, ctx.now());
      if (!refusal) throw unprocessable(FLEET_DOCUMENT_MESSAGES.overrideNotNeeded, undefined, 'OVERRIDE_NOT_NEEDED');
      if (await pendingOverride(tx, transportId)) throw conflict(FLEET_DOCUMENT_MESSAGES.overrideExists, undefined, 'OVERRIDE_EXISTS');
      const [row] = await tx
        .insert(complianceOverrides)
        .values({ transportId, reason, refusal, createdBy: actor.id, createdByName: displayName(actor), createdAt: ctx.now() })
        .returning(overrideColumns);
      const created = toOverride(row!);
      await audit(tx, { userId: actor.id, entity: 'compliance_override', entityId: created.id, action: 'create', after: created });
      return created;
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw conflict(FLEET_DOCUMENT_MESSAGES.overrideExists, undefined, 'OVERRIDE_EXISTS');
      throw err;
    });
}
