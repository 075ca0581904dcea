import { z } from 'zod';
import { answers, publicTrackingSchema } from '@tramo/domain';
import type { App } from '../../types.ts';
import { publicTracking } from './service.ts';

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
}
