import type { z } from 'zod';
import { aliasedTable, and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  centsToNumber,
  DEFAULT_TIERS,
  PRICING_MESSAGES,
  prepareTiers,
  quoteWithTiers,
  tierProblem,
  type createWeightFactorSchema,
  type ProductType,
  type WeightFactorSummary,
  type WeightFactorTable,
  type WeightTier,
} from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { branches, weightFactorTables, weightFactorTiers } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, isForeignKeyViolation, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.ts';
import type { SessionUser, ServiceContext } from '../../types.ts';

export interface WeightFactorFilters {
  originId?: number;
  destinationId?: number;
  productType?: ProductType;
  active?: boolean;
}

const origins = aliasedTable(branches, 'origin');
const destinations = aliasedTable(branches, 'destination');

const tableColumns = {
  id: weightFactorTables.id,
  origin_branch_id: weightFactorTables.originBranchId,
  destination_branch_id: weightFactorTables.destinationBranchId,
  origin_name: origins.name,
  destination_name: destinations.name,
  product_type: weightFactorTables.productType,
  name: weightFactorTables.name,
  currency: weightFactorTables.currency,
  active: weightFactorTables.active,
};

type TierRow = typeof weightFactorTiers.$inferSelect;

/** numeric columns read back as strings; their 2/4 decimals survive Number() exactly as printed. */
const toTier = (t: Pick<TierRow, 'fromKg' | 'toKg' | 'factorPerKg' | 'sortOrder'>): WeightTier => ({
  from_kg: Number(t.fromKg),
  to_kg: Number(t.toKg),
  factor_per_kg: Number(t.factorPerKg),
  sort_order: t.sortOrder,
});

