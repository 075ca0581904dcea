import { sql } from 'drizzle-orm';
import { check, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

export const branches = pgTable(
  'branches',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    city: text('city'),
    address: text('address'),
    /** INEI ubigeo of the branch's district (6 digits): a dispatch guide's origin or destination. */
    ubigeo: text('ubigeo'),
    /** SUNAT annex (código de establecimiento, 4 digits; '0000' the fiscal address). */
    establishmentCode: text('establishment_code').notNull().default('0000'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('branches_name_city_uq').on(sql`lower(${t.name})`, sql`lower(coalesce(${t.city}, ''))`),
    check('branches_ubigeo_ck', sql`${t.ubigeo} is null or ${t.ubigeo} ~ '^[0-9]{6}$'`),
    check('branches_establishment_code_ck', sql`${t.establishmentCode} ~ '^[0-9]{4}$'`),
  ],
);
