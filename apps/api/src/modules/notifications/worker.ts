import { and, eq, sql } from 'drizzle-orm';
import { codeFromScan, NOTIFICATION_RETRY, notificationRetryDelayMs } from '@tramo/domain';
import { notificationOutbox } from '../../db/schema.ts';
import { loggableError } from '../../plugins/logging.ts';
import type { App, ServiceContext } from '../../types.ts';

/** How long a claimed message is a worker's own: past it (a crashed worker), another may take it. */
const LEASE_MS = 2 * 60_000;

type Row = typeof notificationOutbox.$inferSelect;

/** The origin of the links in messages: PUBLIC_URL, else the server's own address. */
export function linkOrigin(ctx: ServiceContext): string {
  return ctx.config.publicUrl ?? `http://${ctx.config.host}:${ctx.config.port}`;
}

/**
 * The outbox keeps the page's path (`/seguimiento/{code}`); the message carries it with the link's
 * key, without which the page shows only the status (issue 31, F10).
 */
function keyedLink(ctx: ServiceContext, link: string): string {
  return ctx.trackingLinks.path(codeFromScan(link));
}

/**
 * The text as sent: a shipment's message ends with its keyed tracking link; another message with
 * its own link (a signed estado de cuenta) when it has one; a fleet alert carries its text only.
 */
function sentBody(ctx: ServiceContext, row: Row): string {
  if (row.shipmentId !== null) return `${row.body}\nSíguelo en: ${linkOrigin(ctx)}${keyedLink(ctx, row.link)}`;
  return row.link ? `${row.body}\n${linkOrigin(ctx)}${row.link}` : row.body;
}

/**
 * Takes the oldest due message for this worker, in one statement: SKIP LOCKED lets concurrent
 * workers (processes) each take a different one, and the lease keeps it theirs while they send.
 */
async function claim(ctx: ServiceContext, now: Date): Promise<Row | null> {
  const nowSql = sql`${now.toISOString()}::timestamptz`;
  const leaseSql = sql`${new Date(now.getTime() + LEASE_MS).toISOString()}::timestamptz`;
  const result = await ctx.db.execute(sql`
    update notification_outbox set locked_until = ${leaseSql}, attempts = attempts + 1
    where id = (
      select id from notification_outbox
      where status = 'pendiente' and next_attempt_at <= ${nowSql} and (locked_until is null or locked_until <= ${nowSql})
      order by id limit 1
      for update skip locked
    )
    returning id`);
  const id = (result.rows[0] as { id: number | string } | undefined)?.id;
  if (id === undefined) return null;
  const [row] = await ctx.db
    .select()
    .from(notificationOutbox)
    .where(eq(notificationOutbox.id, Number(id)));
  return row ?? null;
}

/** Writes the outcome only while the claim is still this worker's (same attempt number). */
function settle(ctx: ServiceContext, row: Row, values: Partial<Row>) {
  return ctx.db
    .update(notificationOutbox)
    .set({ ...values, lockedUntil: null })
    .where(and(eq(notificationOutbox.id, row.id), eq(notificationOutbox.attempts, row.attempts)));
}

/**
 * Sends the due messages, one at a time, until none is left or `limit` were handled. A channel
 * that is not configured records the message as 'registrado' (outbox-only); a failure waits
 * 30 s, 1, 2, 4 min… and after five attempts the message is 'fallido' (an admin can resend it).
 */
export async function deliverDueNotifications(ctx: ServiceContext, limit = 50): Promise<number> {
  let handled = 0;
  for (; handled < limit; handled++) {
    const now = ctx.now();
    const row = await claim(ctx, now);
    if (!row) break;
    const notify = ctx.providers.notify;
    if (!notify.handles(row.channel as 'email' | 'whatsapp')) {
      await settle(ctx, row, { status: 'registrado' });
      continue;
    }
    try {
      await notify.send({
        channel: row.channel as 'email' | 'whatsapp',
        address: row.address,
        subject: row.subject,
        body: sentBody(ctx, row),
        idempotencyKey: row.idempotencyKey,
        attachments: row.attachment && row.attachmentName ? [{ filename: row.attachmentName, content: Buffer.from(row.attachment) }] : undefined,
      });
      await settle(ctx, row, { status: 'enviado', sentAt: ctx.now(), lastError: null });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const final = row.attempts >= NOTIFICATION_RETRY.maxAttempts;
      await settle(ctx, row, {
        status: final ? 'fallido' : 'pendiente',
        lastError: message.slice(0, 500),
        nextAttemptAt: new Date(ctx.now().getTime() + notificationRetryDelayMs(row.attempts)),
      });
      ctx.log.warn({ err: loggableError(err), notification: row.id }, 'notificación no enviada');
    }
  }
  return handled;
}

/** The server's worker: every `pollMs` it sends what is due; stops with the app. */
export function startNotificationWorker(app: App, pollMs: number): void {
  if (pollMs <= 0) return;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    deliverDueNotifications(app)
      .catch((err: unknown) => app.log.error({ err: loggableError(err) }, 'worker de notificaciones'))
      .finally(() => (running = false));
  }, pollMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
