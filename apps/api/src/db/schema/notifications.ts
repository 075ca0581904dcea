import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, createdAt } from './columns.js';
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
    /** 'registered' | 'departed' | 'arrived' | 'delivered' | 'fleet_expiry' | 'credit_statement' */
    topic: text('topic').notNull(),
    /** 'email' | 'whatsapp' */
    channel: text('channel').notNull(),
    /** 'sender' | 'recipient' | 'company' (the fleet contact) | 'customer' (a credit account's statement contact) */
    party: text('party').notNull(),
    address: text('address').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /**
     * The public path the message points at (a shipment's tracking page, a signed estado de cuenta);
     * the worker prefixes PUBLIC_URL (or the server's address) when sending. Empty: no link.
     */
    link: text('link').notNull(),
    /**
     * A file an e-mail carries (an estado de cuenta's PDF), as it was when the message was written:
     * a retry sends the same bytes even if the account moved since.
     */
    attachmentName: text('attachment_name'),
    attachment: bytea('attachment'),
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
    check('notification_outbox_attachment_ck', sql`(${t.attachment} is null) = (${t.attachmentName} is null)`),
  ],
);
