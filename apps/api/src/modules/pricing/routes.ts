import { z } from 'zod';
import {
  answers,
  createWeightFactorSchema,
  productTypeSchema,
  quoteAnswerSchema,
  quoteQuerySchema,
  recordIdFilter,
  tierListSchema,
  weightFactorSummarySchema,
  weightFactorTableSchema,
} from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { idParams } from '../../lib/schemas.ts';
import { currentUser, type App } from '../../types.ts';
import { quoteRoute } from './quote.ts';
import referenceValueRoutes from './reference-values.ts';
import tariffRoutes from './tariff-routes.ts';
import { createWeightFactor, listWeightFactors, replaceTiers, weightFactorSummary } from './service.ts';

const optionalId = recordIdFilter;

const listQuery = z.object({
  originId: optionalId('Origen inválido'),
  destinationId: optionalId('Destino inválido'),
  productType: productTypeSchema.optional(),
  active: z
    .enum(['true', 'false'], { error: 'Use true o false' })
    .transform((v) => v === 'true')
    .optional(),
});

export default async function pricingRoutes(app: App) {
  const tags = ['pricing'];
  // DESIGN.md section 4: pricing (Factor Peso) is staff work; couriers neither read nor quote.
  const staff = guard(app, { roles: ['admin', 'agent'] });
  await app.register(tariffRoutes);
  await app.register(referenceValueRoutes);

  // Static paths first: /quote and /summary must never be read as an id.
  app.get(
    '/weight-factors/quote',
    {
      schema: {
        tags,
        response: answers({ 200: quoteAnswerSchema }),
        summary: 'Cotizar un envío por ruta, categoría y peso',
        querystring: quoteQuerySchema,
      },
      preHandler: staff,
    },
    async (request) => {
      const { priceCents: _cents, ...quote } = await quoteRoute(app.db, request.query);
      return quote;
    },
  );
  app.get(
    '/weight-factors/summary',
    {
      schema: {
        tags,
        response: answers({ 200: z.array(weightFactorSummarySchema) }),
        summary: 'Resumen de tablas activas con precios de ejemplo (1 y 10 kg)',
      },
      preHandler: staff,
    },
    async () => weightFactorSummary(app),
  );
  app.get(
    '/weight-factors',
    {
      schema: {
        tags,
        response: answers({ 200: z.array(weightFactorTableSchema) }),
        summary: 'Tablas de factor peso con sus tramos',
        querystring: listQuery,
      },
      preHandler: staff,
    },
    async (request) => listWeightFactors(app, request.query),
  );
  app.post(
    '/weight-factors',
    {
      schema: {
        tags,
        response: answers({ 201: weightFactorTableSchema }),
        summary: 'Crear tabla (con los tramos por defecto)',
        body: createWeightFactorSchema,
      },
      preHandler: staff,
    },
    async (request, reply) => reply.status(201).send(await createWeightFactor(app, currentUser(request), request.body)),
  );
  app.put(
    '/weight-factors/:id/tiers',
    {
      schema: {
        tags,
        response: answers({ 200: weightFactorTableSchema }),
        summary: 'Reemplazar todos los tramos de una tabla',
        params: idParams,
        body: tierListSchema,
      },
      preHandler: staff,
    },
    async (request) => replaceTiers(app, currentUser(request), request.params.id, request.body.tiers),
  );
}
