import type { z } from 'zod';
import { and, asc, eq } from 'drizzle-orm';
import {
  centsToNumber,
  centsToString,
  priceRequestOf,
  PRODUCT_TYPES,
  TARIFF_FIELD_MESSAGES,
  type articleBodySchema,
  type articlePriceBodySchema,
  type cloneTariffBodySchema,
  type customerTariffBodySchema,
  type routeTariffBodySchema,
  type surchargeBodySchema,
  type TariffQuoteBody,
  type tariffSettingsBodySchema,
  type TariffSettingsAnswer,
} from '@tramo/domain';
import type { Tx } from '../../db/client.ts';
import { customers, customerTariffs, tariffArticlePrices, tariffArticles, tariffRoutes, tariffSettings, tariffSurcharges } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, isForeignKeyViolation, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { priceShipmentFrom, quoteAnswer } from './price-shipment.ts';
import { findRouteTables } from './quote.ts';
import { loadCompanyTariff, loadCustomerTariff, loadRouteExtras } from './tariffs.ts';

/**
 * The tariff catalogues of issue 34 (settings, articles and their prices per route, a route's
 * minimum and divisor, surcharges, customer discounts, 'Clonar tarifa') and POST /quotes. Every
 * change is audited in its transaction and evicts the reference cache creations price from.
 */

/** POST /quotes: the same reads and the same pricing as a creation, nothing written. */
export async function quoteTariff(ctx: ServiceContext, body: TariffQuoteBody) {
  const { originBranchId: o, destinationBranchId: d } = body;
  const [tables, company, route, customer] = await Promise.all([
    ctx.references.get(`route:${o}:${d}`, () => findRouteTables(ctx.db, o, d, PRODUCT_TYPES)),
    ctx.references.get('tariff:company', () => loadCompanyTariff(ctx.db)),
    ctx.references.get(`tariff:route:${o}:${d}`, () => loadRouteExtras(ctx.db, o, d)),
    loadCustomerTariff(ctx.db, body.senderCustomerId, body),
  ]);
  return quoteAnswer(priceShipmentFrom(tables, { company, route }, customer, priceRequestOf(body)));
}

/** A change to the tables, audited and followed by this process's eviction (the trigger's notice reaches the others). */
function change<T>(ctx: ServiceContext, work: (tx: Tx) => Promise<T>): Promise<T> {
  return ctx.db
    .transaction(work)
    .catch((err: unknown) => {
      if (isForeignKeyViolation(err)) throw unprocessable('La sucursal, el artículo o el cliente no existe.', undefined, 'NOT_FOUND_REFERENCE');
      throw err;
    })
    .finally(() => ctx.references.evictAll());
}

export async function getTariffSettings(ctx: ServiceContext): Promise<TariffSettingsAnswer> {
  const company = await loadCompanyTariff(ctx.db);
  const { insurance } = company;
  return {
    volumetricDivisor: company.divisor,
    insuranceRate: insurance.rateBp / 100,
    insuranceMinimum: centsToNumber(insurance.minimumPremiumCents),
    declaredValueThreshold: centsToNumber(insurance.thresholdCents),
    insuranceMandatoryAbove: insurance.mandatoryAbove,
    maxDeclaredValue: centsToNumber(insurance.maxDeclaredCents),
    cover: company.coverBp / 100,
    undeclaredCap: centsToNumber(company.undeclaredCapCents),
    liabilityClause: company.liabilityClause,
  };
}

export async function putTariffSettings(ctx: ServiceContext, actor: SessionUser, body: z.output<typeof tariffSettingsBodySchema>) {
  const before = await getTariffSettings(ctx);
  await change(ctx, async (tx) => {
    await tx
      .update(tariffSettings)
      .set({
        volumetricDivisor: body.volumetricDivisor,
        insuranceRateBp: body.insuranceRate,
        insuranceMinimum: centsToString(body.insuranceMinimum),
        declaredValueThreshold: centsToString(body.declaredValueThreshold),
        insuranceMandatoryAbove: body.insuranceMandatoryAbove,
        maxDeclaredValue: centsToString(body.maxDeclaredValue),
        coverBp: body.cover,
        undeclaredCap: centsToString(body.undeclaredCap),
        liabilityClause: body.liabilityClause,
        updatedAt: ctx.now(),
      })
      .where(eq(tariffSettings.id, 1));
    await audit(tx, { userId: actor.id, entity: 'tariff_settings', entityId: 1, action: 'update', before, after: body });
  });
  return getTariffSettings(ctx);
}

