import { sql } from 'drizzle-orm';
import { boolean, index, integer, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { branches } from './branches.js';
import { transports } from './fleet.js';
import { shipments } from './shipments.js';

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
