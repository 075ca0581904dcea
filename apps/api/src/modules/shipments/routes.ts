import { z } from 'zod';
import {
  answers,
  checkpointSchema,
  descriptionChangeSchema,
  newShipmentSchema,
  recordIdFilter,
  returnAnswerSchema,
  returnShipmentSchema,
  secretCodeChangeSchema,
  SHIPMENT_MESSAGES,
  SHIPMENT_STATUSES,
  shipmentListQuerySchema,
  shipmentSearchRowSchema,
  shipmentPageSchema,
  shipmentRef,
  shipmentSearchTerm,
  shipmentSchema,
  shipmentUpdateSchema,
  statusChangeSchema,
  whoPaysChangeSchema,
} from '@tramo/domain';
import { recordId } from '../../lib/schemas.ts';
import { guard } from '../../plugins/auth.ts';
import { currentUser, type App } from '../../types.ts';
import {
  addCheckpoint,
  cancelShipment,
  changeDescription,
  changeSecretCode,
  changeStatus,
  createShipment,
  deleteCheckpoint,
  updateShipment,
} from './commands.ts';
import { getShipment, getShipmentByCode, listShipments, searchShipments } from './queries.ts';
import { returnToOrigin } from './returns.ts';
import { changeWhoPays } from './who-pays.ts';

/** `{id}` is the numeric id or the code (TMT-000123). */
const shipmentParams = z.object({ id: shipmentRef });
const checkpointParams = shipmentParams.extend({
  checkpointId: recordId(),
});
const optionalId = recordIdFilter();
/** A client's retry token: the same key repeats the same return instead of being refused. */
const idempotencyHeaders = z.object({
  'idempotency-key': z.string().trim().min(1).max(100, 'Idempotency-Key: máximo 100 caracteres').optional(),
});

