import { z } from 'zod';
import { answers, createdUserSchema, noContentSchema, searchTerm, tempPasswordSchema, userAnswerSchema, userSchema } from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { idParams } from '../../lib/schemas.ts';
import { currentUser, type App } from '../../types.ts';
import { createUser, deleteUser, listUsers, resetPassword, unlockUser, updateUser } from './service.ts';

export default async function userRoutes(app: App) {
  const adminOnly = guard(app, { roles: ['admin'] });
  const tags = ['users'];

  app.get(
    '/users',
    {
      schema: {
        tags,
        response: answers({ 200: z.array(userAnswerSchema) }),
        summary: 'Listar usuarios',
        querystring: z.object({ q: searchTerm(100) }),
      },
      preHandler: adminOnly,
    },
    async (request) => listUsers(app, request.query.q),
  );
  app.post(
    '/users',
    {
      schema: {
        tags,
        response: answers({ 201: createdUserSchema }),
        summary: 'Crear usuario (devuelve la contraseña temporal una vez)',
        body: userSchema,
      },
      preHandler: adminOnly,
    },
    async (request, reply) => reply.status(201).send(await createUser(app, currentUser(request), request.body)),
  );
  app.put(
    '/users/:id',
    {
      schema: { tags, response: answers({ 200: userAnswerSchema }), summary: 'Editar usuario', params: idParams, body: userSchema },
      preHandler: adminOnly,
    },
    async (request) => updateUser(app, currentUser(request), request.params.id, request.body),
  );
  app.delete(
    '/users/:id',
    { schema: { tags, response: answers({ 204: noContentSchema }), summary: 'Eliminar usuario', params: idParams }, preHandler: adminOnly },
    async (request, reply) => {
      await deleteUser(app, currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/users/:id/reset-password',
    {
      schema: {
        tags,
        response: answers({ 200: tempPasswordSchema }),
        summary: 'Restablecer contraseña (temporal, se muestra una vez)',
        params: idParams,
      },
      preHandler: adminOnly,
    },
    async (request) => resetPassword(app, currentUser(request), request.params.id),
  );
  app.post(
    '/users/:id/unlock',
    {
      schema: {
        tags,
        response: answers({ 200: userAnswerSchema }),
        summary: 'Desbloquear el inicio de sesión (tras intentos fallidos)',
        params: idParams,
      },
      preHandler: adminOnly,
    },
    async (request) => unlockUser(app, currentUser(request), request.params.id),
  );
}
