import { changePasswordSchema, loginSchema } from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { currentUser, type App } from '../../types.ts';
import { toUserDto } from '../users/dto.ts';
import { changePassword, login } from './service.ts';

export default async function authRoutes(app: App) {
  app.post('/auth/login', { schema: { tags: ['auth'], summary: 'Iniciar sesión', body: loginSchema } }, async (request) =>
    login(app, request.body, request.ip),
  );

  app.post(
    '/auth/change-password',
    {
      schema: { tags: ['auth'], summary: 'Cambiar contraseña', body: changePasswordSchema },
      preHandler: guard(app, { allowMustChange: true }),
    },
    async (request) => changePassword(app, currentUser(request), request.body),
  );

  app.get(
    '/auth/me',
    { schema: { tags: ['auth'], summary: 'Usuario de la sesión' }, preHandler: guard(app, { allowMustChange: true }) },
    async (request) => toUserDto(currentUser(request)),
  );
}
