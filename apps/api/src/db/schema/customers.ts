import { sql, type SQL } from 'drizzle-orm';
import { check, index, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name'),
    // SUNAT catalogue 06: 1 DNI, 4 carné de extranjería, 6 RUC, 7 pasaporte.
    docType: smallint('doc_type').notNull(),
    docNumber: text('doc_number').notNull(),
    address: text('address'),
    ubigeo: text('ubigeo'),
    phone: text('phone'),
    email: text('email'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('customers_doc_uq').on(t.docType, t.docNumber),
    check('customers_doc_type_ck', sql`${t.docType} in (1, 4, 6, 7)`),
    // One trigram index over everything the directory searches, so `q` never scans the table.
    index('customers_search_trgm').using('gin', sql`(${customerSearchText(t)}) gin_trgm_ops`),
  ],
);

/**
 * What the directory search matches, and exactly the expression of `customers_search_trgm`, so the
 * planner answers `LIKE '%…%'` from the index. The phone also appears without separators: staff
 * type '987654321' for a number saved as '987 654 321'.
 */
export function customerSearchText(t: {
  firstName: AnyPgColumn;
  lastName: AnyPgColumn;
  docNumber: AnyPgColumn;
  phone: AnyPgColumn;
  email: AnyPgColumn;
}): SQL {
  return sql`lower(${t.firstName} || ' ' || coalesce(${t.lastName}, '') || ' ' || ${t.docNumber} || ' ' || coalesce(${t.phone}, '') || ' ' || regexp_replace(coalesce(${t.phone}, ''), '[^0-9]', '', 'g') || ' ' || coalesce(${t.email}, ''))`;
}

/** Answers of the external DNI/RUC lookup, kept 30 days. */
export const lookupCache = pgTable(
  'lookup_cache',
  {
    kind: text('kind').notNull(),
    number: text('number').notNull(),
    payload: jsonb('payload').notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.number] })],
);
