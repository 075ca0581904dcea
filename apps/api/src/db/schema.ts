import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Raw bytes: PGlite reads them back as a Uint8Array, node-postgres as a Buffer. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** A text-search vector; the API only writes it through the database's own trigger. */
const tsvector = customType<{ data: string; driverData: string }>({ dataType: () => 'tsvector' });

export const branches = pgTable(
  'branches',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    city: text('city'),
    address: text('address'),
    /** INEI ubigeo of the branch's district (6 digits): a dispatch guide's origin or destination. */
    ubigeo: text('ubigeo'),
    /** SUNAT annex (código de establecimiento, 4 digits; '0000' the fiscal address). */
    establishmentCode: text('establishment_code').notNull().default('0000'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('branches_name_city_uq').on(sql`lower(${t.name})`, sql`lower(coalesce(${t.city}, ''))`),
    check('branches_ubigeo_ck', sql`${t.ubigeo} is null or ${t.ubigeo} ~ '^[0-9]{6}$'`),
    check('branches_establishment_code_ck', sql`${t.establishmentCode} ~ '^[0-9]{4}$'`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    email: text('email'),
    role: text('role').notNull(),
    branchId: integer('branch_id').references(() => branches.id, { onDelete: 'restrict' }),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    // Bumped on password change, reset and delete: tokens carrying an older version stop working.
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_username_uq').on(t.username),
    index('users_branch_idx').on(t.branchId),
    check('users_role_ck', sql`${t.role} in ('admin', 'agent', 'courier')`),
  ],
);

/** Who changed what, written in the same transaction as the change. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id'),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    action: text('action').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [index('audit_entity_idx').on(t.entity, t.entityId)],
);

/** Failed-login counters per username and per client address; in the DB so every API process shares them. */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  /** The last attempt counted: repeated failures wait longer after it before the next (issue 31, F9). */
  lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
});

/** Key/value settings that must survive restarts (the demo-mode signing secret). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name'),
    // SUNAT catalogue 06: 1 DNI, 4 carné de extranjería, 6 RUC, 7 pasaporte.
    docType: smallint('doc_type').notNull(),
    docNumber: text('doc_number').notNull(),
    address: text('address'),
    ubigeo: text('ubigeo'),
    phone: text('phone'),
    email: text('email'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('customers_doc_uq').on(t.docType, t.docNumber),
    check('customers_doc_type_ck', sql`${t.docType} in (1, 4, 6, 7)`),
    // One trigram index over everything the directory searches, so `q` never scans the table.
    index('customers_search_trgm').using('gin', sql`(${customerSearchText(t)}) gin_trgm_ops`),
  ],
);

/**
 * What the directory search matches, and exactly the expression of `customers_search_trgm`, so the
 * planner answers `LIKE '%…%'` from the index. The phone also appears without separators: staff
 * type '987654321' for a number saved as '987 654 321'.
 */
export function customerSearchText(t: {
  firstName: AnyPgColumn;
  lastName: AnyPgColumn;
  docNumber: AnyPgColumn;
  phone: AnyPgColumn;
  email: AnyPgColumn;
}): SQL {
  return sql`lower(${t.firstName} || ' ' || coalesce(${t.lastName}, '') || ' ' || ${t.docNumber} || ' ' || coalesce(${t.phone}, '') || ' ' || regexp_replace(coalesce(${t.phone}, ''), '[^0-9]', '', 'g') || ' ' || coalesce(${t.email}, ''))`;
}

/** Answers of the external DNI/RUC lookup, kept 30 days. */
export const lookupCache = pgTable(
  'lookup_cache',
  {
    kind: text('kind').notNull(),
    number: text('number').notNull(),
    payload: jsonb('payload').notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.number] })],
);

