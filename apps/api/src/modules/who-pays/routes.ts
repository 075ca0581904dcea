import { answers, whoPaysRulesAnswerSchema, whoPaysRulesSchema } from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { currentUser, type App } from '../../types.ts';
import { readWhoPaysRules, saveWhoPaysRules } from './rules.ts';

export default async function whoPaysRoutes(app: App) {
  const tags = ['who-pays'];
  app.get(
    '/settings/who-pays',
    {
      schema: {
        tags,
        response: answers({ 200: whoPaysRulesAnswerSchema }),
        summary: 'Reglas de cobro: flete máximo y peso para pago en destino, rutas que no lo admiten, medios de pago por sucursal',
      },
      preHandler: guard(app, { roles: ['admin', 'agent'] }),
    },
    async () => readWhoPaysRules(app.db),
  );
  app.put(
    '/settings/who-pays',
    {
      schema: {
        tags,
        body: whoPaysRulesSchema,
        response: answers({ 200: whoPaysRulesAnswerSchema }),
        summary: 'Guardar las reglas de cobro (solo administrador; reemplaza todas; auditado)',
      },
      preHandler: guard(app, { roles: ['admin'] }),
    },
    async (request) => saveWhoPaysRules(app, currentUser(request), request.body),
  );
}
