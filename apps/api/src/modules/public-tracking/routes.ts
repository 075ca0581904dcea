import { z } from 'zod';
import { answers, publicTrackingSchema } from '@tramo/domain';
import type { App } from '../../types.ts';
import { publicProofPdf, publicTracking } from './service.ts';

/**
 * The customer's side (issue 18): no token. The code is taken as any text on purpose: a malformed
 * code must not answer differently (a 400) from an unknown one.
 */
export default async function publicTrackingRoutes(app: App) {
  const tags = ['public'];
  app.get(
    '/public/tracking/:code',
    {
      schema: {
        tags,
        security: [],
        params: z.object({ code: z.string() }),
        response: answers({ 200: publicTrackingSchema }),
        summary:
          "Seguimiento público de un envío por código (sin sesión): estado, ruta, historial sin notas ni usuarios, nombres enmascarados. Código desconocido o mal formado: 404 'No encontramos ese envío.'; limitado por dirección (429).",
      },
    },
    async (request) => publicTracking(app, request.ip, request.params.code),
  );
  app.get(
    '/public/tracking/:code/proof.pdf',
    {
      schema: {
        tags,
        security: [],
        params: z.object({ code: z.string() }),
        response: answers({ 200: z.string().describe('La constancia de entrega en PDF (application/pdf)') }),
        summary:
          "Constancia de entrega para el cliente (sin sesión): nombres enmascarados, sin documento, foto ni firma. Envío no entregado, desconocido o código mal formado: 404 'No encontramos ese envío.'; limitado por dirección.",
      },
    },
    async (request, reply) => {
      const { pdf, code } = await publicProofPdf(app, request.ip, request.params.code);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="constancia-${code}.pdf"`)
        .header('Cache-Control', 'no-store')
        .send(pdf as unknown as string); // bytes go out as they are; the schema documents them
    },
  );
}
