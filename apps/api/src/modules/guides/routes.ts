import {
  answers,
  carrierGuideAnswerSchema,
  carrierGuidesAnswerSchema,
  senderGuideAnswerSchema,
  senderGuideSchema,
  documentStateSchema,
  guideConsultRequestSchema,
  guidePayloadSchema,
  issueResultSchema,
  perceptionPayloadSchema,
  providerAnnulRequestSchema,
  providerRefRequestSchema,
  retentionPayloadSchema,
} from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { idParams } from '../../lib/schemas.ts';
import { currentUser, type App } from '../../types.ts';
import { buildCarrierGuide } from './carrier-guide.ts';
import { issueCarrierGuide, issueCarrierGuides } from './carrier-guides.ts';
import { setSenderGuide } from './sender-guides.ts';
import { consultGuide, createEmitGuide, createEmitVoucher, providerAnnul, providerAnnulStatus, providerConsult } from './service.ts';

/** Create/emit answers carry the issue result even when refused (422) or when the provider failed (424). */
const issueAnswers = {
  ...answers({ 200: issueResultSchema, 201: issueResultSchema, 202: issueResultSchema }),
  422: issueResultSchema,
  424: issueResultSchema,
};

/**
 * Dispatch guides and retention/perception vouchers (issue 15), on the spec's paths; and the
 * provider operations the spec names after the billing provider (`/payments/nubefact/…`), which
 * act through whichever adapter is active.
 */
export default async function guidesRoutes(app: App) {
  // As billing (DESIGN.md section 5a): admins and agents; agents act on their branch's documents.
  const staff = guard(app, { roles: ['admin', 'agent'] });

  app.post(
    '/guides/create-emit',
    {
      schema: {
        tags: ['guides'],
        summary:
          'Emitir guía de remisión remitente (09) o transportista (31): 201 aceptada; 202 pendiente en SUNAT (sin PDF aún: consultar); 200 misma codigo_unico; 422 con problems bajo "Corrige:"; 424 el proveedor falló',
        body: guidePayloadSchema,
        response: issueAnswers,
      },
      preHandler: staff,
    },
    async (request, reply) => {
      const answer = await createEmitGuide(app, currentUser(request), request.body);
      return reply.status(answer.statusCode).send(answer.result);
    },
  );
  app.post(
    '/guides/consult',
    {
      schema: {
        tags: ['guides'],
        summary: 'Consultar una guía (completa la pendiente; enlace_del_pdf llega cuando SUNAT la acepta)',
        body: guideConsultRequestSchema,
        response: answers({ 200: issueResultSchema }),
      },
      preHandler: staff,
    },
    async (request) => consultGuide(app, currentUser(request), request.body.tipo, request.body.serie, request.body.numero),
  );
  for (const kind of ['retencion', 'percepcion'] as const) {
    app.post(
      `/${kind}/create-emit`,
      {
        schema: {
          tags: ['guides'],
          summary:
            kind === 'retencion'
              ? 'Emitir comprobante de retención (20, RRR1, 3.00 % por defecto): 201 emitido; 422 con problems bajo "Corrige:"'
              : 'Emitir comprobante de percepción (40, PPP1, 2.00 % por defecto): 201 emitido; 422 con problems bajo "Corrige:"',
          body: kind === 'retencion' ? retentionPayloadSchema : perceptionPayloadSchema,
          response: issueAnswers,
        },
        preHandler: staff,
      },
      async (request, reply) => {
        const answer = await createEmitVoucher(app, currentUser(request), kind, request.body);
        return reply.status(answer.statusCode).send(answer.result);
      },
    );
  }
  app.post(
    '/payments/nubefact/consult',
    {
      schema: {
        tags: ['guides'],
        summary: 'Consultar cualquier documento (tipo SUNAT o de Nubefact, serie, número) con el proveedor activo',
        body: providerRefRequestSchema,
        response: answers({ 200: documentStateSchema }),
      },
      preHandler: staff,
    },
    async (request) => providerConsult(app, currentUser(request), request.body),
  );
  app.post(
    '/payments/nubefact/annul',
    {
      schema: {
        tags: ['guides'],
        summary:
          'Anular cualquier documento con el proveedor activo (baja o resumen; reversión para retención y percepción); motivo obligatorio; la misma codigo_unico responde el estado de la anulación ya pedida',
        body: providerAnnulRequestSchema,
        response: answers({ 200: documentStateSchema }),
      },
      preHandler: staff,
    },
    async (request) => providerAnnul(app, currentUser(request), request.body),
  );
  app.post(
    '/payments/nubefact/annul-status',
    {
      schema: {
        tags: ['guides'],
        summary: 'Estado de la anulación de un documento (consulta al proveedor si está pendiente)',
        body: providerRefRequestSchema,
        response: answers({ 200: documentStateSchema }),
      },
      preHandler: staff,
    },
    async (request) => providerAnnulStatus(app, currentUser(request), request.body),
  );
  app.get(
    '/transports/:id/carrier-guide',
    {
      schema: {
        tags: ['guides', 'fleet'],
        summary: 'Guía de remisión transportista armada con la carga del transporte, para revisar (422 si no hay envíos cargados)',
        params: idParams,
        response: answers({ 200: carrierGuideAnswerSchema }),
      },
      preHandler: staff,
    },
    async (request) => buildCarrierGuide(app, currentUser(request), request.params.id),
  );
  app.post(
    '/transports/:id/carrier-guide',
    {
      schema: {
        tags: ['guides', 'fleet'],
        summary:
          'Emitir la guía transportista revisada de la carga del transporte (vincula los envíos cargados); respuestas como /guides/create-emit',
        params: idParams,
        body: guidePayloadSchema,
        response: issueAnswers,
      },
      preHandler: staff,
    },
    async (request, reply) => {
      const answer = await issueCarrierGuide(app, currentUser(request), request.params.id, request.body);
      return reply.status(answer.statusCode).send(answer.result);
    },
  );
  app.post(
    '/transports/:id/carrier-guides',
    {
      schema: {
        tags: ['guides', 'fleet'],
        summary:
          "'Emitir guías': una guía transportista por cada par remitente/destinatario de la carga que aún no tiene guía (cada una referencia la GRE remitente de sus envíos); 409 si todos tienen guía",
        params: idParams,
        response: answers({ 200: carrierGuidesAnswerSchema }),
      },
      preHandler: staff,
    },
    async (request) => issueCarrierGuides(app, currentUser(request), request.params.id),
  );
  app.put(
    '/shipments/:id/sender-guide',
    {
      schema: {
        tags: ['guides', 'shipments'],
        summary: 'Registrar la GRE remitente que emitió el remitente para el envío (la guía transportista de la carga la referencia)',
        params: idParams,
        body: senderGuideSchema,
        response: answers({ 200: senderGuideAnswerSchema }),
      },
      preHandler: staff,
    },
    async (request) => setSenderGuide(app, currentUser(request), request.params.id, request.body),
  );
}
