import { z } from 'zod';
import {
  answers,
  arrivalSchema,
  departureSchema,
  scanAnswerSchema,
  scanSchema,
  tripAnswerSchema,
  unloadCheckSchema,
  unloadScanAnswerSchema,
} from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { idParams } from '../../lib/schemas.ts';
import { currentUser, type App } from '../../types.ts';
import { transportManifest, tripManifest } from './manifest.ts';
import { arrive, currentTrip, depart, scanToLoad, transportTrips, unloadCheck, unloadScan } from './service.ts';

export default async function tripRoutes(app: App) {
  const tags = ['trips'];
  // Trips are a fleet task (DESIGN.md section 4): admins and agents; the service checks the branch.
  const fleetStaff = guard(app, { roles: ['admin', 'agent'] });

  app.get(
    '/transports/:id/trip',
    {
      schema: {
        tags,
        response: answers({ 200: tripAnswerSchema.nullable() }),
        summary: 'Viaje en curso del transporte (null si no está en ruta)',
        params: idParams,
      },
      preHandler: fleetStaff,
    },
    async (request) => currentTrip(app, request.params.id),
  );
  app.get(
    '/transports/:id/trips',
    {
      schema: {
        tags,
        response: answers({ 200: z.array(tripAnswerSchema) }),
        summary: 'Últimos viajes del transporte (el más reciente primero)',
        params: idParams,
      },
      preHandler: fleetStaff,
    },
    async (request) => transportTrips(app, request.params.id),
  );
  app.post(
    '/transports/:id/departure',
    {
      schema: {
        tags,
        response: answers({ 201: tripAnswerSchema }),
        summary:
          "Registrar salida: los envíos cargados pasan a 'En tránsito' (agencia de origen o admin; no en mantenimiento; sobre la capacidad pide confirmOverload)",
        params: idParams,
        body: departureSchema,
      },
      preHandler: fleetStaff,
    },
    async (request, reply) => reply.status(201).send(await depart(app, currentUser(request), request.params.id, request.body.confirmOverload)),
  );
  app.post(
    '/transports/:id/arrival',
    {
      schema: {
        tags,
        response: answers({ 200: tripAnswerSchema }),
        summary:
          "Registrar llegada: los envíos pasan a 'En agencia' (agencia de destino o admin); con receive='scanned' los no escaneados quedan con incidencia",
        params: idParams,
        body: arrivalSchema,
      },
      preHandler: fleetStaff,
    },
    async (request) => arrive(app, currentUser(request), request.params.id, request.body.receive),
  );
  app.post(
    '/transports/:id/scan',
    {
      schema: {
        tags,
        response: answers({ 200: scanAnswerSchema }),
        summary: 'Cargar un envío escaneado (código + Enter); rechaza otro destino, otro estado o un código desconocido',
        params: idParams,
        body: scanSchema,
      },
      preHandler: fleetStaff,
    },
    async (request) => scanToLoad(app, currentUser(request), request.params.id, request.body.code, request.body.confirmOverload),
  );
  app.get(
    '/transports/:id/unload-check',
    {
      schema: {
        tags,
        response: answers({ 200: unloadCheckSchema }),
        summary: 'Desembarque del viaje en curso: esperados, escaneados, faltantes y sobrantes',
        params: idParams,
      },
      preHandler: fleetStaff,
    },
    async (request) => unloadCheck(app.db, currentUser(request), request.params.id),
  );
  app.post(
    '/transports/:id/unload-scans',
    {
      schema: {
        tags,
        response: answers({ 200: unloadScanAnswerSchema }),
        summary: 'Escanear un envío que baja del transporte en el desembarque',
        params: idParams,
        body: scanSchema,
      },
      preHandler: fleetStaff,
    },
    async (request) => unloadScan(app, currentUser(request), request.params.id, request.body.code),
  );
  const pdfAnswer = answers({ 200: z.string().describe('El PDF (application/pdf)') });
  app.get(
    '/transports/:id/manifest.pdf',
    {
      schema: {
        tags,
        response: pdfAnswer,
        summary: 'Manifiesto de carga (A4) del viaje en curso, o de la carga actual como borrador antes de la salida',
        params: idParams,
      },
      preHandler: fleetStaff,
    },
    async (request, reply) => {
      const { pdf, filename } = await transportManifest(app, currentUser(request), request.params.id);
      // Bytes go out as they are; the schema documents them.
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${filename}"`)
        .send(pdf as unknown as string);
    },
  );
  app.get(
    '/trips/:id/manifest.pdf',
    {
      schema: { tags, response: pdfAnswer, summary: 'Manifiesto de carga (A4) de un viaje', params: idParams },
      preHandler: fleetStaff,
    },
    async (request, reply) => {
      const { pdf, filename } = await tripManifest(app, currentUser(request), request.params.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${filename}"`)
        .send(pdf as unknown as string);
    },
  );
}
