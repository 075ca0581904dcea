import { z } from 'zod';
import { answers, branchAnswerSchema, branchSchema, noContentSchema, searchTerm } from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { idParams, pagingQuery } from '../../lib/schemas.ts';
import { currentUser, type App } from '../../types.ts';
import { createBranch, deleteBranch, listBranches, updateBranch } from './service.ts';

export default async function branchRoutes(app: App) {
  const tags = ['branches'];
  const anyUser = guard(app);
  const adminOnly = guard(app, { roles: ['admin'] });

  app.get(
    '/branches',
    {
      schema: {
        tags,
        response: answers({ 200: z.array(branchAnswerSchema) }),
        summary: 'Listar sucursales (arreglo; total en X-Total-Count)',
        querystring: pagingQuery.extend({ q: searchTerm(100) }),
      },
      preHandler: anyUser,
    },
    async (request, reply) => {
      const { q, page, pageSize } = request.query;
      const { items, total } = await listBranches(app, q, page, pageSize);
      reply.header('X-Total-Count', String(total));
      return items;
    },
  );
  app.post(
    '/branches',
    { schema: { tags, response: answers({ 201: branchAnswerSchema }), summary: 'Crear sucursal', body: branchSchema }, preHandler: adminOnly },
    async (request, reply) => reply.status(201).send(await createBranch(app, currentUser(request), request.body)),
  );
  app.put(
    '/branches/:id',
    {
      schema: { tags, response: answers({ 200: branchAnswerSchema }), summary: 'Editar sucursal', params: idParams, body: branchSchema },
      preHandler: adminOnly,
    },
    async (request) => updateBranch(app, currentUser(request), request.params.id, request.body),
  );
  app.delete(
    '/branches/:id',
    { schema: { tags, response: answers({ 204: noContentSchema }), summary: 'Eliminar sucursal', params: idParams }, preHandler: adminOnly },
    async (request, reply) => {
      await deleteBranch(app, currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