export const weightFactorTables = pgTable(
  'weight_factor_tables',
  {
    id: serial('id').primaryKey(),
    originBranchId: integer('origin_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    destinationBranchId: integer('destination_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    productType: text('product_type').notNull(),
    name: text('name').notNull(),
    currency: text('currency').notNull().default('PEN'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('weight_factor_tables_route_uq')
      .on(t.originBranchId, t.destinationBranchId, t.productType)
      .where(sql`${t.active}`),
    check('weight_factor_tables_class_ck', sql`${t.productType} in ('liviano', 'medio', 'alto')`),
    check('weight_factor_tables_route_ck', sql`${t.originBranchId} <> ${t.destinationBranchId}`),
  ],
);

export const weightFactorTiers = pgTable(
  'weight_factor_tiers',
  {
    id: serial('id').primaryKey(),
    tableId: integer('table_id')
      .notNull()
      .references(() => weightFactorTables.id, { onDelete: 'cascade' }),
    fromKg: numeric('from_kg', { precision: 10, scale: 2 }).notNull(),
    toKg: numeric('to_kg', { precision: 10, scale: 2 }).notNull(),
    factorPerKg: numeric('factor_per_kg', { precision: 12, scale: 4 }).notNull(),
    sortOrder: integer('sort_order').notNull(),
  },
  (t) => [index('weight_factor_tiers_table_idx').on(t.tableId, t.fromKg)],
);

/** Shipment codes `TMT-000001…`: a sequence, so codes are unique and never reused under concurrency. */
export const shipmentCodeSeq = pgSequence('shipment_code_seq', { startWith: 1 });

export const shipments = pgTable(
  'shipments',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    status: text('status').notNull().default('Creado'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // No foreign key on purpose: staff can be deleted, their shipments and history must stay;
    // the name is kept as it was when they acted (like audit_log.user_id).
    createdBy: integer('created_by'),
    createdByName: text('created_by_name'),
    originBranchId: integer('origin_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    destinationBranchId: integer('destination_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    senderCustomerId: integer('sender_customer_id').references(() => customers.id, { onDelete: 'restrict' }),
    senderName: text('sender_name').notNull(),
    recipientFirstName: text('recipient_first_name').notNull(),
    recipientLastName: text('recipient_last_name').notNull(),
    recipientName: text('recipient_name').notNull(),
    recipientDoc: text('recipient_doc').notNull(),
    productType: text('product_type').notNull(),
    weightKg: numeric('weight_kg', { precision: 10, scale: 2 }).notNull(),
    billableWeightKg: integer('billable_weight_kg').notNull(),
    description: text('description'),
    quotedPrice: numeric('quoted_price', { precision: 12, scale: 2 }).notNull(),
    quotedCurrency: text('quoted_currency').notNull().default('PEN'),
    quotedFactorPerKg: numeric('quoted_factor_per_kg', { precision: 12, scale: 4 }).notNull(),
    usingReverse: boolean('using_reverse').notNull().default(false),
    multiLineDetail: jsonb('multi_line_detail').notNull(),
    secretCodeHash: text('secret_code_hash').notNull(),
    /** Written by the delivery use case (issue #6): receiverName, receiverDoc, deliveredByName, deliveredAt, notes. */
    deliveredInfo: jsonb('delivered_info'),
    /** The return leg (DESIGN.md 5a) points at the shipment it brings back to its origin. */
    returnOfShipmentId: integer('return_of_shipment_id').references((): AnyPgColumn => shipments.id, { onDelete: 'restrict' }),
    /** Where the recipient hears about the shipment (issue 18); both optional. */
    recipientPhone: text('recipient_phone'),
    recipientEmail: text('recipient_email'),
    /**
     * The names' search tokens (migration 0016: filled by a trigger from recipient_name and
     * sender_name, see shipment_search_words()): each accent-folded word whole, and each of its
     * beginnings as its own token ('p:qui', 'p:quis', …), sender tokens marked 's:'. A word being
     * typed is then one exact token too, so the index never scans a range of words, the planner's
     * statistics know how common every token is, and a stored value makes a row cheap to test
     * while walking the newest rows.
     */
    searchWords: tsvector('search_words'),
  },
  (t) => [
    uniqueIndex('shipments_code_uq').on(t.code),
    check('shipments_status_ck', sql`${t.status} in ('Creado', 'En tránsito', 'En agencia', 'Entregado', 'Anulado', 'Devuelto')`),
    check('shipments_product_type_ck', sql`${t.productType} in ('liviano', 'medio', 'alto')`),
    // Scanned backwards for newest first (id breaks ties), so ORDER BY … DESC LIMIT walks the index.
    index('shipments_created_idx').on(t.createdAt, t.id),
    index('shipments_origin_created_idx').on(t.originBranchId, t.createdAt),
    index('shipments_destination_created_idx').on(t.destinationBranchId, t.createdAt),
    index('shipments_status_created_idx').on(t.status, t.createdAt),
    // text_pattern_ops serves both `=` and the prefix LIKE of a document being typed.
    index('shipments_recipient_doc_idx').on(t.recipientDoc.op('text_pattern_ops')),
    index('shipments_sender_customer_idx').on(t.senderCustomerId),
    // Whole words and word beginnings of both names, for the text search (issue 19).
    index('shipments_search_words').using('gin', t.searchWords),
    // A shipment's return leg, looked up by every detail view (without it, a scan of every
    // shipment); unique, because a shipment goes back to its origin once.
    uniqueIndex('shipments_return_of_uq')
      .on(t.returnOfShipmentId)
      .where(sql`${t.returnOfShipmentId} is not null`),
  ],
);

/** The history of a shipment: creation, status changes, manual events, edits, cancellation. */
export const shipmentEvents = pgTable(
  'shipment_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    // 'status' | 'event' | 'cancel' | 'edit' | 'secret' | 'description'; later issues add their own kinds.
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    note: text('note'),
    statusFrom: text('status_from'),
    statusTo: text('status_to'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    // No foreign key, as on shipments.created_by: history outlives staff accounts.
    userId: integer('user_id'),
    userName: text('user_name'),
  },
  (t) => [index('shipment_events_shipment_idx').on(t.shipmentId, t.at)],
);

/**
 * Wrong secret codes per shipment (issue #6), in the DB so the lock holds across restarts and API
 * processes. A row exists only while there are recent failures; a delivery removes it.
 */
export const deliveryAttempts = pgTable('delivery_attempts', {
  shipmentId: integer('shipment_id')
    .primaryKey()
    .references(() => shipments.id, { onDelete: 'cascade' }),
  failures: integer('failures').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

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

/**
 * A transport's load on the road (DESIGN.md 5a): opened by 'Registrar salida', closed by 'Registrar
 * llegada'. At most one open trip per transport, decided by the partial unique index, so two
 * concurrent departures of one truck give one trip. Plate, route and weights are kept as they were.
 */
export const trips = pgTable(
  'trips',
  {
    id: serial('id').primaryKey(),
    transportId: integer('transport_id')
      .notNull()
      .references(() => transports.id, { onDelete: 'restrict' }),
    plate: text('plate').notNull(),
    originBranchId: integer('origin_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    destinationBranchId: integer('destination_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    weightKg: numeric('weight_kg', { precision: 12, scale: 2 }).notNull(),
    billableWeightKg: integer('billable_weight_kg').notNull(),
    capacityKg: numeric('capacity_kg', { precision: 12, scale: 2 }),
    overloaded: boolean('overloaded').notNull().default(false),
    departedAt: timestamp('departed_at', { withTimezone: true }).notNull(),
    departedBy: integer('departed_by'),
    departedByName: text('departed_by_name'),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
    arrivedBy: integer('arrived_by'),
    arrivedByName: text('arrived_by_name'),
  },
  (t) => [
    uniqueIndex('trips_open_uq')
      .on(t.transportId)
      .where(sql`${t.arrivedAt} is null`),
    index('trips_transport_idx').on(t.transportId, t.departedAt),
  ],
);

/** The shipments a trip carried; `scanned_at` is the unload check (desembarque) at the destination. */
export const tripShipments = pgTable(
  'trip_shipments',
  {
    tripId: integer('trip_id')
      .notNull()
      .references(() => trips.id, { onDelete: 'restrict' }),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'restrict' }),
    scannedAt: timestamp('scanned_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.tripId, t.shipmentId] }), index('trip_shipments_shipment_idx').on(t.shipmentId)],
);

/** Codes scanned off a truck that were not on its trip (the unload check's extras). */
export const tripExtraScans = pgTable(
  'trip_extra_scans',
  {
    tripId: integer('trip_id')
      .notNull()
      .references(() => trips.id, { onDelete: 'restrict' }),
    code: text('code').notNull(),
    shipmentId: integer('shipment_id').references(() => shipments.id, { onDelete: 'restrict' }),
    scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tripId, t.code] })],
);

/** Something went wrong with a shipment (issue 17): open until someone closes it. */
export const incidents = pgTable(
  'incidents',
  {
    id: serial('id').primaryKey(),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'restrict' }),
    reason: text('reason').notNull(),
    note: text('note'),
    photo: text('photo'),
    tripId: integer('trip_id').references(() => trips.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    createdBy: integer('created_by'),
    createdByName: text('created_by_name'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: integer('closed_by'),
    closedByName: text('closed_by_name'),
  },
  (t) => [
    check(
      'incidents_reason_ck',
      sql`${t.reason} in ('dañado', 'extraviado', 'faltante en desembarque', 'dirección errada', 'destinatario ausente', 'rechazado', 'otro')`,
    ),
    index('incidents_shipment_idx').on(t.shipmentId),
    index('incidents_open_idx')
      .on(t.shipmentId)
      .where(sql`${t.closedAt} is null`),
  ],
);

/**
 * Shipments per Lima day, route and status, kept by a trigger on `shipments` (migration 0005) in
 * the same transaction as every insert and status change. The Panel reads its counters and chart
 * here, so they cost the same at a million shipments as at a hundred.
 */
export const shipmentDailyCounts = pgTable(
  'shipment_daily_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    originBranchId: integer('origin_branch_id').notNull(),
    destinationBranchId: integer('destination_branch_id').notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.originBranchId, t.destinationBranchId, t.status] })],
);