export function listArticles(ctx: ServiceContext) {
  return ctx.db
    .select({
      id: tariffArticles.id,
      name: tariffArticles.name,
      unit: tariffArticles.unit,
      unitCode: tariffArticles.unitCode,
      active: tariffArticles.active,
    })
    .from(tariffArticles)
    .orderBy(asc(tariffArticles.name));
}

export function createArticle(ctx: ServiceContext, actor: SessionUser, body: z.output<typeof articleBodySchema>) {
  return change(ctx, async (tx) => {
    const [created] = await tx.insert(tariffArticles).values(body).returning();
    const article = { id: created!.id, name: created!.name, unit: created!.unit, unitCode: created!.unitCode, active: created!.active };
    await audit(tx, { userId: actor.id, entity: 'tariff_article', entityId: article.id, action: 'create', after: article });
    return article;
  }).catch((err: unknown) => {
    if (isUniqueViolation(err)) throw conflict(TARIFF_FIELD_MESSAGES.articleDuplicate, { name: TARIFF_FIELD_MESSAGES.articleDuplicate }, 'DUPLICATE');
    throw err;
  });
}

const priceAnswer = (p: typeof tariffArticlePrices.$inferSelect) => ({
  articleId: p.articleId,
  originBranchId: p.originBranchId,
  destinationBranchId: p.destinationBranchId,
  price: Number(p.price),
});

export async function listArticlePrices(ctx: ServiceContext, articleId: number) {
  const rows = await ctx.db
    .select()
    .from(tariffArticlePrices)
    .where(eq(tariffArticlePrices.articleId, articleId))
    .orderBy(asc(tariffArticlePrices.originBranchId), asc(tariffArticlePrices.destinationBranchId));
  return rows.map(priceAnswer);
}

export function putArticlePrice(ctx: ServiceContext, actor: SessionUser, articleId: number, body: z.output<typeof articlePriceBodySchema>) {
  const route = { originBranchId: body.originBranchId, destinationBranchId: body.destinationBranchId };
  if (route.originBranchId === route.destinationBranchId) throw unprocessable(TARIFF_FIELD_MESSAGES.cloneSameRoute);
  return change(ctx, async (tx) => {
    const [article] = await tx.select({ id: tariffArticles.id }).from(tariffArticles).where(eq(tariffArticles.id, articleId));
    if (!article) throw notFound(TARIFF_FIELD_MESSAGES.articleNotFound);
    const price = centsToString(body.price);
    const [row] = await tx
      .insert(tariffArticlePrices)
      .values({ articleId, ...route, price })
      .onConflictDoUpdate({
        target: [tariffArticlePrices.articleId, tariffArticlePrices.originBranchId, tariffArticlePrices.destinationBranchId],
        set: { price },
      })
      .returning();
    await audit(tx, { userId: actor.id, entity: 'tariff_article_price', entityId: articleId, action: 'put', after: priceAnswer(row!) });
    return priceAnswer(row!);
  });
}

const routeAnswer = (r: typeof tariffRoutes.$inferSelect) => ({
  originBranchId: r.originBranchId,
  destinationBranchId: r.destinationBranchId,
  minimumCharge: Number(r.minimumCharge),
  volumetricDivisor: r.volumetricDivisor,
});

export async function listRouteTariffs(ctx: ServiceContext) {
  return (await ctx.db.select().from(tariffRoutes).orderBy(asc(tariffRoutes.originBranchId), asc(tariffRoutes.destinationBranchId))).map(routeAnswer);
}

async function upsertRoute(
  tx: Tx,
  values: { originBranchId: number; destinationBranchId: number; minimumCharge: string; volumetricDivisor: number | null },
  now: Date,
) {
  const [row] = await tx
    .insert(tariffRoutes)
    .values({ ...values, updatedAt: now })
    .onConflictDoUpdate({
      target: [tariffRoutes.originBranchId, tariffRoutes.destinationBranchId],
      set: { minimumCharge: values.minimumCharge, volumetricDivisor: values.volumetricDivisor, updatedAt: now },
    })
    .returning();
  return routeAnswer(row!);
}

export function putRouteTariff(ctx: ServiceContext, actor: SessionUser, body: z.output<typeof routeTariffBodySchema>) {
  if (body.originBranchId === body.destinationBranchId) throw unprocessable(TARIFF_FIELD_MESSAGES.cloneSameRoute);
  return change(ctx, async (tx) => {
    const route = await upsertRoute(tx, { ...body, minimumCharge: centsToString(body.minimumCharge) }, ctx.now());
    await audit(tx, {
      userId: actor.id,
      entity: 'tariff_route',
      entityId: `${body.originBranchId}-${body.destinationBranchId}`,
      action: 'put',
      after: route,
    });
    return route;
  });
}

