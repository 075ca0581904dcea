import { z } from 'zod';
import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import {
  answers,
  centsToNumber,
  centsToString,
  checkRouteReference,
  routeReferenceAnswerSchema,
  routeReferenceInputSchema,
  routeReferenceValues as computeReferenceValues,
  toCents,
  type RouteReferenceAnswer,
} from '@tramo/domain';
import { routeReferenceValues } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { isForeignKeyViolation, unprocessable } from '../../lib/errors.ts';
import { guard } from '../../plugins/auth.ts';
import { currentUser, type App, type ServiceContext, type SessionUser } from '../../types.ts';

/*
 * Each route's reference values for the freight detracción (valor referencial, SUNAT.md
 * "Detracción"): the service per TM and the loads of the vehicle that runs it. 'Facturar envíos'
 * fills a 1004 factura's three reference values from them; the form lets the user adjust them.
 */

const names = {
  originName: sql<string>`(select name from branches b where b.id = ${routeReferenceValues.originBranchId})`,
  destinationName: sql<string>`(select name from branches b where b.id = ${routeReferenceValues.destinationBranchId})`,
};

type Row = typeof routeReferenceValues.$inferSelect & { originName: string; destinationName: string };

function answerOf(r: Row): RouteReferenceAnswer {
  const values = computeReferenceValues({
    servicePerTmCents: toCents(r.servicePerTm),
    effectiveLoadTm: r.effectiveLoadTm,
    nominalLoadTm: r.nominalLoadTm,
  });
  return {
    originBranchId: r.originBranchId,
    destinationBranchId: r.destinationBranchId,
    originName: r.originName,
    destinationName: r.destinationName,
    servicePerTm: Number(r.servicePerTm),
    effectiveLoadTm: Number(r.effectiveLoadTm),
    nominalLoadTm: Number(r.nominalLoadTm),
    service: centsToNumber(values?.serviceCents ?? 0),
    effectiveLoad: centsToNumber(values?.effectiveLoadCents ?? 0),
    nominalLoad: centsToNumber(values?.nominalLoadCents ?? 0),
  };
}

export async function listReferenceValues(db: Db): Promise<RouteReferenceAnswer[]> {
  const rows = await db
    .select({ ...getTableColumns(routeReferenceValues), ...names })
    .from(routeReferenceValues)
    .orderBy(asc(routeReferenceValues.originBranchId), asc(routeReferenceValues.destinationBranchId));
  return rows.map(answerOf);
}

export const REFERENCE_MESSAGES = { branchNotFound: 'El origen o el destino no es una sucursal registrada.' } as const;

/** Sets a route's reference values (an upsert: sending the same values again changes nothing but the time), audited. */
export async function putReferenceValues(ctx: ServiceContext, actor: SessionUser, body: z.output<typeof routeReferenceInputSchema>) {
  const check = checkRouteReference(body);
  if (!check.ok) throw unprocessable(check.problems.join(' '), { referenceValues: check.problems.join(' ') });
  const { originBranchId, destinationBranchId } = body;
  const values = {
    servicePerTm: centsToString(check.config.servicePerTmCents),
    effectiveLoadTm: check.config.effectiveLoadTm,
    nominalLoadTm: check.config.nominalLoadTm,
  };
  const route = and(eq(routeReferenceValues.originBranchId, originBranchId), eq(routeReferenceValues.destinationBranchId, destinationBranchId));
  try {
    return await ctx.db.transaction(async (tx) => {
      const [before] = await tx.select().from(routeReferenceValues).where(route).for('update');
      if (before)
        await tx
          .update(routeReferenceValues)
          .set({ ...values, updatedAt: ctx.now() })
          .where(route);
      else await tx.insert(routeReferenceValues).values({ originBranchId, destinationBranchId, ...values });
      await audit(tx, {
        userId: actor.id,
        entity: 'route_reference_values',
        entityId: `${originBranchId}-${destinationBranchId}`,
        action: before ? 'update' : 'create',
        before: before ?? null,
        after: values,
      });
      const [row] = await tx
        .select({ ...getTableColumns(routeReferenceValues), ...names })
        .from(routeReferenceValues)
        .where(route);
      return answerOf(row!);
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) throw unprocessable(REFERENCE_MESSAGES.branchNotFound);
    throw err;
  }
}

export default async function referenceValueRoutes(app: App) {
  const tags = ['pricing'];
  const staff = guard(app, { roles: ['admin', 'agent'] });
  const admin = guard(app, { roles: ['admin'] });
  app.get(
    '/pricing/reference-values',
    {
      schema: {
        tags,
        summary: 'Valores referenciales de cada ruta (detracción del transporte de carga)',
        response: answers({ 200: z.array(routeReferenceAnswerSchema) }),
      },
      preHandler: staff,
    },
    async () => listReferenceValues(app.db),
  );
  app.put(
    '/pricing/reference-values',
    {
      schema: {
        tags,
        summary: 'Fijar los valores referenciales de una ruta',
        body: routeReferenceInputSchema,
        response: answers({ 200: routeReferenceAnswerSchema }),
      },
      preHandler: admin,
    },
    async (request) => putReferenceValues(app, currentUser(request), request.body),
  );
}