/**
 * shipment_daily_counts added up over the routes: a row per (day, status), kept by statement
 * triggers on the counts (migration 0019), so whatever writes the counts (the fold, a recount)
 * keeps it exact. The whole company's Panel and list totals read a few thousand rows a year
 * here instead of a row per route, up to 64 times as many.
 */
export const shipmentDailyStatusCounts = pgTable(
  'shipment_daily_status_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.status] })],
);

/**
 * shipment_daily_counts added up per branch: a row per (branch, day, status), kept by statement
 * triggers on the counts as migration 0019 keeps the whole company's (migration 0023). `n` counts
 * what leaves or reaches the branch once (an agent's scope), `nOrigin` what leaves it and
 * `nDestination` what reaches it (one side filtered). A branch's list and Panel read its few
 * thousand rows a year here instead of every route's.
 */
export const shipmentDailyBranchCounts = pgTable(
  'shipment_daily_branch_counts',
  {
    branchId: integer('branch_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
    nOrigin: integer('n_origin').notNull(),
    nDestination: integer('n_destination').notNull(),
  },
  (t) => [primaryKey({ columns: [t.branchId, t.day, t.status] })],
);

/**
 * Changes to shipment_daily_counts not yet folded into it: the trigger appends ±1 rows here (no
 * row is shared between creations, so none waits on another) and a background fold moves them
 * into the counts. Readers sum both.
 */
export const shipmentDailyCountDeltas = pgTable('shipment_daily_count_deltas', {
  day: date('day', { mode: 'string' }).notNull(),
  originBranchId: integer('origin_branch_id').notNull(),
  destinationBranchId: integer('destination_branch_id').notNull(),
  status: text('status').notNull(),
  n: integer('n').notNull(),
});

/**
 * Every SUNAT document (DESIGN.md section 5a). The number is taken from `document_series` in the
 * transaction that inserts the row, before the provider is called: a provider that times out leaves
 * a 'pendiente' document with its number, never a gap and never a second number.
 */
export const documents = pgTable(
  'documents',
  {
    id: serial('id').primaryKey(),
    type: text('type').notNull(),
    series: text('series').notNull(),
    number: integer('number').notNull(),
    status: text('status').notNull().default('pendiente'),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    contingency: boolean('contingency').notNull().default(false),
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'restrict' }),
    customerDocType: text('customer_doc_type').notNull(),
    customerDocNumber: text('customer_doc_number').notNull(),
    customerName: text('customer_name').notNull(),
    currency: text('currency').notNull().default('PEN'),
    gravada: numeric('gravada', { precision: 12, scale: 2 }).notNull(),
    exonerada: numeric('exonerada', { precision: 12, scale: 2 }).notNull(),
    inafecta: numeric('inafecta', { precision: 12, scale: 2 }).notNull(),
    igv: numeric('igv', { precision: 12, scale: 2 }).notNull(),
    total: numeric('total', { precision: 12, scale: 2 }).notNull(),
    /** The numbered document as sent to the provider (the domain's draft + number + time). */
    document: jsonb('document').notNull(),
    /**
     * The client's idempotency key (extras.codigo_unico), trimmed, null when blank: the same key from
     * the same issuing branch with the same payload answers the same document.
     */
    idempotencyKey: text('idempotency_key'),
    /** SHA-256 of the request the key came with: the key sent again with another payload is refused, not replayed. */
    idempotencyHash: text('idempotency_hash'),
    modifies: text('modifies'),
    branchId: integer('branch_id').references(() => branches.id, { onDelete: 'restrict' }),
    userId: integer('user_id'),
    userName: text('user_name').notNull(),
    hash: text('hash'),
    qrText: text('qr_text'),
    xml: text('xml'),
    pdfUrl: text('pdf_url'),
    providerMessage: text('provider_message'),
    voidReason: text('void_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('documents_number_uq').on(t.type, t.series, t.number),
    // Keys are per issuing branch: another branch's key is not a replay of its document (an
    // admin without a branch has a scope of their own, branch 0).
    uniqueIndex('documents_branch_idempotency_uq').on(sql`coalesce(${t.branchId}, 0)`, t.idempotencyKey),
    index('documents_issue_date_idx').on(t.issueDate, t.id),
    // An agent's register seeks along (branch, issue day, id): the register's order within their branch.
    index('documents_branch_idx').on(t.branchId, t.issueDate, t.id),
    index('documents_customer_idx').on(t.customerDocNumber),
    // The register's customer filter matches any part of the name or the document (ILIKE '%…%'):
    // without these it read every document (310 ms for a RUC at 100k documents).
    index('documents_customer_name_trgm').using('gin', sql`${t.customerName} gin_trgm_ops`),
    index('documents_customer_doc_trgm').using('gin', sql`${t.customerDocNumber} gin_trgm_ops`),
    check('documents_status_ck', sql`${t.status} in ('pendiente', 'aceptado', 'rechazado', 'anulación pendiente', 'anulado')`),
    check('documents_number_ck', sql`${t.number} between 1 and 99999999`),
    check('documents_type_ck', sql`${t.type} in ('01', '03', '07', '09', '31', '20', '40')`),
  ],
);

