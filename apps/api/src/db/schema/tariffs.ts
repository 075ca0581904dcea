import { sql } from 'drizzle-orm';
import { boolean, check, integer, jsonb, numeric, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { branches } from './branches.js';
import { createdAt, updatedAt } from './columns.js';
import { customers } from './customers.js';

/**
 * Tariffs beyond Factor Peso (issue 34): the company's tariff settings, articles with a price per
 * route, a route's minimum charge and divisor, the surcharge catalogue and customer discounts.
 * Owned by the pricing module; shipments keep what they were charged (shipments.price_components),
 * so nothing here is ever read back to reprice a stored shipment.
 */

/** One row (id = 1): divisor, insurance and the liability clause. Seeded by migration 0042. */
export const tariffSettings = pgTable(
  'tariff_settings',
  {
    id: integer('id').primaryKey().default(1),
    volumetricDivisor: integer('volumetric_divisor').notNull().default(6000),
    insuranceRateBp: integer('insurance_rate_bp').notNull().default(200),
    insuranceMinimum: numeric('insurance_minimum', { precision: 12, scale: 2 }).notNull().default('5.00'),
    declaredValueThreshold: numeric('declared_value_threshold', { precision: 12, scale: 2 }).notNull().default('500.00'),
    insuranceMandatoryAbove: boolean('insurance_mandatory_above').notNull().default(true),
    /** 0 = no cap. */
    maxDeclaredValue: numeric('max_declared_value', { precision: 12, scale: 2 }).notNull().default('50000.00'),
    /** What the carrier pays of a declared value on loss or damage (Olva's 90 %). */
    coverBp: integer('cover_bp').notNull().default(9000),
    /** What it pays for undeclared goods. */
    undeclaredCap: numeric('undeclared_cap', { precision: 12, scale: 2 }).notNull().default('100.00'),
    liabilityClause: text('liability_clause').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('tariff_settings_single_ck', sql`${t.id} = 1`),
    check('tariff_settings_divisor_ck', sql`${t.volumetricDivisor} between 1000 and 10000`),
    check('tariff_settings_rates_ck', sql`${t.insuranceRateBp} between 0 and 10000 and ${t.coverBp} between 0 and 10000`),
    check(
      'tariff_settings_amounts_ck',
      sql`${t.insuranceMinimum} >= 0 and ${t.declaredValueThreshold} >= 0 and ${t.maxDeclaredValue} >= 0 and ${t.undeclaredCap} >= 0`,
    ),
  ],
);

export const tariffArticles = pgTable(
  'tariff_articles',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    unit: text('unit').notNull(),
    /** SUNAT catálogo 03 (NIU unidad, BG bolsa, BX caja, …). */
    unitCode: text('unit_code').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tariff_articles_name_uq').on(sql`lower(${t.name})`),
    check('tariff_articles_unit_code_ck', sql`${t.unitCode} ~ '^[A-Z0-9]{2,3}$'`),
  ],
);

/** An article's price on a route (the reverse route answers when the route has none, as tables do). */
export const tariffArticlePrices = pgTable(
  'tariff_article_prices',
  {
    articleId: integer('article_id')
      .notNull()
      .references(() => tariffArticles.id, { onDelete: 'cascade' }),
    originBranchId: integer('origin_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'cascade' }),
    destinationBranchId: integer('destination_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'cascade' }),
    price: numeric('price', { precision: 12, scale: 2 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.articleId, t.originBranchId, t.destinationBranchId] }),
    check('tariff_article_prices_price_ck', sql`${t.price} > 0`),
    check('tariff_article_prices_route_ck', sql`${t.originBranchId} <> ${t.destinationBranchId}`),
  ],
);

/** A route's minimum charge and its own volumetric divisor (null = the company's). */
export const tariffRoutes = pgTable(
  'tariff_routes',
  {
    originBranchId: integer('origin_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'cascade' }),
    destinationBranchId: integer('destination_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'cascade' }),
    minimumCharge: numeric('minimum_charge', { precision: 12, scale: 2 }).notNull().default('0.00'),
    volumetricDivisor: integer('volumetric_divisor'),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.originBranchId, t.destinationBranchId] }),
    check('tariff_routes_minimum_ck', sql`${t.minimumCharge} >= 0`),
    check('tariff_routes_divisor_ck', sql`${t.volumetricDivisor} is null or ${t.volumetricDivisor} between 1000 and 10000`),
    check('tariff_routes_route_ck', sql`${t.originBranchId} <> ${t.destinationBranchId}`),
  ],
);

/** The surcharges a counter may add: a fixed amount or a percentage of the freight. */
export const tariffSurcharges = pgTable(
  'tariff_surcharges',
  {
    code: text('code').primaryKey(),
    description: text('description').notNull(),
    fixedAmount: numeric('fixed_amount', { precision: 12, scale: 2 }),
    percentBp: integer('percent_bp'),
    active: boolean('active').notNull().default(true),
  },
  (t) => [
    check('tariff_surcharges_code_ck', sql`${t.code} ~ '^[a-z_]{2,30}$'`),
    // Exactly one of the two: a surcharge is fixed or a percentage.
    check('tariff_surcharges_amount_ck', sql`(${t.fixedAmount} is null) <> (${t.percentBp} is null)`),
    check('tariff_surcharges_values_ck', sql`coalesce(${t.fixedAmount}, 0) >= 0 and coalesce(${t.percentBp}, 0) between 0 and 10000`),
  ],
);

/** A customer's negotiated discount on the route tariffs (freight only). */
export const customerTariffs = pgTable(
  'customer_tariffs',
  {
    customerId: integer('customer_id')
      .primaryKey()
      .references(() => customers.id, { onDelete: 'cascade' }),
    discountBp: integer('discount_bp').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [check('customer_tariffs_discount_ck', sql`${t.discountBp} between 0 and 10000`)],
);

/**
 * A customer's own prices on a route (issue 34: 'their own tiers and article prices per route'),
 * instead of the route's: tiers per product class ({ liviano: [{ from_kg, to_kg, factor_per_kg }] },
 * checked by the domain's tier rules) and article prices ([{ articleId, price }], soles as text).
 * Read at quote and creation time only; stored shipments keep what they were charged.
 */
export const customerRouteTariffs = pgTable(
  'customer_route_tariffs',
  {
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    originBranchId: integer('origin_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'cascade' }),
    destinationBranchId: integer('destination_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'cascade' }),
    tiers: jsonb('tiers').notNull().default({}),
    articlePrices: jsonb('article_prices').notNull().default([]),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.originBranchId, t.destinationBranchId] }),
    check('customer_route_tariffs_route_ck', sql`${t.originBranchId} <> ${t.destinationBranchId}`),
  ],
);
