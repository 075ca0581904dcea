import { and, asc, eq, sql } from 'drizzle-orm';
import {
  collectionRulesOf,
  DEFAULT_WHO_PAYS_RULES,
  WHO_PAYS_RULES_MESSAGES,
  type CollectionRules,
  type PaymentMethod,
  type WhoPaysRules,
} from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { whoPaysBranchMethods, whoPaysRouteRules, whoPaysRules } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { preparedQuery } from '../../lib/statements.ts';
import { isForeignKeyViolation, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';

/** 'Reglas de cobro' (issue 33): the company's pago en destino limits, per-route refusals and each branch's methods. */

async function companyRow(db: Db | Tx) {
  const [row] = await db.select().from(whoPaysRules).where(eq(whoPaysRules.id, 1));
  return row ?? null;
}

export async function readWhoPaysRules(db: Db | Tx): Promise<WhoPaysRules> {
  const [row, routes, methods] = [
    await companyRow(db),
    await db.select().from(whoPaysRouteRules).orderBy(asc(whoPaysRouteRules.originBranchId), asc(whoPaysRouteRules.destinationBranchId)),
    await db.select().from(whoPaysBranchMethods).orderBy(asc(whoPaysBranchMethods.branchId)),
  ];
  return {
    maxDestinationFreight: row ? Number(row.maxDestinationFreight) : DEFAULT_WHO_PAYS_RULES.maxDestinationFreight,
    originOnlyAboveKg: row?.originOnlyAboveKg != null ? Number(row.originOnlyAboveKg) : row ? null : DEFAULT_WHO_PAYS_RULES.originOnlyAboveKg,
    routes,
    branchMethods: methods.map((m) => ({ branchId: m.branchId, methods: m.methods as PaymentMethod[] })),
  };
}

/** The rules a shipment on this route is held to: the company's limits and whether the route allows pago en destino. */
export async function rulesForRoute(
  db: Db | Tx,
  originBranchId: number,
  destinationBranchId: number,
): Promise<{ rules: CollectionRules; routeAllowsDestination: boolean }> {
  const row = await companyRow(db);
  const [route] = await db
    .select({ allowed: whoPaysRouteRules.destinationAllowed })
    .from(whoPaysRouteRules)
    .where(and(eq(whoPaysRouteRules.originBranchId, originBranchId), eq(whoPaysRouteRules.destinationBranchId, destinationBranchId)));
  const rules = row
    ? collectionRulesOf({
        maxDestinationFreight: Number(row.maxDestinationFreight),
        originOnlyAboveKg: row.originOnlyAboveKg === null ? null : Number(row.originOnlyAboveKg),
      })
    : collectionRulesOf(DEFAULT_WHO_PAYS_RULES);
  return { rules, routeAllowsDestination: route?.allowed ?? true };
}

// Read by every payment click: built by drizzle once and run prepared (issue 37).
const branchMethods = preparedQuery<{ methods: unknown }>('who_pays_branch_methods', { methods: whoPaysBranchMethods.methods }, (db) =>
  db
    .select({ methods: whoPaysBranchMethods.methods })
    .from(whoPaysBranchMethods)
    .where(eq(whoPaysBranchMethods.branchId, sql.placeholder('branchId'))),
);

/**
 * The methods a branch's counter accepts; null = every method (no row). Kept per process with the
 * reference data (ReferenceCache): every payment click reads them, an admin changes them a few
 * times a year, and a change reaches every process at its commit (migration 0112). Wrapped, since
 * the cache keeps no null.
 */
export async function methodsAcceptedAt(ctx: ServiceContext, branchId: number): Promise<PaymentMethod[] | null> {
  const { methods } = await ctx.references.get(`who-pays:methods:${branchId}`, async () => {
    const [row] = await branchMethods(ctx.db, { branchId });
    return { methods: row ? (row.methods as PaymentMethod[]) : null };
  });
  return methods;
}

/** PUT /settings/who-pays: replaces the whole set in one transaction, audited with before and after. */
export async function saveWhoPaysRules(ctx: ServiceContext, actor: SessionUser, input: WhoPaysRules): Promise<WhoPaysRules> {
  try {
    return await ctx.db.transaction(async (tx) => {
      const before = await readWhoPaysRules(tx);
      const now = ctx.now();
      const values = {
        maxDestinationFreight: input.maxDestinationFreight.toFixed(2),
        originOnlyAboveKg: input.originOnlyAboveKg === null ? null : input.originOnlyAboveKg.toFixed(2),
        updatedAt: now,
        updatedBy: actor.id,
      };
      await tx
        .insert(whoPaysRules)
        .values({ id: 1, ...values })
        .onConflictDoUpdate({ target: whoPaysRules.id, set: values });
      await tx.delete(whoPaysRouteRules);
      if (input.routes.length) await tx.insert(whoPaysRouteRules).values(input.routes);
      await tx.delete(whoPaysBranchMethods);
      if (input.branchMethods.length) await tx.insert(whoPaysBranchMethods).values(input.branchMethods);
      const after = await readWhoPaysRules(tx);
      await audit(tx, { userId: actor.id, entity: 'who_pays_rules', entityId: 1, action: 'update', before, after });
      return after;
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) throw unprocessable(WHO_PAYS_RULES_MESSAGES.branchNotFound, undefined, 'BRANCH_NOT_FOUND');
    throw err;
  } finally {
    // This process's next click must not run ahead of the notification (methodsAcceptedAt).
    ctx.references.evictAll();
  }
}
