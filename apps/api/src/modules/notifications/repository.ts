import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { NotificationListQuery } from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { notificationOutbox, shipments } from '../../db/schema.ts';

const columns = {
  id: notificationOutbox.id,
  shipmentId: notificationOutbox.shipmentId,
  shipmentCode: shipments.code,
  topic: notificationOutbox.topic,
  channel: notificationOutbox.channel,
  party: notificationOutbox.party,
  address: notificationOutbox.address,
  subject: notificationOutbox.subject,
  body: notificationOutbox.body,
  link: notificationOutbox.link,
  status: notificationOutbox.status,
  attempts: notificationOutbox.attempts,
  nextAttemptAt: notificationOutbox.nextAttemptAt,
  lastError: notificationOutbox.lastError,
  sentAt: notificationOutbox.sentAt,
  createdAt: notificationOutbox.createdAt,
};

export interface NotificationRow {
  id: number;
  shipmentId: number | null;
  shipmentCode: string | null;
  topic: string;
  channel: string;
  party: string;
  address: string;
  subject: string;
  body: string;
  link: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  sentAt: Date | null;
  createdAt: Date;
}

/** A page of the outbox, newest first, and how many messages the filters match. */
export async function listPage(db: Db, query: NotificationListQuery): Promise<{ rows: NotificationRow[]; total: number }> {
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(notificationOutbox.status, query.status));
  if (query.channel) filters.push(eq(notificationOutbox.channel, query.channel));
  const where = filters.length ? and(...filters) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select(columns)
      .from(notificationOutbox)
      .leftJoin(shipments, eq(shipments.id, notificationOutbox.shipmentId))
      .where(where)
      .orderBy(desc(notificationOutbox.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(notificationOutbox).where(where),
  ]);
  return { rows, total: total!.n };
}

/** Locks a message for the rest of the transaction; answers what a resend's audit keeps of it. */
export async function lockMessage(tx: Tx, id: number): Promise<{ status: string; attempts: number } | null> {
  const [row] = await tx
    .select({ status: notificationOutbox.status, attempts: notificationOutbox.attempts })
    .from(notificationOutbox)
    .where(eq(notificationOutbox.id, id))
    .for('update');
  return row ?? null;
}

/** Back in the queue as new: pending now, attempts from zero, nothing of its past tries. */
export async function requeue(tx: Tx, id: number, now: Date): Promise<void> {
  await tx
    .update(notificationOutbox)
    .set({ status: 'pendiente', attempts: 0, nextAttemptAt: now, lockedUntil: null, lastError: null, sentAt: null })
    .where(eq(notificationOutbox.id, id));
}

export async function findMessage(db: Db | Tx, id: number): Promise<NotificationRow | null> {
  const [row] = await db
    .select(columns)
    .from(notificationOutbox)
    .leftJoin(shipments, eq(shipments.id, notificationOutbox.shipmentId))
    .where(eq(notificationOutbox.id, id));
  return row ?? null;
}