/** The key (but for the day or month) and the sums of the documents' counters, daily and monthly. */
const documentCounterColumns = () => ({
  branchId: integer('branch_id').notNull(),
  type: text('type').notNull(),
  series: text('series').notNull(),
  status: text('status').notNull(),
  currency: text('currency').notNull(),
  n: bigint('n', { mode: 'number' }).notNull(),
  gravada: numeric('gravada').notNull(),
  exonerada: numeric('exonerada').notNull(),
  inafecta: numeric('inafecta').notNull(),
  igv: numeric('igv').notNull(),
  total: numeric('total').notNull(),
});

/**
 * Documents and their amounts per issue day, branch (0: none), type, series, status and currency,
 * kept by statement triggers on `documents` (migration 0021) in the transaction of every insert,
 * update and delete. The register's count and totals add these up (a few rows per day) instead of
 * every matching document, so they cost the same at a million documents as at a hundred. The sums
 * are unbounded numeric: exact, and a year of totals outgrows a document's numeric(12,2).
 */
export const documentDailyTotals = pgTable(
  'document_daily_totals',
  {
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    ...documentCounterColumns(),
  },
  (t) => [primaryKey({ columns: [t.issueDate, t.branchId, t.type, t.series, t.status, t.currency] })],
);

/**
 * The same totals per calendar month (its first day) instead of per day, kept by statement triggers
 * on document_daily_totals (migration 0024). A register with no dates, or whose dates span whole
 * months, adds up a dozen rows per key a year here, and only the days of a month it cuts come from
 * the daily rows: the register's totals read the same few rows at a million documents as at a
 * hundred thousand, where the daily rows of a year grew with every key each day filled.
 */