/** Tables (one query) and all their tiers (a second one), never one query per table. */
async function loadTables(db: Db | Tx, where: SQL | undefined): Promise<WeightFactorTable[]> {
  const rows = await db
    .select(tableColumns)
    .from(weightFactorTables)
    .innerJoin(origins, eq(origins.id, weightFactorTables.originBranchId))
    .innerJoin(destinations, eq(destinations.id, weightFactorTables.destinationBranchId))
    .where(where)
    .orderBy(asc(origins.name), asc(destinations.name), asc(weightFactorTables.productType), asc(weightFactorTables.id));
  if (rows.length === 0) return [];
  const tiers = await db
    .select()
    .from(weightFactorTiers)
    .where(
      inArray(
        weightFactorTiers.tableId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(weightFactorTiers.tableId), asc(weightFactorTiers.fromKg));
  const byTable = new Map<number, WeightTier[]>();
  for (const t of tiers) {
    const list = byTable.get(t.tableId) ?? [];
    list.push(toTier(t));
    byTable.set(t.tableId, list);
  }
  return rows.map((r) => ({ ...r, product_type: r.product_type as ProductType, tiers: byTable.get(r.id) ?? [] }));
}

export function listWeightFactors(ctx: ServiceContext, filters: WeightFactorFilters) {
  const conditions = [
    filters.originId !== undefined ? eq(weightFactorTables.originBranchId, filters.originId) : undefined,
    filters.destinationId !== undefined ? eq(weightFactorTables.destinationBranchId, filters.destinationId) : undefined,
    filters.productType !== undefined ? eq(weightFactorTables.productType, filters.productType) : undefined,
    filters.active !== undefined ? eq(weightFactorTables.active, filters.active) : undefined,
  ];
  return loadTables(ctx.db, and(...conditions));
}

async function getTable(db: Db | Tx, id: number): Promise<WeightFactorTable> {
  const [table] = await loadTables(db, eq(weightFactorTables.id, id));
  if (!table) throw notFound(PRICING_MESSAGES.tableNotFound);
  return table;
}

interface SummaryRow {
  id: number;
  origin_branch_id: number;
  destination_branch_id: number;
  origin_name: string;
  destination_name: string;
  product_type: ProductType;
  name: string;
  currency: string;
  // json_agg of the tiers; the numerics travel as text so no JSON float touches them.
  tiers: { from_kg: string; to_kg: string; factor_per_kg: string; sort_order: number }[] | null;
}

/**
 * The screen's summary of active tables in ONE query (tiers aggregated per table); the example
 * prices come from quoteWithTiers, the very function quotes use, so they can never disagree.
 */
export async function weightFactorSummary(ctx: ServiceContext): Promise<WeightFactorSummary[]> {
  const result = await ctx.db.execute(sql`
    select t.id, t.origin_branch_id, t.destination_branch_id, o.name as origin_name, d.name as destination_name,
           t.product_type, t.name, t.currency,
           json_agg(json_build_object(
             'from_kg', w.from_kg::text, 'to_kg', w.to_kg::text,
             'factor_per_kg', w.factor_per_kg::text, 'sort_order', w.sort_order
           ) order by w.from_kg) filter (where w.id is not null) as tiers
      from ${weightFactorTables} t
      join ${branches} o on o.id = t.origin_branch_id
      join ${branches} d on d.id = t.destination_branch_id
      left join ${weightFactorTiers} w on w.table_id = t.id
     where t.active
     group by t.id, o.name, d.name
     order by o.name, d.name, t.product_type, t.id`);
  return (result.rows as unknown as SummaryRow[]).map((r) => {
    const tiers = (r.tiers ?? []).map((t) => ({
      from_kg: Number(t.from_kg),
      to_kg: Number(t.to_kg),
      factor_per_kg: Number(t.factor_per_kg),
      sort_order: t.sort_order,
    }));
    const example = (kg: number) => {
      const q = quoteWithTiers(tiers, kg);
      return q.ok ? centsToNumber(q.priceCents) : null;
    };
    return {
      id: Number(r.id),
      origin_branch_id: Number(r.origin_branch_id),
      destination_branch_id: Number(r.destination_branch_id),
      origin_name: r.origin_name,
      destination_name: r.destination_name,
      product_type: r.product_type,
      name: r.name,
      currency: r.currency,
      tier_count: tiers.length,
      min_kg: tiers.length ? Math.min(...tiers.map((t) => t.from_kg)) : null,
      max_kg: tiers.length ? Math.max(...tiers.map((t) => t.to_kg)) : null,
      price_1kg: example(1),
      price_10kg: example(10),
    };
  });
}

const tierValues = (tableId: number, tiers: readonly WeightTier[]) =>
  tiers.map((t) => ({
    tableId,
    fromKg: t.from_kg.toFixed(2),
    toKg: t.to_kg.toFixed(2),
    factorPerKg: t.factor_per_kg.toFixed(4),
    sortOrder: t.sort_order,
  }));

async function branchName(tx: Tx, id: number): Promise<string | null> {
  const [row] = await tx.select({ name: branches.name }).from(branches).where(eq(branches.id, id));
  return row?.name ?? null;
}

/** A new table for a route and class, starting with the default tiers; unique among active tables. */
export function createWeightFactor(ctx: ServiceContext, actor: SessionUser, input: z.output<typeof createWeightFactorSchema>) {
  return (
    ctx.db
      .transaction(async (tx) => {
        const [origin, destination] = [await branchName(tx, input.origin_branch_id), await branchName(tx, input.destination_branch_id)];
        if (origin === null) throw unprocessable(PRICING_MESSAGES.originNotFound, { origin_branch_id: PRICING_MESSAGES.originNotFound });
        if (destination === null) {
          throw unprocessable(PRICING_MESSAGES.destinationNotFound, { destination_branch_id: PRICING_MESSAGES.destinationNotFound });
        }
        const [created] = await tx
          .insert(weightFactorTables)
          .values({
            originBranchId: input.origin_branch_id,
            destinationBranchId: input.destination_branch_id,
            productType: input.product_type,
            name: input.name || `${origin} → ${destination} (${input.product_type})`,
            currency: input.currency,
          })
          .returning({ id: weightFactorTables.id });
        await tx.insert(weightFactorTiers).values(tierValues(created!.id, DEFAULT_TIERS));
        const table = await getTable(tx, created!.id);
        await audit(tx, { userId: actor.id, entity: 'weight_factor_table', entityId: table.id, action: 'create', after: table });
        return table;
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw conflict(PRICING_MESSAGES.duplicate, { product_type: PRICING_MESSAGES.duplicate }, 'DUPLICATE');
        // A branch deleted between the check and the insert.
        if (isForeignKeyViolation(err)) throw unprocessable(PRICING_MESSAGES.originNotFound);
        throw err;
      })
      // The trigger's notice evicts every process at commit; this one's own next creation must not run ahead of it.
      .finally(() => ctx.references.evictAll())
  );
}

/**
 * Replaces the whole tier list in one transaction. The table row is locked first (SELECT … FOR
 * UPDATE) so concurrent replacements queue up and each leaves a complete list, never a mix.
 */
export async function replaceTiers(
  ctx: ServiceContext,
  actor: SessionUser,
  id: number,
  input: readonly WeightTier[] | readonly Omit<WeightTier, 'sort_order'>[],
) {
  const tiers = prepareTiers(input);
  const problem = tierProblem(tiers);
  if (problem === 'invalid') throw unprocessable(PRICING_MESSAGES.invalidTiers, { tiers: PRICING_MESSAGES.invalidTiers }, 'INVALID_TIERS');
  if (problem === 'overlap') throw unprocessable(PRICING_MESSAGES.overlapping, { tiers: PRICING_MESSAGES.overlapping }, 'OVERLAPPING_TIERS');
  return ctx.db
    .transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: weightFactorTables.id, active: weightFactorTables.active })
        .from(weightFactorTables)
        .where(eq(weightFactorTables.id, id))
        .for('update');
      if (!locked) throw notFound(PRICING_MESSAGES.tableNotFound);
      if (!locked.active) throw unprocessable(PRICING_MESSAGES.noActiveTable, undefined, 'INACTIVE_TABLE');
      const before = await tx.select().from(weightFactorTiers).where(eq(weightFactorTiers.tableId, id)).orderBy(asc(weightFactorTiers.fromKg));
      await tx.delete(weightFactorTiers).where(eq(weightFactorTiers.tableId, id));
      await tx.insert(weightFactorTiers).values(tierValues(id, tiers));
      await tx.update(weightFactorTables).set({ updatedAt: ctx.now() }).where(eq(weightFactorTables.id, id));
      const table = await getTable(tx, id);
      await audit(tx, {
        userId: actor.id,
        entity: 'weight_factor_table',
        entityId: id,
        action: 'replace-tiers',
        before: { tiers: before.map(toTier) },
        after: { tiers: table.tiers },
      });
      return table;
    })
    .finally(() => ctx.references.evictAll());
}
