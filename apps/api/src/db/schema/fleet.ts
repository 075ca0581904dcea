import { sql } from 'drizzle-orm';
import { date, check, index, integer, numeric, pgTable, serial, smallint, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { branches } from './branches.js';
import { bytea, createdAt, updatedAt } from './columns.js';
import { shipments } from './shipments.js';
import { trips } from './trips.js';

export const drivers = pgTable(
  'drivers',
  {
    id: serial('id').primaryKey(),
    fullName: text('full_name').notNull(),
    dni: text('dni').notNull(),
    licenseNumber: text('license_number').notNull(),
    // Master data for the GRE transportista (issue 36); the licence document with its file and the
    // expiry the gate reads is a fleet_documents row of type 'licencia'.
    licenseClass: text('license_class'),
    licenseExpiresOn: date('license_expires_on', { mode: 'string' }),
    phone: text('phone'),
    note: text('note'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('drivers_dni_uq').on(t.dni)],
);

export const transports = pgTable(
  'transports',
  {
    id: serial('id').primaryKey(),
    // Stored normalised (uppercase, ABC-123) by the domain schema, so the unique index is the plate rule.
    platePrimary: text('plate_primary').notNull(),
    plateSecondary: text('plate_secondary'),
    make: text('make'),
    model: text('model'),
    capacityKg: numeric('capacity_kg', { precision: 12, scale: 2 }),
    netWeightKg: numeric('net_weight_kg', { precision: 12, scale: 2 }),
    status: text('status').notNull().default('disponible'),
    originBranchId: integer('origin_branch_id').references(() => branches.id, { onDelete: 'restrict' }),
    destinationBranchId: integer('destination_branch_id').references(() => branches.id, { onDelete: 'restrict' }),
    route: text('route'),
    driverId1: integer('driver_id_1').references(() => drivers.id, { onDelete: 'restrict' }),
    driverId2: integer('driver_id_2').references(() => drivers.id, { onDelete: 'restrict' }),
    // Issue 36 master data: TUC / Certificado de Habilitación Vehicular, MTC configuration (T3S3),
    // payload and axles, and the semirremolque it pulls (another transport).
    vehicleType: text('vehicle_type').notNull().default('camion'),
    tucNumber: text('tuc_number'),
    configuration: text('configuration'),
    payloadKg: numeric('payload_kg', { precision: 12, scale: 2 }),
    axles: smallint('axles'),
    trailerId: integer('trailer_id').references((): AnyPgColumn => transports.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('transports_plate_primary_uq').on(t.platePrimary),
    check('transports_vehicle_type_ck', sql`${t.vehicleType} in ('camion', 'tracto', 'semirremolque')`),
    check('transports_payload_ck', sql`${t.payloadKg} is null or ${t.payloadKg} >= 0`),
    check('transports_axles_ck', sql`${t.axles} is null or ${t.axles} between 1 and 20`),
    check('transports_trailer_ck', sql`${t.trailerId} is null or ${t.trailerId} <> ${t.id}`),
    check('transports_status_ck', sql`${t.status} in ('disponible', 'en_ruta', 'mantenimiento')`),
    check('transports_capacity_ck', sql`${t.capacityKg} is null or ${t.capacityKg} >= 0`),
    check('transports_net_weight_ck', sql`${t.netWeightKg} is null or ${t.netWeightKg} >= 0`),
    index('transports_driver_1_idx').on(t.driverId1),
    index('transports_driver_2_idx').on(t.driverId2),
  ],
);

/**
 * Vehicle and driver documents with expiry (issue 36, DESIGN.md 5b): exactly one holder, a
 * transport or a driver. The optional file is a re-encoded photo or a checked PDF, kept in the
 * database like the delivery proofs and read through the API only.
 */
export const fleetDocuments = pgTable(
  'fleet_documents',
  {
    id: serial('id').primaryKey(),
    transportId: integer('transport_id').references(() => transports.id, { onDelete: 'cascade' }),
    driverId: integer('driver_id').references(() => drivers.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    number: text('number'),
    issuedOn: date('issued_on', { mode: 'string' }),
    expiresOn: date('expires_on', { mode: 'string' }).notNull(),
    file: bytea('file'),
    fileType: text('file_type'),
    createdBy: integer('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    check('fleet_documents_holder_ck', sql`(${t.transportId} is null) <> (${t.driverId} is null)`),
    check(
      'fleet_documents_type_ck',
      sql`(${t.transportId} is not null and ${t.type} in ('soat', 'citv', 'tuc', 'seguro')) or (${t.driverId} is not null and ${t.type} in ('licencia', 'examen_medico'))`,
    ),
    check('fleet_documents_dates_ck', sql`${t.issuedOn} is null or ${t.issuedOn} <= ${t.expiresOn}`),
    check('fleet_documents_file_type_ck', sql`${t.fileType} is null or ${t.fileType} in ('image/jpeg', 'image/png', 'application/pdf')`),
    index('fleet_documents_transport_idx').on(t.transportId),
    index('fleet_documents_driver_idx').on(t.driverId),
    index('fleet_documents_expires_idx').on(t.expiresOn),
  ],
);

/**
 * An admin's override of the compliance gate (issue 36): lets one transport load and make one
 * departure despite an expired or missing document. The departure that uses it sets `trip_id`, so
 * it is spent; the partial unique index keeps at most one unspent override per transport.
 */
export const complianceOverrides = pgTable(
  'compliance_overrides',
  {
    id: serial('id').primaryKey(),
    transportId: integer('transport_id')
      .notNull()
      .references(() => transports.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    /** The refusal the admin overrode, as it read then (printed on the manifest). */
    refusal: text('refusal').notNull(),
    createdBy: integer('created_by').notNull(),
    createdByName: text('created_by_name').notNull(),
    createdAt: createdAt(),
    tripId: integer('trip_id').references((): AnyPgColumn => trips.id, { onDelete: 'restrict' }),
  },
  (t) => [
    uniqueIndex('compliance_overrides_open_uq')
      .on(t.transportId)
      .where(sql`${t.tripId} is null`),
    uniqueIndex('compliance_overrides_trip_uq').on(t.tripId),
  ],
);

/**
 * The expiry alerts already sent (issue 36): one row per document, expiry and window (30, 15, 7
 * days). The unique key is what makes each window's alert go out once, whichever process or tick
 * finds it due; a renewed document (a new expiry) has its own windows. `document_id` is null for
 * the licence kept on the driver's record.
 */
export const fleetExpiryAlerts = pgTable(
  'fleet_expiry_alerts',
  {
    id: serial('id').primaryKey(),
    alertKey: text('alert_key').notNull(),
    documentId: integer('document_id').references(() => fleetDocuments.id, { onDelete: 'cascade' }),
    transportId: integer('transport_id').references(() => transports.id, { onDelete: 'cascade' }),
    driverId: integer('driver_id').references(() => drivers.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    expiresOn: date('expires_on', { mode: 'string' }).notNull(),
    alertWindow: smallint('alert_window').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('fleet_expiry_alerts_key_uq').on(t.alertKey),
    check('fleet_expiry_alerts_window_ck', sql`${t.alertWindow} in (30, 15, 7)`),
    check('fleet_expiry_alerts_holder_ck', sql`(${t.transportId} is null) <> (${t.driverId} is null)`),
  ],
);

/** Shipments loaded on a transport now; unloading deletes the row (the shipment history keeps the record). */
export const transportAssignments = pgTable(
  'transport_assignments',
  {
    id: serial('id').primaryKey(),
    transportId: integer('transport_id')
      .notNull()
      .references(() => transports.id, { onDelete: 'restrict' }),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'restrict' }),
    loadedAt: timestamp('loaded_at', { withTimezone: true }).notNull().defaultNow(),
    // No foreign key, as on shipments.created_by: the record outlives staff accounts.
    loadedBy: integer('loaded_by'),
  },
  (t) => [
    // A shipment is on at most one transport: the database decides, not a prior read.
    uniqueIndex('transport_assignments_shipment_uq').on(t.shipmentId),
    index('transport_assignments_transport_idx').on(t.transportId, t.loadedAt),
  ],
);
