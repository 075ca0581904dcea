import { z } from 'zod';
import { answers, notificationListQuerySchema, notificationPageSchema, notificationSchema } from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { currentUser, type App } from '../../types.ts';
import { listNotifications, resend } from './service.ts';

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