export default async function shipmentRoutes(app: App) {
  const tags = ['shipments'];
  const anyUser = guard(app);
  const registrars = guard(app, { roles: ['admin', 'agent'] });

  app.get(
    '/shipments',
    {
      schema: {
        tags,
        response: answers({ 200: shipmentPageSchema }),
        summary: 'Listar envíos (filtros, paginado, alcance por sucursal)',
        querystring: shipmentListQuerySchema,
      },
      preHandler: anyUser,
    },
    async (request) => listShipments(app, currentUser(request), request.query),
  );
  app.get(
    '/shipments/search',
    {
      schema: {
        tags,
        response: answers({ 200: z.array(shipmentSearchRowSchema) }),
        summary: 'Rastreo: buscar por código, documento o nombre (todas las sucursales, solo lectura)',
        // Tracking finds by a term (DESIGN.md section 4); branches and status only narrow it, so nobody browses another branch's shipments.
        querystring: z
          .object({
            q: shipmentSearchTerm,
            originId: optionalId,
            destinationId: optionalId,
            status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(SHIPMENT_STATUSES, { error: 'Estado inválido' }).optional()),
          })
          .refine((query) => query.q !== undefined, { message: SHIPMENT_MESSAGES.searchTermRequired, path: ['q'] }),
      },
      preHandler: anyUser,
    },
    async (request) => searchShipments(app, request.query),
  );
  app.get(
    '/shipments/code/:code',
    {
      schema: {
        tags,
        response: answers({ 200: shipmentSchema }),
        summary: 'Envío por código (rastreo y entregas: todas las sucursales)',
        params: z.object({ code: shipmentRef }),
      },
      preHandler: anyUser,
    },
    async (request) => getShipmentByCode(app, currentUser(request), request.params.code),
  );
  app.get(
    '/shipments/:id',
    { schema: { tags, response: answers({ 200: shipmentSchema }), summary: 'Detalle por id o código', params: shipmentParams }, preHandler: anyUser },
    async (request) => getShipment(app, currentUser(request), request.params.id),
  );
  app.post(
    '/shipments',
    {
      schema: {
        tags,
        response: answers({ 201: shipmentSchema }),
        summary: 'Registrar envío (precio recalculado en el servidor)',
        body: newShipmentSchema,
      },
      preHandler: registrars,
      // The answer is one shipment, 1–2 KB: brotli would spare under a kilobyte of a counter's
      // request for about a tenth of the creation's CPU on the API's busiest write (issue 19).
      compress: false,
    },
    async (request, reply) => reply.status(201).send(await createShipment(app, currentUser(request), request.body)),
  );
  app.put(
    '/shipments/:id',
    {
      schema: {
        tags,
        response: answers({ 200: shipmentSchema }),
        summary: 'Editar envío (solo en estado Creado)',
        params: shipmentParams,
        body: shipmentUpdateSchema,
      },
      preHandler: registrars,
    },
    async (request) => updateShipment(app, currentUser(request), request.params.id, request.body),
  );
  app.patch(
    '/shipments/:id/status',
    {
      schema: { tags, response: answers({ 200: shipmentSchema }), summary: 'Cambiar estado', params: shipmentParams, body: statusChangeSchema },
      preHandler: anyUser,
    },
    async (request) => changeStatus(app, currentUser(request), request.params.id, request.body.status, request.body.note),
  );
  app.post(
    '/shipments/:id/checkpoints',
    {
      schema: {
        tags,
        response: answers({ 201: shipmentSchema }),
        summary: "Agregar evento (interno; visibleToCustomer: true lo muestra en /seguimiento como 'visible para el cliente')",
        params: shipmentParams,
        body: checkpointSchema,
      },
      preHandler: anyUser,
    },
    async (request, reply) =>
      reply.status(201).send(await addCheckpoint(app, currentUser(request), request.params.id, request.body.name, request.body.visibleToCustomer)),
  );
  app.delete(
    '/shipments/:id/checkpoints/:checkpointId',
    {
      schema: { tags, response: answers({ 200: shipmentSchema }), summary: 'Eliminar evento manual', params: checkpointParams },
      preHandler: anyUser,
    },
    async (request) => deleteCheckpoint(app, currentUser(request), request.params.id, request.params.checkpointId),
  );
  app.put(
    '/shipments/:id/secret-code',
    {
      schema: {
        tags,
        response: answers({ 200: shipmentSchema }),
        summary: 'Cambiar clave secreta',
        params: shipmentParams,
        body: secretCodeChangeSchema,
      },
      preHandler: anyUser,
    },
    async (request) => changeSecretCode(app, currentUser(request), request.params.id, request.body.secretCode),
  );
  app.put(
    '/shipments/:id/who-pays',
    {
      schema: {
        tags,
        response: answers({ 200: shipmentSchema }),
        summary:
          'Cambiar quién paga (remitente, destinatario, tercero) y cuándo (origen, destino) hasta que el envío se pague o se cargue (sucursal de origen; auditado)',
        params: shipmentParams,
        body: whoPaysChangeSchema,
      },
      preHandler: registrars,
    },
    async (request) => changeWhoPays(app, currentUser(request), request.params.id, request.body),
  );
  app.put(
    '/shipments/:id/description',
    {
      schema: {
        tags,
        response: answers({ 200: shipmentSchema }),
        summary: 'Cambiar descripción',
        params: shipmentParams,
        body: descriptionChangeSchema,
      },
      preHandler: anyUser,
    },
    async (request) => changeDescription(app, currentUser(request), request.params.id, request.body),
  );
  app.post(
    '/shipments/:id/return',
    {
      schema: {
        tags,
        response: answers({ 200: returnAnswerSchema, 201: returnAnswerSchema }),
        summary:
          "Devolver a origen: el envío pasa a 'Devuelto' y se registra su retorno (origen y destino, remitente y destinatario invertidos, sin cobro)",
        params: shipmentParams,
        headers: idempotencyHeaders,
        body: returnShipmentSchema,
      },
      preHandler: registrars,
    },
    async (request, reply) => {
      const result = await returnToOrigin(app, currentUser(request), request.params.id, request.body, request.headers['idempotency-key'] ?? null);
      return reply.status(result.replayed ? 200 : 201).send({ original: result.original, returnShipment: result.returnShipment });
    },
  );
  app.delete(
    '/shipments/:id',
    {
      schema: { tags, response: answers({ 200: shipmentSchema }), summary: 'Anular envío (pasa a Anulado; no borra)', params: shipmentParams },
      preHandler: anyUser,
    },
    async (request) => cancelShipment(app, currentUser(request), request.params.id),
  );
}
