import { answers, reconciliationSchema } from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import type { App } from '../../types.ts';
import { reconcile } from './service.ts';

export default async function reconciliationRoutes(app: App) {
  // The check reads every branch's money: admins only (DESIGN.md 5b).
  const admin = guard(app, { roles: ['admin'] });
  app.get(
    '/reconciliation',
    {
      schema: {
        tags: ['reconciliation'],
        response: answers({ 200: reconciliationSchema }),
        summary: 'Conciliación: las reglas del libro de caja y comprobantes comprobadas sobre toda la base, con sus violaciones (solo administrador)',
      },
      preHandler: admin,
    },
    async () => reconcile(app.db, app.now()),
  );
}
