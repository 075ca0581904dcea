import { z } from 'zod';
import { answers, incidentAnswerSchema, incidentSchema, optionalText, shipmentRef } from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { idParams } from '../../lib/schemas.ts';
import { currentUser, type App } from '../../types.ts';
import { closeIncident, createIncident, openIncidents, shipmentIncidents } from './service.ts';

export default async function incidentRoutes(app: App) {
  const tags = ['incidents'];
  // Any staff member who may see the shipment reports what went wrong with it (a courier too).
  const anyUser = guard(app);

  app.get(
    '/incidents/open',
    {
      schema: {
        tags,
        response: answers({ 200: z.object({ open: z.number(), items: z.array(incidentAnswerSchema) }) }),
        summary: 'Incidencias abiertas que el usuario puede ver: cuántas y las 20 más recientes',
      },
      preHandler: anyUser,
    },
    async (request) => openIncidents(app, currentUser(request)),
  );
  app.get(
    '/shipments/:id/incidents',
    {
      schema: {
        tags,
        response: answers({ 200: z.array(incidentAnswerSchema) }),
        summary: 'Incidencias del envío',
        params: z.object({ id: shipmentRef }),
      },
      preHandler: anyUser,
    },
    async (request) => shipmentIncidents(app, currentUser(request), request.params.id),
  );
  app.post(
    '/shipments/:id/incidents',
    {
      schema: {
        tags,
        response: answers({ 201: incidentAnswerSchema }),
        summary: 'Registrar una incidencia (motivo, nota y foto opcional)',
        params: z.object({ id: shipmentRef }),
        body: incidentSchema,
      },
      preHandler: anyUser,
    },
    async (request, reply) => reply.status(201).send(await createIncident(app, currentUser(request), request.params.id, request.body)),
  );
  app.post(
    '/incidents/:id/close',
    {
      schema: {
        tags,
        response: answers({ 200: incidentAnswerSchema }),
        summary: 'Cerrar una incidencia',
        params: idParams,
        body: z.object({ note: optionalText(500, { multiline: true }) }),
      },
      preHandler: anyUser,
    },
    async (request) => closeIncident(app, currentUser(request), request.params.id, request.body.note),
  );
}
