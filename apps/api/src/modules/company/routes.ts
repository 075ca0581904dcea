import { z } from 'zod';
import { answers, COMPANY_BODY_LIMIT, companyAnswerSchema, companySchema } from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { currentUser, type App } from '../../types.ts';
import { companyLogo, getCompany, updateCompany } from './service.ts';

export default async function companyRoutes(app: App) {
  // Company data is a company-wide setting: admins only (DESIGN.md 5b).
  const admin = guard(app, { roles: ['admin'] });
  const tags = ['settings'];
  app.get(
    '/settings/company',
    {
      schema: {
        tags,
        response: answers({ 200: companyAnswerSchema }),
        summary: 'Datos de la empresa: RUC, razón social, dirección, registro MTC y logo (solo administrador)',
      },
      preHandler: admin,
    },
    async () => getCompany(app),
  );
  app.put(
    '/settings/company',
    {
      schema: {
        tags,
        body: companySchema,
        response: answers({ 200: companyAnswerSchema }),
        summary: 'Guardar los datos de la empresa (logo como data URL JPG/PNG; null lo quita, ausente lo conserva). Auditado.',
      },
      bodyLimit: COMPANY_BODY_LIMIT,
      preHandler: admin,
    },
    async (request) => updateCompany(app, currentUser(request), request.body),
  );
  app.get(
    '/settings/company/logo',
    {
      schema: { tags, response: answers({ 200: z.string().describe('El logo (JPG o PNG)') }), summary: 'Logo de la empresa (solo administrador)' },
      preHandler: admin,
    },
    async (_request, reply) => {
      const logo = await companyLogo(app.db);
      return reply
        .type(logo.type)
        .header('cache-control', 'no-store')
        .send(logo.bytes as unknown as string); // bytes go out as they are; the schema documents them
    },
  );
}
