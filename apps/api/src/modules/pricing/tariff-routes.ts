import { z } from 'zod';
import {
  answers,
  articleAnswerSchema,
  articleBodySchema,
  articlePriceAnswerSchema,
  articlePriceBodySchema,
  cloneTariffBodySchema,
  customerRoutePricesAnswerSchema,
  customerRoutePricesBodySchema,
  customerTariffAnswerSchema,
  customerTariffBodySchema,
  routeTariffAnswerSchema,
  routeTariffBodySchema,
  surchargeAnswerSchema,
  surchargeBodySchema,
  tariffQuoteAnswerSchema,
  tariffQuoteBodySchema,
  tariffSettingsAnswerSchema,
  tariffSettingsBodySchema,
} from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { idParams } from '../../lib/schemas.ts';
import { currentUser, type App } from '../../types.ts';
import {
  cloneTariff,
  createArticle,
  getCustomerTariff,
  getTariffSettings,
  listArticlePrices,
  listArticles,
  listRouteTariffs,
  listSurcharges,
  putArticlePrice,
  putCustomerTariff,
  putRouteTariff,
  putSurcharge,
  putTariffSettings,
  quoteTariff,
} from './tariff-service.ts';
import { listCustomerRoutePrices, putCustomerRoutePrices } from './customer-tariffs.ts';

const codeParams = z.object({ code: z.string().regex(/^[a-z_]{2,30}$/, 'Código de recargo inválido (minúsculas y _).') });

/** Issue 34: the quote of every component and the tariff catalogues (pricing is staff work; company settings are the admin's). */
export default async function tariffRoutes(app: App) {
  const tags = ['pricing'];
  const staff = guard(app, { roles: ['admin', 'agent'] });
  const adminOnly = guard(app, { roles: ['admin'] });

  app.post(
    '/quotes',
    {
      schema: {
        tags,
        summary: 'Cotizar un envío con todos sus componentes',
        body: tariffQuoteBodySchema,
        response: answers({ 200: tariffQuoteAnswerSchema }),
      },
      preHandler: staff,
    },
    async (request) => quoteTariff(app, request.body),
  );
  app.get(
    '/tariffs/settings',
    {
      schema: { tags, summary: 'Divisor volumétrico, seguro y cláusula de responsabilidad', response: answers({ 200: tariffSettingsAnswerSchema }) },
      preHandler: staff,
    },
    async () => getTariffSettings(app),
  );
  app.put(
    '/tariffs/settings',
    {
      schema: {
        tags,
        summary: 'Cambiar divisor, seguro y cláusula',
        body: tariffSettingsBodySchema,
        response: answers({ 200: tariffSettingsAnswerSchema }),
      },
      preHandler: adminOnly,
    },
    async (request) => putTariffSettings(app, currentUser(request), request.body),
  );
  app.get(
    '/tariffs/articles',
    { schema: { tags, summary: 'Catálogo de artículos', response: answers({ 200: z.array(articleAnswerSchema) }) }, preHandler: staff },
    async () => listArticles(app),
  );
  app.post(
    '/tariffs/articles',
    { schema: { tags, summary: 'Crear artículo', body: articleBodySchema, response: answers({ 201: articleAnswerSchema }) }, preHandler: staff },
    async (request, reply) => reply.status(201).send(await createArticle(app, currentUser(request), request.body)),
  );
  app.get(
    '/tariffs/articles/:id/prices',
    {
      schema: { tags, summary: 'Precios de un artículo por ruta', params: idParams, response: answers({ 200: z.array(articlePriceAnswerSchema) }) },
      preHandler: staff,
    },
    async (request) => listArticlePrices(app, request.params.id),
  );
  app.put(
    '/tariffs/articles/:id/prices',
    {
      schema: {
        tags,
        summary: 'Fijar el precio de un artículo en una ruta',
        params: idParams,
        body: articlePriceBodySchema,
        response: answers({ 200: articlePriceAnswerSchema }),
      },
      preHandler: staff,
    },
    async (request) => putArticlePrice(app, currentUser(request), request.params.id, request.body),
  );
  app.get(
    '/tariffs/routes',
    { schema: { tags, summary: 'Cargo mínimo y divisor por ruta', response: answers({ 200: z.array(routeTariffAnswerSchema) }) }, preHandler: staff },
    async () => listRouteTariffs(app),
  );
  app.put(
    '/tariffs/routes',
    {
      schema: {
        tags,
        summary: 'Fijar cargo mínimo y divisor de una ruta',
        body: routeTariffBodySchema,
        response: answers({ 200: routeTariffAnswerSchema }),
      },
      preHandler: staff,
    },
    async (request) => putRouteTariff(app, currentUser(request), request.body),
  );
  app.get(
    '/tariffs/surcharges',
    { schema: { tags, summary: 'Catálogo de recargos', response: answers({ 200: z.array(surchargeAnswerSchema) }) }, preHandler: staff },
    async () => listSurcharges(app),
  );
  app.put(
    '/tariffs/surcharges/:code',
    {
      schema: {
        tags,
        summary: 'Crear o cambiar un recargo',
        params: codeParams,
        body: surchargeBodySchema,
        response: answers({ 200: surchargeAnswerSchema }),
      },
      preHandler: staff,
    },
    async (request) => putSurcharge(app, currentUser(request), request.params.code, request.body),
  );
  app.get(
    '/tariffs/customers/:id',
    {
      schema: { tags, summary: 'Tarifa de un cliente (descuento)', params: idParams, response: answers({ 200: customerTariffAnswerSchema }) },
      preHandler: staff,
    },
    async (request) => getCustomerTariff(app, request.params.id),
  );
  app.put(
    '/tariffs/customers/:id',
    {
      schema: {
        tags,
        summary: 'Fijar el descuento de un cliente',
        params: idParams,
        body: customerTariffBodySchema,
        response: answers({ 200: customerTariffAnswerSchema }),
      },
      preHandler: staff,
    },
    async (request) => putCustomerTariff(app, currentUser(request), request.params.id, request.body),
  );
  app.get(
    '/tariffs/customers/:id/routes',
    {
      schema: {
        tags,
        summary: 'Tramos y precios de artículos propios de un cliente, por ruta',
        params: idParams,
        response: answers({ 200: z.array(customerRoutePricesAnswerSchema) }),
      },
      preHandler: staff,
    },
    async (request) => listCustomerRoutePrices(app, request.params.id),
  );
  app.put(
    '/tariffs/customers/:id/routes',
    {
      schema: {
        tags,
        summary: 'Fijar los tramos y precios propios de un cliente en una ruta (vacíos: se quitan)',
        params: idParams,
        body: customerRoutePricesBodySchema,
        response: answers({ 200: customerRoutePricesAnswerSchema }),
      },
      preHandler: staff,
    },
    async (request) => putCustomerRoutePrices(app, currentUser(request), request.params.id, request.body),
  );
  app.post(
    '/tariffs/clone',
    {
      schema: {
        tags,
        summary: 'Clonar tarifa de una ruta a otras',
        body: cloneTariffBodySchema,
        response: answers({
          200: z.object({
            from: z.object({ originBranchId: z.number(), destinationBranchId: z.number() }),
            to: z.array(z.object({ originBranchId: z.number(), destinationBranchId: z.number() })),
            articlePrices: z.number(),
            minimumCharge: z.number(),
          }),
        }),
      },
      preHandler: staff,
    },
    async (request) => cloneTariff(app, currentUser(request), request.body),
  );
}
