import { z } from 'zod';
import { answers, documentDigitsSchema, normalizeShipmentCode, PUBLIC_TRACKING_MESSAGES, publicTrackingSchema } from '@tramo/domain';
import { notFound } from '../../lib/errors.ts';
import { guard } from '../../plugins/auth.ts';
import type { App } from '../../types.ts';
import { publicProofPdf, publicTracking } from './service.ts';

/**
 * The customer's side (issue 18): no token. The code is taken as any text on purpose: a malformed
 * code must not answer differently (a 400) from an unknown one.
 */
export default async function publicTrackingRoutes(app: App) {
  const tags = ['public'];
  // The link's key, or the recipient's document digits (issue 31, F10).
  const access = z.object({ k: z.string().max(64).optional(), doc: documentDigitsSchema });
  app.get(
    '/public/tracking/:code',
    {
      schema: {
        tags,
        security: [],
        params: z.object({ code: z.string() }),
        querystring: access,
        response: answers({ 200: publicTrackingSchema }),
        summary:
          "Seguimiento público de un envío por código (sin sesión): el estado; con la clave del enlace (k) o los 3 últimos dígitos del documento del destinatario (doc), también ruta, historial sin notas ni usuarios y nombres enmascarados. Código desconocido o mal formado: 404 'No encontramos ese envío.'; dígitos errados: 422; limitado por dirección (429).",
      },
    },
    async (request) => publicTracking(app, request.ip, request.params.code, request.query),
  );
  app.get(
    '/public/tracking/:code/proof.pdf',
    {
      schema: {
        tags,
        security: [],
        params: z.object({ code: z.string() }),
        querystring: access,
        response: answers({ 200: z.string().describe('La constancia de entrega en PDF (application/pdf)') }),
        summary:
          "Constancia de entrega para el cliente (sin sesión): nombres enmascarados, sin documento, foto ni firma. Envío no entregado, desconocido o código mal formado: 404 'No encontramos ese envío.'; sin la clave del enlace (k) ni los dígitos del documento (doc): 403; limitado por dirección.",
      },
    },
    async (request, reply) => {
      const { pdf, code } = await publicProofPdf(app, request.ip, request.params.code, request.query);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="constancia-${code}.pdf"`)
        .header('Cache-Control', 'no-store')
        .send(pdf as unknown as string); // bytes go out as they are; the schema documents them
    },
  );
  app.get(
    '/tracking-links/:code',
    {
      schema: {
        tags,
        params: z.object({ code: z.string() }),
        response: answers({ 200: z.object({ path: z.string() }) }),
        summary: 'Enlace de seguimiento público con su clave (para el QR de la etiqueta): /seguimiento/{code}?k=…',
      },
      // Tracking by code is every staff member's (DESIGN.md section 4); the key only opens what the code names.
      preHandler: guard(app),
    },
    async (request) => {
      const code = normalizeShipmentCode(request.params.code);
      if (!code) throw notFound(PUBLIC_TRACKING_MESSAGES.notFound);
      return { path: app.trackingLinks.path(code) };
    },
  );
}