export const documentMonthlyTotals = pgTable(
  'document_monthly_totals',
  {
    month: date('month', { mode: 'string' }).notNull(),
    ...documentCounterColumns(),
  },
  (t) => [primaryKey({ columns: [t.month, t.branchId, t.type, t.series, t.status, t.currency] })],
);

/** The last number of each series: locked by the upsert that takes the next one (never max()+1). */
export const documentSeries = pgTable(
  'document_series',
  {
    type: text('type').notNull(),
    series: text('series').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [primaryKey({ columns: [t.type, t.series] })],
);

/** The history of a document and every exchange with the provider (request and answer JSON). */
export const documentEvents = pgTable(
  'document_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    userId: integer('user_id'),
    userName: text('user_name'),
    note: text('note'),
    operation: text('operation'),
    request: jsonb('request'),
    answer: jsonb('answer'),
  },
  (t) => [index('document_events_document_idx').on(t.documentId, t.id)],
);

/**
 * Shipments on a document: billed on a comprobante (role 'comprobante'), or carried under a carrier
 * guide (role 'guia', a GRE-T). A shipment is on at most one live (not voided, not rejected)
 * document of each role: billed once, and on one live guide.
 */
export const documentShipments = pgTable(
  'document_shipments',
  {
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'restrict' }),
    live: boolean('live').notNull().default(true),
    role: text('role').notNull().default('comprobante'),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.shipmentId] }),
    // A shipment's documents, live or not, by the shipment: the guard that refuses cancelling or
    // repricing a charged shipment (migration 0031) asks it on every cancellation and reprice.
    index('document_shipments_shipment_idx').on(t.shipmentId),
    uniqueIndex('document_shipments_live_uq')
      .on(t.shipmentId)
      .where(sql`${t.live} and ${t.role} = 'comprobante'`),
    uniqueIndex('document_shipments_guide_live_uq')
      .on(t.shipmentId)
      .where(sql`${t.live} and ${t.role} = 'guia'`),
    check('document_shipments_role_ck', sql`${t.role} in ('comprobante', 'guia')`),
  ],
);

