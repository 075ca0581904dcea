import { answers, changePasswordSchema, loginSchema, sessionSchema, userAnswerSchema } from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { currentUser, type App } from '../../types.ts';
import { toUserDto } from '../users/index.ts';
import { changePassword, login } from './service.ts';

export default async function authRoutes(app: App) {
  app.post(
    '/auth/login',
    { schema: { tags: ['auth'], response: answers({ 200: sessionSchema }), summary: 'Iniciar sesión', body: loginSchema } },
    async (request) => login(app, request.body, request.ip),
  );

  app.post(
    '/auth/change-password',
    {
      schema: { tags: ['auth'], response: answers({ 200: sessionSchema }), summary: 'Cambiar contraseña', body: changePasswordSchema },
      preHandler: guard(app, { allowMustChange: true }),
    },
    async (request) => changePassword(app, currentUser(request), request.body),
  );

  app.get(
    '/auth/me',
    {
      schema: { tags: ['auth'], response: answers({ 200: userAnswerSchema }), summary: 'Usuario de la sesión' },
      preHandler: guard(app, { allowMustChange: true }),
    },
    async (request) => toUserDto(currentUser(request)),
  );
}
