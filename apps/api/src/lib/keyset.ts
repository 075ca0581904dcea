import { count, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { PAGING_MESSAGES } from '@tramo/domain';
import type { Db } from '../db/client.ts';
import { badRequest } from './errors.ts';

/** Days since 1970 within PostgreSQL's integer and date ranges (about year 5,400,000). */
const MAX_DAY_CURSOR = 2_000_000_000;

/**
 * Keyset (seek) paging of a large list, newest first, shared by shipments, movements, payments and
 * the documents register (issue 19): numbered pages by OFFSET only as far as NUMBERED_PAGE_ROWS,
 * then 'Siguiente' / 'Anterior' next to a cursor, a seek along the list's (sort, id) index that costs
 * the same at any depth.
 */

/** A list's order: a sort column (an instant or a day), the id breaking ties, both descending. */
export interface KeysetOrder {
  at: AnyPgColumn | SQL;
  id: AnyPgColumn | SQL;
  /** What `at` holds: the cursor carries an instant in microseconds (a JS Date would drop them) or a day as days since 1970. */
  unit: 'microseconds' | 'days';
}

/** The cursor of a row (`1732345678123456.42`), as the query answers it. */
export function cursorOf(order: KeysetOrder): SQL<string> {
  const at =
    order.unit === 'microseconds' ? sql`((extract(epoch from ${order.at}) * 1000000)::bigint)::text` : sql`(${order.at} - date '1970-01-01')::text`;
  return sql<string>`${at} || '.' || ${order.id}`;
}

/** Rows further down (after) or up (before) the list than the cursor's row, in the order of the list's index. */
function beyond(order: KeysetOrder, cursor: string, side: 'after' | 'before'): SQL {
  const [value, id] = cursor.split('.');
  // A day cursor is an integer count of days; a bigger one names no day the list can hold.
  if (order.unit !== 'microseconds' && Number(value) > MAX_DAY_CURSOR) throw badRequest(PAGING_MESSAGES.invalidCursor);
  const at =
    order.unit === 'microseconds'
      ? sql`(timestamptz 'epoch' + ${value}::bigint * interval '1 microsecond')`
      : sql`(date '1970-01-01' + ${Number(value)}::int)`;
  return side === 'after'
    ? sql`(${order.at}, ${order.id}) < (${at}, ${Number(id)}::int)`
    : sql`(${order.at}, ${order.id}) > (${at}, ${Number(id)}::int)`;
}

export interface KeysetRequest {
  page: number;
  pageSize: number;
  after?: string | undefined;
  before?: string | undefined;
}

/**
 * Reads the rows of one page: `seek` (undefined on a numbered page) joins the list's own filters,
 * `orderBy` is the list's order or its reverse; each row carries its cursor (select `cursorOf`).
 */
export type KeysetFetch<R> = (query: { seek: SQL | undefined; orderBy: SQL; limit: number; offset: number }) => Promise<R[]>;

/**
 * One page of a list: by number (OFFSET) or next to a cursor. One row more than the page tells
 * whether another page follows; `next` / `prev` are the cursors for 'Siguiente' / 'Anterior'.
 */
export async function keysetPage<R extends { cursor: string }>(order: KeysetOrder, request: KeysetRequest, fetch: KeysetFetch<R>) {
  const { pageSize } = request;
  if (request.before) {
    const upper = await fetch({
      seek: beyond(order, request.before, 'before'),
      orderBy: sql`${order.at} asc, ${order.id} asc`,
      limit: pageSize + 1,
      offset: 0,
    });
    const rows = upper.slice(0, pageSize).reverse();
    return { rows, next: rows.at(-1)?.cursor ?? null, prev: upper.length > pageSize ? (rows[0]?.cursor ?? null) : null };
  }
  const lower = await fetch({
    seek: request.after ? beyond(order, request.after, 'after') : undefined,
    orderBy: sql`${order.at} desc, ${order.id} desc`,
    limit: pageSize + 1,
    offset: request.after ? 0 : (request.page - 1) * pageSize,
  });
  const rows = lower.slice(0, pageSize);
  const notFirst = request.after !== undefined || request.page > 1;
  return { rows, next: lower.length > pageSize ? (rows.at(-1)?.cursor ?? null) : null, prev: notFirst ? (rows[0]?.cursor ?? null) : null };
}

/**
 * How many rows of `table` match, counting no further than `cap` (the total is then "more than
 * cap"): a bounded probe for a list whose matches no maintained counter knows.
 */
export async function countUpTo(db: Db, table: PgTable, where: SQL | undefined, cap: number) {
  const matches = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(cap + 1)
    .as('matches');
  const [row] = await db.select({ total: count() }).from(matches);
  const counted = Number(row?.total ?? 0);
  return { total: Math.min(counted, cap), totalCapped: counted > cap };
}