/** What the offline sandbox provider remembers of the documents it 'sent to SUNAT'. */
export const sandboxDocuments = pgTable('sandbox_documents', {
  key: text('key').primaryKey(),
  record: jsonb('record').notNull(),
});

/**
 * A collector's cash drawer (DESIGN.md section 5a): opened with a float, closed with the counted
 * cash; one open session per user (a partial unique index). A closed session is immutable.
 */
export const cashSessions = pgTable(
  'cash_sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull(),
    userName: text('user_name').notNull(),
    branchId: integer('branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    floatCents: integer('float_cents').notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    countedCashCents: integer('counted_cash_cents'),
    /** The closing as computed when it closed: per method expected, counted, difference (céntimos). */
    closing: jsonb('closing'),
    closedBy: integer('closed_by'),
  },
  (t) => [
    uniqueIndex('cash_sessions_one_open_uq')
      .on(t.userId)
      .where(sql`${t.closedAt} is null`),
    index('cash_sessions_opened_idx').on(t.openedAt),
    index('cash_sessions_branch_idx').on(t.branchId, t.openedAt),
    check('cash_sessions_float_ck', sql`${t.floatCents} >= 0`),
  ],
);

/**
 * A manual payment taken at the counter (DESIGN.md section 5). Amounts in integer céntimos. At most
 * one pending-or-paid payment per shipment: a partial unique index, not a prior read.
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'restrict' }),
    status: text('status').notNull().default('pending'),
    method: text('method').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** An admin's discount on what the shipment owes, taken before collecting (amount = owed − discount). */
    discountCents: integer('discount_cents').notNull().default(0),
    discountReason: text('discount_reason'),
    currency: text('currency').notNull().default('PEN'),
    providerTxId: text('provider_tx_id'),
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'restrict' }),
    customerDocType: smallint('customer_doc_type').notNull(),
    customerDocNumber: text('customer_doc_number').notNull(),
    customerName: text('customer_name').notNull(),
    branchId: integer('branch_id').references(() => branches.id, { onDelete: 'restrict' }),
    // No foreign key, as on shipments.created_by: the record outlives staff accounts.
    userId: integer('user_id').notNull(),
    userName: text('user_name').notNull(),
    cashSessionId: integer('cash_session_id')
      .notNull()
      .references(() => cashSessions.id, { onDelete: 'restrict' }),
    documentId: integer('document_id').references(() => documents.id, { onDelete: 'restrict' }),
    /** How many receipts were tried after a rejection (the next key is PAGO-{id}-{attempts}). */
    receiptAttempts: integer('receipt_attempts').notNull().default(0),
    lastError: text('last_error'),
    cancelReason: text('cancel_reason'),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payments_one_live_per_shipment_uq')
      .on(t.shipmentId)
      .where(sql`${t.status} in ('pending', 'paid')`),
    index('payments_created_idx').on(t.createdAt, t.id),
    // The movements report's keyset order (newest first, id breaking ties) within a branch and for a user.
    index('payments_branch_created_idx').on(t.branchId, t.createdAt, t.id),
    index('payments_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('payments_session_idx').on(t.cashSessionId),
    check('payments_status_ck', sql`${t.status} in ('pending', 'paid', 'canceled')`),
    check('payments_method_ck', sql`${t.method} in ('cash', 'card_pos', 'bank_transfer', 'yape_qr', 'plin_qr', 'card_online')`),
    check('payments_amount_ck', sql`${t.amountCents} > 0`),
    check('payments_discount_ck', sql`${t.discountCents} >= 0`),
    // A discount is always explained: the audit and the receipt print its reason.
    check('payments_discount_reason_ck', sql`${t.discountCents} = 0 or ${t.discountReason} is not null`),
    check('payments_currency_ck', sql`${t.currency} = 'PEN'`),
  ],
);

