import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { bytea } from './columns.js';
import { users } from './users.js';

/**
 * The company's own data (issue 36, module `company`): exactly one row (id = 1, checked), written
 * by the admins' 'Empresa' screen. Until it is first saved, the issuer of config.ts stands in.
 */
export const company = pgTable(
  'company',
  {
    id: integer('id').primaryKey().default(1),
    ruc: text('ruc').notNull(),
    name: text('name').notNull(),
    tradeName: text('trade_name'),
    address: text('address').notNull(),
    mtcRegistration: text('mtc_registration'),
    guidesBeforeDeparture: boolean('guides_before_departure').notNull().default(true),
    logo: bytea('logo'),
    logoType: text('logo_type'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedByName: text('updated_by_name'),
  },
  (t) => [
    check('company_single_row', sql`${t.id} = 1`),
    check(
      'company_logo_type',
      sql`(${t.logo} is null) = (${t.logoType} is null) and (${t.logoType} is null or ${t.logoType} in ('image/jpeg', 'image/png'))`,
    ),
  ],
);
