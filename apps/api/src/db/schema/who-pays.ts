import { sql } from 'drizzle-orm';
import { boolean, check, integer, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { branches } from './branches.js';

/**
 * The company's rules for pago en destino (issue 33): one row (id 1). Missing, the domain's
 * defaults hold (S/ 500, no weight limit), so a fresh database needs no seed to work.
 */
export const whoPaysRules = pgTable(
  'who_pays_rules',
  {
    id: integer('id').primaryKey(),
    maxDestinationFreight: numeric('max_destination_freight', { precision: 12, scale: 2 }).notNull(),
    originOnlyAboveKg: numeric('origin_only_above_kg', { precision: 10, scale: 2 }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    // No foreign key, as on shipments.created_by: the record outlives staff accounts.
    updatedBy: integer('updated_by'),
  },
  (t) => [
    check('who_pays_rules_single_ck', sql`${t.id} = 1`),
    check('who_pays_rules_max_ck', sql`${t.maxDestinationFreight} >= 0`),
    check('who_pays_rules_weight_ck', sql`${t.originOnlyAboveKg} is null or ${t.originOnlyAboveKg} > 0`),
  ],
);

/** A route that refuses pago en destino; a route with no row allows it. */
export const whoPaysRouteRules = pgTable(
  'who_pays_route_rules',
  {
    originBranchId: integer('origin_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'cascade' }),
    destinationBranchId: integer('destination_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'cascade' }),
    destinationAllowed: boolean('destination_allowed').notNull(),
  },
  (t) => [primaryKey({ columns: [t.originBranchId, t.destinationBranchId] })],
);

/** The payment methods a branch's counter accepts; a branch with no row accepts every method. */
export const whoPaysBranchMethods = pgTable('who_pays_branch_methods', {
  branchId: integer('branch_id')
    .primaryKey()
    .references(() => branches.id, { onDelete: 'cascade' }),
  methods: text('methods').array().notNull(),
});