/** The key (but for the day or month) and the sums of the payments' counters, daily and monthly. */
const paymentCounterColumns = () => ({
  branchId: integer('branch_id').notNull(),
  userId: integer('user_id').notNull(),
  method: text('method').notNull(),
  status: text('status').notNull(),
  n: bigint('n', { mode: 'number' }).notNull(),
  cents: bigint('cents', { mode: 'number' }).notNull(),
});

/**
 * Payments and their céntimos per Lima day of creation, branch (0: none), collecting user, method
 * and status: the movements report's filters and the groups of its totals. Kept by statement
 * triggers on `payments` (migration 0021) in the transaction of every insert, update and delete;
 * the report adds these up instead of every matching payment.
 */
export const paymentDailyTotals = pgTable(
  'payment_daily_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    ...paymentCounterColumns(),
  },
  (t) => [primaryKey({ columns: [t.day, t.branchId, t.userId, t.method, t.status] })],
);

/** payment_daily_totals per calendar month (its first day), as document_monthly_totals (migration 0024). */
export const paymentMonthlyTotals = pgTable(
  'payment_monthly_totals',
  {
    month: date('month', { mode: 'string' }).notNull(),
    ...paymentCounterColumns(),
  },
  (t) => [primaryKey({ columns: [t.month, t.branchId, t.userId, t.method, t.status] })],
);

