import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { shipments } from './shipments.js';

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
    /** Null for a message about no shipment (a fleet document's expiry alert, issue 36). */
    shipmentId: integer('shipment_id').references(() => shipments.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }),
    /** 'registered' | 'departed' | 'arrived' | 'delivered' | 'fleet_expiry' */
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
