import { z } from 'zod';
import {
  answers,
  customerAnswerSchema,
  customerPageSchema,
  customerSchema,
  isCleanText,
  lookupAnswerSchema,
  noContentSchema,
  PRIMITIVE_MESSAGES,
  searchTerm,
  STAFF_ROLES,
} from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { idParams, pagingQuery } from '../../lib/schemas.ts';
import { currentUser, type App } from '../../types.ts';
import { createCustomer, deleteCustomer, getCustomer, listCustomers, lookupDocument, updateCustomer } from './service.ts';

const numberParams = z.object({
  n: z
    .string()
    .trim()
    .max(20, 'Número demasiado largo')
    .refine((v) => isCleanText(v), PRIMITIVE_MESSAGES.controlChars),
});

export default async function customerRoutes(app: App) {
  const tags = ['customers'];
  const staff = guard(app, { roles: STAFF_ROLES });

  app.get(
    '/customers',
    {
      schema: {
        tags,
        response: answers({ 200: customerPageSchema }),
        summary:
          'Buscar clientes por nombre, documento, teléfono o correo ({items,total,page,pageSize}; sin page/pageSize: página 1 de 50; pageSize hasta 1000)',
        querystring: pagingQuery.extend({ q: searchTerm(100) }),
      },
      preHandler: staff,
    },
    async (request) => {
      const { q, page, pageSize } = request.query;
      return listCustomers(app, q, page, pageSize);
    },
  );
  app.get(
    '/customers/:id',
    { schema: { tags, response: answers({ 200: customerAnswerSchema }), summary: 'Ver cliente', params: idParams }, preHandler: staff },
    async (request) => getCustomer(app, request.params.id),
  );
  app.post(
    '/customers',
    {
      schema: {
        tags,
        response: answers({ 201: customerAnswerSchema }),
        summary: 'Crear cliente (doc_type 1, 4, 6 o 7, número o texto)',
        body: customerSchema,
      },
      preHandler: staff,
    },
    async (request, reply) => reply.status(201).send(await createCustomer(app, currentUser(request), request.body)),
  );
  app.put(
    '/customers/:id',
    {
      schema: { tags, response: answers({ 200: customerAnswerSchema }), summary: 'Editar cliente', params: idParams, body: customerSchema },
      preHandler: staff,
    },
    async (request) => updateCustomer(app, currentUser(request), request.params.id, request.body),
  );
  app.delete(
    '/customers/:id',
    {
      schema: {
        tags,
        response: answers({ 204: noContentSchema }),
        summary: 'Eliminar cliente (409 si tiene envíos u otros registros)',
        params: idParams,
      },
      preHandler: staff,
    },
    async (request, reply) => {
      await deleteCustomer(app, currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  const lookupSummary = (what: string) => `Consultar ${what}: 400 número mal formado, 404 desconocido, 424 servicio externo no disponible`;
  app.get(
    '/lookup/dni/:n',
    {
      schema: { tags: ['lookup'], response: answers({ 200: lookupAnswerSchema }), summary: lookupSummary('DNI (RENIEC)'), params: numberParams },
      preHandler: staff,
    },
    async (request) => lookupDocument(app, 'dni', request.params.n),
  );
  app.get(
    '/lookup/ruc/:n',
    {
      schema: { tags: ['lookup'], response: answers({ 200: lookupAnswerSchema }), summary: lookupSummary('RUC (SUNAT)'), params: numberParams },
      preHandler: staff,
    },
    async (request) => lookupDocument(app, 'ruc', request.params.n),
  );
}
