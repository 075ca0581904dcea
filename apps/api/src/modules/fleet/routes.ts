import { z } from 'zod';
import {
  answers,
  driverAnswerSchema,
  driverSchema,
  loadableShipmentSchema,
  loadShipmentsSchema,
  noContentSchema,
  searchTerm,
  shipmentAssignmentSchema,
  shipmentRef,
  transportAnswerSchema,
  transportListQuerySchema,
  transportLoadSchema,
  transportPageSchema,
  transportSchema,
} from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { idParams, recordId } from '../../lib/schemas.ts';
import { currentUser, type App } from '../../types.ts';
import { loadableShipments, loadedPlatesOf, loadShipments, shipmentAssignment, transportLoad, unloadShipment } from './assignments.ts';
import { createDriver, deleteDriver, listDrivers, updateDriver } from './drivers.ts';
import { createTransport, deleteTransport, listTransports, updateTransport } from './transports.ts';

const assignmentParams = idParams.extend({ assignmentId: recordId() });

export default async function fleetRoutes(app: App) {
  const tags = ['fleet'];
  // DESIGN.md section 4: transports, drivers and assignments are for admins and agents.
  const fleetStaff = guard(app, { roles: ['admin', 'agent'] });
  const anyUser = guard(app);

  app.get(
    '/transports',
    {
      schema: {
        tags,
        response: answers({ 200: transportPageSchema }),
        summary: 'Listar transportes (filtros status y route; paginado con limit y page)',
        querystring: transportListQuerySchema,
      },
      preHandler: fleetStaff,
    },
    async (request) => listTransports(app, request.query),
  );
  app.post(
    '/transports',
    {
      schema: {
        tags,
        response: answers({ 201: transportAnswerSchema }),
        summary: 'Crear transporte (placa única, normalizada en mayúsculas)',
        body: transportSchema,
      },
      preHandler: fleetStaff,
    },
    async (request, reply) => reply.status(201).send(await createTransport(app, currentUser(request), request.body)),
  );
  app.get(
    '/transports/loadable-shipments',
    {
      schema: {
        tags,
        response: answers({ 200: z.array(loadableShipmentSchema) }),
        summary: 'Envíos que se pueden cargar: estado Creado y sin transporte (por código, documento o nombre)',
        querystring: z.object({ q: searchTerm(100) }),
      },
      preHandler: fleetStaff,
    },
    async (request) => loadableShipments(app, currentUser(request), request.query.q || undefined),
  );
  app.put(
    '/transports/:id',
    {
      schema: { tags, response: answers({ 200: transportAnswerSchema }), summary: 'Editar transporte', params: idParams, body: transportSchema },
      preHandler: fleetStaff,
    },
    async (request) => updateTransport(app, currentUser(request), request.params.id, request.body),
  );
  app.delete(
    '/transports/:id',
    {
      schema: {
        tags,
        response: answers({ 204: noContentSchema }),
        summary: 'Eliminar transporte (rechazado si tiene paquetes cargados)',
        params: idParams,
      },
      preHandler: fleetStaff,
    },
    async (request, reply) => {
      await deleteTransport(app, currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/transports/:id/assignments',
    {
      schema: { tags, response: answers({ 200: transportLoadSchema }), summary: 'Paquetes cargados en el transporte', params: idParams },
      preHandler: fleetStaff,
    },
    async (request) => transportLoad(app.db, request.params.id, currentUser(request)),
  );
  app.post(
    '/transports/:id/assignments',
    {
      schema: {
        tags,
        response: answers({ 201: transportLoadSchema }),
        summary: 'Cargar envíos (todos o ninguno; solo Creado; un envío en un solo transporte)',
        params: idParams,
        body: loadShipmentsSchema,
      },
      preHandler: fleetStaff,
    },
    async (request, reply) => reply.status(201).send(await loadShipments(app, currentUser(request), request.params.id, request.body.shipmentIds)),
  );
  app.delete(
    '/transports/:id/assignments/:assignmentId',
    {
      schema: { tags, response: answers({ 204: noContentSchema }), summary: 'Quitar un paquete del transporte', params: assignmentParams },
      preHandler: fleetStaff,
    },
    async (request, reply) => {
      await unloadShipment(app, currentUser(request), request.params.id, request.params.assignmentId);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/transports/loaded-plates',
    {
      schema: {
        tags,
        response: answers({ 200: z.array(z.object({ shipmentId: z.number(), transportId: z.number(), plate: z.string() })) }),
        summary: 'De estos envíos (ids separados por coma, máximo 100), los que están cargados y en qué placa',
        querystring: z.object({
          shipmentIds: z
            .string({ error: 'Indica los envíos (ids separados por coma).' })
            .regex(/^\d{1,9}(,\d{1,9}){0,99}$/, 'Indica hasta 100 ids de envío separados por coma.')
            .transform((v) => v.split(',').map(Number)),
        }),
      },
      preHandler: anyUser,
    },
    async (request) => loadedPlatesOf(app, currentUser(request), request.query.shipmentIds),
  );
  app.get(
    '/shipments/:id/assignment',
    {
      schema: {
        tags,
        response: answers({ 200: shipmentAssignmentSchema }),
        summary: 'Transporte en el que está cargado el envío (null si ninguno)',
        params: z.object({ id: shipmentRef }),
      },
      preHandler: anyUser,
    },
    async (request) => shipmentAssignment(app, currentUser(request), request.params.id),
  );

  app.get(
    '/drivers',
    { schema: { tags, response: answers({ 200: z.array(driverAnswerSchema) }), summary: 'Listar conductores (arreglo)' }, preHandler: fleetStaff },
    async () => listDrivers(app),
  );
  app.post(
    '/drivers',
    { schema: { tags, response: answers({ 201: driverAnswerSchema }), summary: 'Crear conductor', body: driverSchema }, preHandler: fleetStaff },
    async (request, reply) => reply.status(201).send(await createDriver(app, currentUser(request), request.body)),
  );
  app.put(
    '/drivers/:id',
    {
      schema: { tags, response: answers({ 200: driverAnswerSchema }), summary: 'Editar conductor', params: idParams, body: driverSchema },
      preHandler: fleetStaff,
    },
    async (request) => updateDriver(app, currentUser(request), request.params.id, request.body),
  );
  app.delete(
    '/drivers/:id',
    {
      schema: {
        tags,
        response: answers({ 204: noContentSchema }),
        summary: 'Eliminar conductor (rechazado si está asignado a un transporte)',
        params: idParams,
      },
      preHandler: fleetStaff,
    },
    async (request, reply) => {
      await deleteDriver(app, currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
