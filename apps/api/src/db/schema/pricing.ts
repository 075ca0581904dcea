import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, numeric, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { branches } from './branches.js';
import { createdAt, updatedAt } from './columns.js';

export const weightFactorTables = pgTable(
  'weight_factor_tables',
  {
    id: serial('id').primaryKey(),
    originBranchId: integer('origin_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    destinationBranchId: integer('destination_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    productType: text('product_type').notNull(),
    name: text('name').notNull(),
    currency: text('currency').notNull().default('PEN'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('weight_factor_tables_route_uq')
      .on(t.originBranchId, t.destinationBranchId, t.productType)
      .where(sql`${t.active}`),
    check('weight_factor_tables_class_ck', sql`${t.productType} in ('liviano', 'medio', 'alto')`),
    check('weight_factor_tables_route_ck', sql`${t.originBranchId} <> ${t.destinationBranchId}`),
  ],
);

export const weightFactorTiers = pgTable(
  'weight_factor_tiers',
  {
    id: serial('id').primaryKey(),
    tableId: integer('table_id')
      .notNull()
      .references(() => weightFactorTables.id, { onDelete: 'cascade' }),
    fromKg: numeric('from_kg', { precision: 10, scale: 2 }).notNull(),
    toKg: numeric('to_kg', { precision: 10, scale: 2 }).notNull(),
    factorPerKg: numeric('factor_per_kg', { precision: 12, scale: 4 }).notNull(),
    sortOrder: integer('sort_order').notNull(),
  },
  (t) => [index('weight_factor_tiers_table_idx').on(t.tableId, t.fromKg)],
);

/**
 * A route's reference values for the freight detracción (valor referencial, D.S. 010-2006-MTC):
 * the service per TM and the loads of the vehicle that runs it (see packages/domain freight-trip.ts).
 * 'Facturar envíos' fills a 1004 factura's three reference values from these.
 */
export const routeReferenceValues = pgTable(
  'route_reference_values',
  {
    originBranchId: integer('origin_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    destinationBranchId: integer('destination_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    servicePerTm: numeric('service_per_tm', { precision: 12, scale: 2 }).notNull(),
    effectiveLoadTm: numeric('effective_load_tm', { precision: 8, scale: 2 }).notNull(),
    nominalLoadTm: numeric('nominal_load_tm', { precision: 8, scale: 2 }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('route_reference_values_route_uq').on(t.originBranchId, t.destinationBranchId),
    check('route_reference_values_route_ck', sql`${t.originBranchId} <> ${t.destinationBranchId}`),
    check(
      'route_reference_values_amounts_ck',
      sql`${t.servicePerTm} > 0 and ${t.effectiveLoadTm} > 0 and ${t.nominalLoadTm} >= ${t.effectiveLoadTm}`,
    ),
  ],
);
