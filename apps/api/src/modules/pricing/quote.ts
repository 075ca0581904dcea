import { and, asc, eq, or, sql } from 'drizzle-orm';
import { centsToNumber, PRICING_MESSAGES, quoteWithTiers, type ProductType, type Quote, type QuoteQuery, type WeightTier } from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { weightFactorTables, weightFactorTiers } from '../../db/schema.ts';
import { notFound, unprocessable } from '../../lib/errors.ts';
import { preparedQuery } from '../../lib/statements.ts';

export interface RouteTable {
  id: number;
  currency: string;
  usingReverse: boolean;
  tiers: WeightTier[];
}

/**
 * The active table for (origin, destination, class); if none, the reverse route's table. One
 * round trip: both directions joined with their tiers, the direct route's rows first.
 */
export async function findRouteTable(db: Db | Tx, originId: number, destinationId: number, productType: ProductType): Promise<RouteTable | null> {
  return (await findRouteTables(db, originId, destinationId, [productType])).get(productType) ?? null;
}

const routeTableRow = {
  id: weightFactorTables.id,
  productType: weightFactorTables.productType,
  origin: weightFactorTables.originBranchId,
  currency: weightFactorTables.currency,
  fromKg: weightFactorTiers.fromKg,
  toKg: weightFactorTiers.toKg,
  factorPerKg: weightFactorTiers.factorPerKg,
  sortOrder: weightFactorTiers.sortOrder,
};
// Every quote and every shipment creation runs it: prepared once (lib/statements.ts).
const selectRouteTables = preparedQuery<{
  id: number;
  productType: string;
  origin: number;
  currency: string;
  fromKg: string | null;
  toKg: string | null;
  factorPerKg: string | null;
  sortOrder: number | null;
}>('select_route_tables', routeTableRow, (db) => {
  const origin = sql.placeholder('origin');
  const destination = sql.placeholder('destination');
  return db
    .select(routeTableRow)
    .from(weightFactorTables)
    .leftJoin(weightFactorTiers, eq(weightFactorTiers.tableId, weightFactorTables.id))
    .where(
      and(
        eq(weightFactorTables.active, true),
        sql`${weightFactorTables.productType} = any(${sql.placeholder('types')})`,
        or(
          and(eq(weightFactorTables.originBranchId, origin), eq(weightFactorTables.destinationBranchId, destination)),
          and(eq(weightFactorTables.originBranchId, destination), eq(weightFactorTables.destinationBranchId, origin)),
        ),
      ),
    )
    .orderBy(sql`${weightFactorTables.originBranchId} = ${origin} desc`, asc(weightFactorTiers.fromKg));
});

/** As findRouteTable for several classes at once (a shipment's lines), still in one round trip. */
export async function findRouteTables(
  db: Db | Tx,
  originId: number,
  destinationId: number,
  productTypes: readonly ProductType[],
): Promise<Map<ProductType, RouteTable>> {
  const rows = await selectRouteTables(db, { origin: originId, destination: destinationId, types: [...new Set(productTypes)] });
  const tables = new Map<ProductType, RouteTable>();
  for (const t of rows) {
    const productType = t.productType as ProductType;
    // The first table seen for a class is the direct route's when it has one.
    let table = tables.get(productType);
    if (!table) {
      table = { id: t.id, currency: t.currency, usingReverse: t.origin !== originId, tiers: [] };
      tables.set(productType, table);
    }
    if (t.id !== table.id || t.fromKg === null || t.toKg === null || t.factorPerKg === null || t.sortOrder === null) continue;
    table.tiers.push({ from_kg: Number(t.fromKg), to_kg: Number(t.toKg), factor_per_kg: Number(t.factorPerKg), sort_order: t.sortOrder });
  }
  return tables;
}

/** DESIGN.md section 5: no table → 404; weight outside every tier → 422. */
export async function quoteRoute(db: Db | Tx, query: QuoteQuery): Promise<Quote & { priceCents: number }> {
  return quoteFromTable(await findRouteTable(db, query.originId, query.destinationId, query.productType), query.weightKg);
}

/** The quote of a weight on a table found by findRouteTable(s); no table → 404, weight outside every tier → 422. */
export function quoteFromTable(table: RouteTable | null | undefined, weightKg: number): Quote & { priceCents: number } {
  if (!table) throw notFound(PRICING_MESSAGES.noTable);
  const result = quoteWithTiers(table.tiers, weightKg);
  if (!result.ok) throw unprocessable(PRICING_MESSAGES.outsideRanges, { weightKg: PRICING_MESSAGES.outsideRanges }, 'OUT_OF_RANGE');
  return {
    price: centsToNumber(result.priceCents),
    priceCents: result.priceCents,
    currency: table.currency,
    factorPerKg: result.factorPerKg,
    tier: { from_kg: result.tier.from_kg, to_kg: result.tier.to_kg, factor_per_kg: result.tier.factor_per_kg },
    billableWeightKg: result.billableWeightKg,
    usingReverse: table.usingReverse,
  };
}
