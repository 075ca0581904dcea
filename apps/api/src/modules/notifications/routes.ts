import { z } from 'zod';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import {
  answers,
  NOTIFICATION_MESSAGES,
  notificationListQuerySchema,
  notificationPageSchema,
  notificationSchema,
  type Notification,
  type NotificationListQuery,
} from '@tramo/domain';
import type { FastifyInstance } from 'fastify';
import { notificationOutbox, shipments } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { notFound } from '../../lib/errors.ts';
import { guard } from '../../plugins/auth.ts';
import { currentUser, type App, type SessionUser } from '../../types.ts';

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

interface Row {
  id: number;
  shipmentId: number;
  shipmentCode: string;
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

const toDto = (r: Row): Notification => ({
  ...r,
  topic: r.topic as Notification['topic'],
  channel: r.channel as Notification['channel'],
  party: r.party as Notification['party'],
  status: r.status as Notification['status'],
  nextAttemptAt: r.nextAttemptAt.toISOString(),
  sentAt: r.sentAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

async function listNotifications(app: FastifyInstance, query: NotificationListQuery) {
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(notificationOutbox.status, query.status));
  if (query.channel) filters.push(eq(notificationOutbox.channel, query.channel));
  const where = filters.length ? and(...filters) : undefined;
  const [rows, [total]] = await Promise.all([
    app.db
      .select(columns)
      .from(notificationOutbox)
      .innerJoin(shipments, eq(shipments.id, notificationOutbox.shipmentId))
      .where(where)
      .orderBy(desc(notificationOutbox.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    app.db.select({ n: count() }).from(notificationOutbox).where(where),
  ]);
  return { items: rows.map(toDto), total: total!.n, page: query.page, pageSize: query.pageSize };
}

/** Puts a message back in the queue as new (attempts from zero), whatever became of it; audited. */
async function resend(app: FastifyInstance, actor: SessionUser, id: number): Promise<Notification> {
  return app.db.transaction(async (tx) => {
    const [before] = await tx.select().from(notificationOutbox).where(eq(notificationOutbox.id, id)).for('update');
    if (!before) throw notFound(NOTIFICATION_MESSAGES.notFound);
    await tx
      .update(notificationOutbox)
      .set({ status: 'pendiente', attempts: 0, nextAttemptAt: app.now(), lockedUntil: null, lastError: null, sentAt: null })
      .where(eq(notificationOutbox.id, id));
    await audit(tx, {
      userId: actor.id,
      entity: 'notification',
      entityId: id,
      action: 'resend',
      before: { status: before.status, attempts: before.attempts },
    });
    const [row] = await tx
      .select(columns)
      .from(notificationOutbox)
      .innerJoin(shipments, eq(shipments.id, notificationOutbox.shipmentId))
      .where(eq(notificationOutbox.id, id));
    return toDto(row!);
  });
}

/** Notifications (issue 18): the outbox for admins, with filters and resend. */
export default async function notificationRoutes(app: App) {
  const tags = ['notifications'];
  const admin = guard(app, { roles: ['admin'] });
  app.get(
    '/notifications',
    {
      schema: {
        tags,
        querystring: notificationListQuerySchema,
        response: answers({ 200: notificationPageSchema }),
        summary:
          'Mensajes al remitente y al destinatario (bandeja de salida), más recientes primero; filtros por estado y canal (solo administrador)',
      },
      preHandler: admin,
    },
    async (request) => listNotifications(app, request.query),
  );
  app.post(
    '/notifications/:id/resend',
    {
      schema: {
        tags,
        params: z.object({
          id: z.coerce
            .number({ error: 'Identificador inválido' })
            .int('Identificador inválido')
            .min(1, 'Identificador inválido')
            .max(2_147_483_647, 'Identificador inválido'),
        }),
        response: answers({ 200: notificationSchema }),
        summary: 'Vuelve a poner un mensaje en cola (intentos desde cero; auditado; solo administrador)',
      },
      preHandler: admin,
    },
    async (request) => resend(app, currentUser(request), request.params.id),
  );
}