/**
 * The cash ledger: a payment's charge when it is paid, its reversal when a paid one is voided, each in
 * the acting collector's open session (a void after closing lands in the next one as an adjustment).
 */
export const paymentMovements = pgTable(
  'payment_movements',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    kind: text('kind').notNull(),
    method: text('method').notNull(),
    amountCents: integer('amount_cents').notNull(),
    cashSessionId: integer('cash_session_id')
      .notNull()
      .references(() => cashSessions.id, { onDelete: 'restrict' }),
    userId: integer('user_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One charge and at most one reversal per payment.
    uniqueIndex('payment_movements_kind_uq').on(t.paymentId, t.kind),
    index('payment_movements_session_idx').on(t.cashSessionId, t.id),
    check('payment_movements_kind_ck', sql`${t.kind} in ('cobro', 'anulacion')`),
  ],
);

/**
 * Public tracking lookups per client address (issue 18), in the DB so every API process counts
 * the same window: the public page is the one unauthenticated read, and codes are sequential.
 */
export const publicRateLimits = pgTable('public_rate_limits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
});

/**
 * Proof of delivery (issue 18): the photo and the receiver's signature, in the database (not in
 * the web root), written in the delivery's transaction; staff read them through the API only.
 */
export const deliveryProofs = pgTable(
  'delivery_proofs',
  {
    shipmentId: integer('shipment_id')
      .primaryKey()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    photo: bytea('photo'),
    photoType: text('photo_type'),
    signature: bytea('signature'),
    signatureType: text('signature_type'),
    createdAt: createdAt(),
  },
  (t) => [
    check('delivery_proofs_photo_type_ck', sql`${t.photoType} is null or ${t.photoType} in ('image/jpeg', 'image/png')`),
    check('delivery_proofs_signature_type_ck', sql`${t.signatureType} is null or ${t.signatureType} in ('image/jpeg', 'image/png')`),
  ],
);

/**
 * Notifications (issue 18): a transactional outbox. A message is written in the transaction of the
 * shipment event it announces, so a failed event leaves no message and a committed one always has
 * its messages; a worker sends them later with retries. `idempotency_key` (event, party, channel)
 * makes a repeated enqueue a no-op, and the claim (`locked_until`, SKIP LOCKED) gives each message
 * to one worker at a time.
 */
export const notificationOutbox = pgTable(
  'notification_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    /** 'registered' | 'departed' | 'arrived' | 'delivered' */
    topic: text('topic').notNull(),
    /** 'email' | 'whatsapp' */
    channel: text('channel').notNull(),
    /** 'sender' | 'recipient' */
    party: text('party').notNull(),
    address: text('address').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** The public tracking path; the worker prefixes PUBLIC_URL (or the server's address) when sending. */
    link: text('link').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** 'pendiente' | 'enviado' | 'registrado' (outbox-only: recorded, not sent) | 'fallido' */
    status: text('status').notNull().default('pendiente'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notification_outbox_key_uq').on(t.idempotencyKey),
    index('notification_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('notification_outbox_shipment_idx').on(t.shipmentId),
    check('notification_outbox_status_ck', sql`${t.status} in ('pendiente', 'enviado', 'registrado', 'fallido')`),
    check('notification_outbox_channel_ck', sql`${t.channel} in ('email', 'whatsapp')`),
  ],
);
