import { answers, dashboardQuerySchema, dashboardSchema } from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { currentUser, type App } from '../../types.ts';
import { dashboard } from './service.ts';

export default async function dashboardRoutes(app: App) {
  // DESIGN.md section 4: every role sees the Panel of the shipments it may see.
  const anyUser = guard(app);
  app.get(
    '/dashboard',
    {
      schema: {
        tags: ['dashboard'],
        response: answers({ 200: dashboardSchema }),
        summary: 'Panel: contadores y serie diaria por estado',
        querystring: dashboardQuerySchema,
      },
      preHandler: anyUser,
    },
    async (request) => dashboard(app, currentUser(request), request.query),
  );
}
