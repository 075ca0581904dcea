import { z } from 'zod';
import {
  answers,
  complianceAnswerSchema,
  complianceOverrideAnswerSchema,
  complianceOverrideSchema,
  FLEET_DOCUMENT_BODY_LIMIT,
  fleetDocumentAnswerSchema,
  fleetDocumentQuerySchema,
  fleetDocumentSchema,
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
import { createOverride, transportCompliance } from './compliance.ts';
import { addDocument, deleteDocument, documentFile, expiringDocuments, listHolderDocuments, type Holder } from './documents.ts';
import { createDriver, deleteDriver, listDrivers, updateDriver } from './drivers.ts';
import { createTransport, deleteTransport, listTransports, updateTransport } from './transports.ts';

const assignmentParams = idParams.extend({ assignmentId: recordId() });
const documentParams = idParams.extend({ documentId: recordId() });

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

  // Issue 36: documents with expiry per vehicle and per driver, the same routes for both holders.
  for (const kind of ['transport', 'driver'] as const) {
    const base = kind === 'transport' ? '/transports/:id/documents' : '/drivers/:id/documents';
    const who = kind === 'transport' ? 'del vehículo (SOAT, CITV, TUC, seguro)' : 'del conductor (licencia, examen médico)';
    const holder = (id: number): Holder => ({ kind, id });
    app.get(
      base,
      {
        schema: { tags, response: answers({ 200: z.array(fleetDocumentAnswerSchema) }), summary: `Documentos ${who}`, params: idParams },
        preHandler: fleetStaff,
      },
      async (request) => listHolderDocuments(app, holder(request.params.id)),
    );
    app.post(
      base,
      {
        schema: {
          tags,
          response: answers({ 201: fleetDocumentAnswerSchema }),
          summary: `Registrar un documento ${who}, con archivo opcional (foto JPG/PNG o PDF como data URL)`,
          params: idParams,
          body: fleetDocumentSchema,
        },
        bodyLimit: FLEET_DOCUMENT_BODY_LIMIT,
        preHandler: fleetStaff,
      },
      async (request, reply) => reply.status(201).send(await addDocument(app, currentUser(request), holder(request.params.id), request.body)),
    );
    app.delete(
      `${base}/:documentId`,
      {
        schema: { tags, response: answers({ 204: noContentSchema }), summary: `Eliminar un documento ${who}`, params: documentParams },
        preHandler: fleetStaff,
      },
      async (request, reply) => {
        await deleteDocument(app, currentUser(request), holder(request.params.id), request.params.documentId);
        return reply.status(204).send(null);
      },
    );
    app.get(
      `${base}/:documentId/file`,
      {
        schema: {
          tags,
          summary: `Archivo de un documento ${who}`,
          params: documentParams,
          response: answers({ 200: z.string().describe('El archivo (JPG, PNG o PDF)') }),
        },
        preHandler: fleetStaff,
      },
      async (request, reply) => {
        const file = await documentFile(app, holder(request.params.id), request.params.documentId);
        return reply
          .type(file.type)
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('cache-control', 'no-store')
          .send(file.bytes as unknown as string); // bytes go out as they are; the schema documents them
      },
    );
  }
  app.get(
    '/fleet-documents',
    {
      schema: {
        tags,
        response: answers({ 200: z.array(fleetDocumentAnswerSchema) }),
        summary: 'Documentos de la flota por vencimiento (within=7|15|30: los que vencen en ese plazo o ya vencieron)',
        querystring: fleetDocumentQuerySchema,
      },
      preHandler: fleetStaff,
    },
    async (request) => expiringDocuments(app, request.query.within),
  );
  app.get(
    '/transports/:id/compliance',
    {
      schema: {
        tags,
        response: answers({ 200: complianceAnswerSchema }),
        summary: 'Si el transporte puede cargar y salir hoy: el primer documento vencido o faltante, y la excepción pendiente',
        params: idParams,
      },
      preHandler: fleetStaff,
    },
    async (request) => transportCompliance(app, request.params.id),
  );
  app.post(
    '/transports/:id/compliance-override',
    {
      schema: {
        tags,
        response: answers({ 201: complianceOverrideAnswerSchema }),
        summary: 'Excepción de administrador: deja cargar y hacer una salida pese a un documento vencido (con motivo, auditada)',
        params: idParams,
        body: complianceOverrideSchema,
      },
      preHandler: guard(app, { roles: ['admin'] }),
    },
    async (request, reply) => reply.status(201).send(await createOverride(app, currentUser(request), request.params.id, request.body.reason)),
  );
}