const surchargeAnswer = (s: typeof tariffSurcharges.$inferSelect) => ({
  code: s.code,
  description: s.description,
  fixedAmount: s.fixedAmount === null ? null : Number(s.fixedAmount),
  percent: s.percentBp === null ? null : s.percentBp / 100,
  active: s.active,
});

export async function listSurcharges(ctx: ServiceContext) {
  return (await ctx.db.select().from(tariffSurcharges).orderBy(asc(tariffSurcharges.description))).map(surchargeAnswer);
}

export function putSurcharge(ctx: ServiceContext, actor: SessionUser, code: string, body: z.output<typeof surchargeBodySchema>) {
  return change(ctx, async (tx) => {
    const [before] = await tx.select().from(tariffSurcharges).where(eq(tariffSurcharges.code, code));
    const values = {
      description: body.description,
      fixedAmount: body.fixedAmount === null ? null : centsToString(body.fixedAmount),
      percentBp: body.percent,
      active: body.active,
    };
    const [row] = await tx
      .insert(tariffSurcharges)
      .values({ code, ...values })
      .onConflictDoUpdate({ target: tariffSurcharges.code, set: values })
      .returning();
    await audit(tx, {
      userId: actor.id,
      entity: 'tariff_surcharge',
      entityId: code,
      action: 'put',
      before: before ? surchargeAnswer(before) : null,
      after: surchargeAnswer(row!),
    });
    return surchargeAnswer(row!);
  });
}

export async function getCustomerTariff(ctx: ServiceContext, customerId: number) {
  const [row] = await ctx.db.select().from(customerTariffs).where(eq(customerTariffs.customerId, customerId));
  return { customerId, discount: (row?.discountBp ?? 0) / 100 };
}

export function putCustomerTariff(ctx: ServiceContext, actor: SessionUser, customerId: number, body: z.output<typeof customerTariffBodySchema>) {
  return change(ctx, async (tx) => {
    const [customer] = await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
    if (!customer) throw notFound(TARIFF_FIELD_MESSAGES.customerNotFound);
    const [before] = await tx.select().from(customerTariffs).where(eq(customerTariffs.customerId, customerId));
    await tx
      .insert(customerTariffs)
      .values({ customerId, discountBp: body.discount, updatedAt: ctx.now() })
      .onConflictDoUpdate({ target: customerTariffs.customerId, set: { discountBp: body.discount, updatedAt: ctx.now() } });
    const after = { customerId, discount: body.discount / 100 };
    await audit(tx, {
      userId: actor.id,
      entity: 'customer_tariff',
      entityId: customerId,
      action: 'put',
      before: { discount: (before?.discountBp ?? 0) / 100 },
      after,
    });
    return after;
  });
}

/** 'Clonar tarifa': the source route's article prices, minimum and divisor onto each target route (replacing theirs). */
export function cloneTariff(ctx: ServiceContext, actor: SessionUser, body: z.output<typeof cloneTariffBodySchema>) {
  if (body.to.some((r) => r.originBranchId === r.destinationBranchId))
    throw unprocessable(TARIFF_FIELD_MESSAGES.cloneSameRoute, { to: TARIFF_FIELD_MESSAGES.cloneSameRoute });
  return change(ctx, async (tx) => {
    const { originBranchId: o, destinationBranchId: d } = body.from;
    const [route] = await tx
      .select()
      .from(tariffRoutes)
      .where(and(eq(tariffRoutes.originBranchId, o), eq(tariffRoutes.destinationBranchId, d)));
    const prices = await tx
      .select()
      .from(tariffArticlePrices)
      .where(and(eq(tariffArticlePrices.originBranchId, o), eq(tariffArticlePrices.destinationBranchId, d)));
    for (const target of body.to) {
      await tx
        .delete(tariffArticlePrices)
        .where(
          and(eq(tariffArticlePrices.originBranchId, target.originBranchId), eq(tariffArticlePrices.destinationBranchId, target.destinationBranchId)),
        );
      if (prices.length) await tx.insert(tariffArticlePrices).values(prices.map((p) => ({ ...p, ...target })));
      await upsertRoute(
        tx,
        { ...target, minimumCharge: route?.minimumCharge ?? '0.00', volumetricDivisor: route?.volumetricDivisor ?? null },
        ctx.now(),
      );
    }
    const after = { from: body.from, to: body.to, articlePrices: prices.length, minimumCharge: Number(route?.minimumCharge ?? 0) };
    await audit(tx, { userId: actor.id, entity: 'tariff_route', entityId: `${o}-${d}`, action: 'clone', after });
    return after;
  });
}
