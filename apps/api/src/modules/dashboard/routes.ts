import { answers, dashboardQuerySchema, dashboardSchema, destinationDueSchema } from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { currentUser, type App } from '../../types.ts';
import { destinationDue } from '../payments/index.ts';
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
  app.get(
    '/dashboard/destination-due',
    {
      schema: {
        tags: ['dashboard'],
        response: answers({ 200: destinationDueSchema }),
        summary: 'Panel: por cobrar en destino en la sucursal del agente (administrador: todas), En agencia y En tránsito',
      },
      preHandler: guard(app, { roles: ['admin', 'agent'] }),
    },
    async (request) => destinationDue(app, currentUser(request)),
  );
}
