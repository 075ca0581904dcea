import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { shipments } from './shipments.js';

/**
 * The GRE remitente a shipment travels under (issue 36, module `guides`): the sender issued it, the
 * counter records its number, and the carrier guide of the load references it (catalogue 61, 09).
 */
export const shipmentSenderGuides = pgTable(
  'shipment_sender_guides',
  {
    shipmentId: integer('shipment_id')
      .primaryKey()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    series: text('series').notNull(),
    number: integer('number').notNull(),
    recordedBy: integer('recorded_by'),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('shipment_sender_guides_series_ck', sql`${t.series} ~ '^(T[A-Z0-9]{3}|[0-9]{4}|EG0[27])$'`),
    check('shipment_sender_guides_number_ck', sql`${t.number} between 1 and 99999999`),
  ],
);
