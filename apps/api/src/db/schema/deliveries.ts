import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { bytea, createdAt } from './columns.js';
import { shipments } from './shipments.js';

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
