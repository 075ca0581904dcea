import { and, eq, inArray, or, sql } from 'drizzle-orm';
import {
  toCents,
  type ArticlePrice,
  type Cents,
  type CustomerTariff,
  type PriceList,
  type ProductType,
  type SurchargeRule,
  type TariffSettings,
  type WeightTier,
} from '@tramo/domain';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import {
  customerRouteTariffs,
  customerTariffs,
  customers,
  tariffArticlePrices,
  tariffArticles,
  tariffRoutes,
  tariffSettings,
  tariffSurcharges,
} from '../../db/schema.ts';

/**
 * What a shipment's price reads beyond the Factor Peso tables (issue 34): the company's tariff
 * settings and surcharges, the route's article prices, minimum charge and divisor, and the sender
 * customer's discount. The route's extras come from the reference cache at creation, as its tables
 * do (migration 0042 adds these tables to the cache's notices).
 */

export interface CompanyTariff extends TariffSettings {
  liabilityClause: string;
  coverBp: number;
  undeclaredCapCents: Cents;
}

export interface RouteExtras {
  articles: Map<number, ArticlePrice>;
  minimumChargeCents: Cents;
  divisor: number | null;
}

export interface TariffReferences {
  company: CompanyTariff;
  route: RouteExtras;
}

export async function loadCompanyTariff(db: Db | Tx): Promise<CompanyTariff> {
  const [[row], surchargeRows] = await Promise.all([
    db.select().from(tariffSettings).where(eq(tariffSettings.id, 1)),
    db.select().from(tariffSurcharges).where(eq(tariffSurcharges.active, true)),
  ]);
  if (!row) throw new Error('tariff_settings has no row: migration 0042 seeds it');
  const surcharges = new Map<string, SurchargeRule>();
  for (const s of surchargeRows) {
    surcharges.set(s.code, {
      code: s.code,
      description: s.description,
      ...(s.fixedAmount !== null ? { fixedCents: toCents(s.fixedAmount) } : {}),
      ...(s.percentBp !== null ? { percentBp: s.percentBp } : {}),
    });
  }
  return {
    divisor: row.volumetricDivisor,
    insurance: {
      rateBp: row.insuranceRateBp,
      minimumPremiumCents: toCents(row.insuranceMinimum),
      thresholdCents: toCents(row.declaredValueThreshold),
      mandatoryAbove: row.insuranceMandatoryAbove,
      maxDeclaredCents: toCents(row.maxDeclaredValue),
    },
    surcharges,
    liabilityClause: row.liabilityClause,
    coverBp: row.coverBp,
    undeclaredCapCents: toCents(row.undeclaredCap),
  };
}

const bothWays = (origin: PgColumn, destination: PgColumn, originId: number, destinationId: number) =>
  or(and(eq(origin, originId), eq(destination, destinationId)), and(eq(origin, destinationId), eq(destination, originId)));

/** The route's extras; as its tables, the reverse route's answer when the route has none of its own. */
export async function loadRouteExtras(db: Db | Tx, originId: number, destinationId: number): Promise<RouteExtras> {
  const [routes, prices] = await Promise.all([
    db
      .select()
      .from(tariffRoutes)
      .where(bothWays(tariffRoutes.originBranchId, tariffRoutes.destinationBranchId, originId, destinationId)),
    db
      .select({
        articleId: tariffArticlePrices.articleId,
        origin: tariffArticlePrices.originBranchId,
        price: tariffArticlePrices.price,
        name: tariffArticles.name,
        unitCode: tariffArticles.unitCode,
      })
      .from(tariffArticlePrices)
      .innerJoin(tariffArticles, eq(tariffArticles.id, tariffArticlePrices.articleId))
      .where(
        and(
          eq(tariffArticles.active, true),
          bothWays(tariffArticlePrices.originBranchId, tariffArticlePrices.destinationBranchId, originId, destinationId),
        ),
      )
      // The direct route's price first, so it wins over the reverse's.
      .orderBy(sql`${tariffArticlePrices.originBranchId} = ${originId} desc`),
  ]);
  const route = routes.find((r) => r.originBranchId === originId) ?? routes[0];
  const articles = new Map<number, ArticlePrice>();
  for (const p of prices) {
    if (!articles.has(p.articleId))
      articles.set(p.articleId, { articleId: p.articleId, name: p.name, unitCode: p.unitCode, priceCents: toCents(p.price) });
  }
  return { articles, minimumChargeCents: route ? toCents(route.minimumCharge) : 0, divisor: route?.volumetricDivisor ?? null };
}

/**
 * The sender's negotiated tariff, if any; read per shipment (not cached: customers are many). Its
 * own prices on the route (the reverse route's when the route has none, as tables do) come first;
 * else its discount on the route tariffs (issue 34: a discount or their own prices).
 */
export async function loadCustomerTariff(
  db: Db | Tx,
  customerId: number | null,
  route?: { originBranchId: number | null; destinationBranchId: number | null },
): Promise<CustomerTariff | null> {
  if (customerId === null) return null;
  const o = route?.originBranchId ?? null;
  const d = route?.destinationBranchId ?? null;
  const [[row], own] = await Promise.all([
    db
      .select({ discountBp: customerTariffs.discountBp, firstName: customers.firstName, lastName: customers.lastName })
      .from(customers)
      .leftJoin(customerTariffs, eq(customerTariffs.customerId, customers.id))
      .where(eq(customers.id, customerId)),
    o !== null && d !== null
      ? db
          .select()
          .from(customerRouteTariffs)
          .where(
            and(
              eq(customerRouteTariffs.customerId, customerId),
              bothWays(customerRouteTariffs.originBranchId, customerRouteTariffs.destinationBranchId, o, d),
            ),
          )
      : Promise.resolve([]),
  ]);
  if (!row) return null;
  const customerName = [row.firstName, row.lastName].filter(Boolean).join(' ');
  const prices = own.find((r) => r.originBranchId === o) ?? own[0];
  if (prices) return { kind: 'propia', customerName, prices: await ownPriceList(db, prices) };
  if (!row.discountBp) return null;
  return { kind: 'descuento', customerName, discountBp: row.discountBp };
}

async function ownPriceList(db: Db | Tx, row: typeof customerRouteTariffs.$inferSelect): Promise<PriceList> {
  const stored = row.articlePrices as { articleId: number; price: string }[];
  const articles = new Map<number, ArticlePrice>();
  if (stored.length) {
    const found = await db
      .select({ id: tariffArticles.id, name: tariffArticles.name, unitCode: tariffArticles.unitCode })
      .from(tariffArticles)
      .where(
        and(
          eq(tariffArticles.active, true),
          inArray(
            tariffArticles.id,
            stored.map((a) => a.articleId),
          ),
        ),
      );
    for (const a of found) {
      const price = stored.find((p) => p.articleId === a.id)!;
      articles.set(a.id, { articleId: a.id, name: a.name, unitCode: a.unitCode, priceCents: toCents(price.price) });
    }
  }
  const tiers: PriceList['tiers'] = {};
  for (const [type, list] of Object.entries(row.tiers as Record<string, WeightTier[]>)) {
    if (list.length) tiers[type as ProductType] = list.map((t, i) => ({ ...t, sort_order: i + 1 }));
  }
  return { tiers, articles };
}
