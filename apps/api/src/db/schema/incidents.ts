import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { shipments } from './shipments.js';
import { trips } from './trips.js';

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
