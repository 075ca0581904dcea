import { NOTIFICATION_MESSAGES, type Notification, type NotificationListQuery } from '@tramo/domain';
import { audit } from '../../lib/audit.ts';
import { notFound } from '../../lib/errors.ts';
import type { SessionUser, ServiceContext } from '../../types.ts';
import { findMessage, listPage, lockMessage, requeue, type NotificationRow } from './repository.ts';

const toDto = (r: NotificationRow): Notification => ({
  ...r,
  topic: r.topic as Notification['topic'],
  channel: r.channel as Notification['channel'],
  party: r.party as Notification['party'],
  status: r.status as Notification['status'],
  nextAttemptAt: r.nextAttemptAt.toISOString(),
  sentAt: r.sentAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

export async function listNotifications(ctx: ServiceContext, query: NotificationListQuery) {
  const { rows, total } = await listPage(ctx.db, query);
  return { items: rows.map(toDto), total, page: query.page, pageSize: query.pageSize };
}

/** Puts a message back in the queue as new (attempts from zero), whatever became of it; audited. */
export async function resend(ctx: ServiceContext, actor: SessionUser, id: number): Promise<Notification> {
  return ctx.db.transaction(async (tx) => {
    const before = await lockMessage(tx, id);
    if (!before) throw notFound(NOTIFICATION_MESSAGES.notFound);
    await requeue(tx, id, ctx.now());
    await audit(tx, {
      userId: actor.id,
      entity: 'notification',
      entityId: id,
      action: 'resend',
      before: { status: before.status, attempts: before.attempts },
    });
    return toDto((await findMessage(tx, id))!);
  });
}
