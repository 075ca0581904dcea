import { and, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { ACTIVE_STATUSES, FINAL_STATUSES, scopeOf, type ChartBucket, type ShipmentFilters, type ShipmentStatus } from '@tramo/domain';
import type { Db } from '../../db/client.ts';
import { shipmentDailyBranchCounts, shipmentDailyCountDeltas, shipmentDailyCounts, shipmentDailyStatusCounts, shipments } from '../../db/schema.ts';
import { branchScopeCondition } from '../../lib/branch-scope.ts';
import type { App, SessionUser } from '../../types.ts';
import { runInBackground } from '../../lib/background.ts';

export interface DayStatusCount {
  day: string;
  status: ShipmentStatus;
  n: number;
}

/**
 * Counts per Lima day and status (Lima has no DST: the fixed −5 h shift gives the same days as
 * `limaDay()`) of at most the newest `cap` matching shipments, and whether more match: for a
 * text search, which no maintained counter knows. LIMIT lets the planner stop walking the newest
 * rows (a common name) or sort only a rare name's few index matches; never a count of every match.
 */
export async function countByDayAndStatusUpTo(db: Db, where: SQL | undefined, cap: number): Promise<{ counts: DayStatusCount[]; capped: boolean }> {
  const result = await db.execute(sql`
    select to_char((m.created_at at time zone 'UTC') - interval '5 hours', 'YYYY-MM-DD') as day, m.status,
           count(*) filter (where m.rn <= ${cap})::int as n, max(m.rn)::int as found
      from (select ${shipments.createdAt} as created_at, ${shipments.status} as status,
                   row_number() over (order by ${shipments.createdAt} desc, ${shipments.id} desc) as rn
              from ${shipments} ${where ? sql`where ${where}` : sql``}
             order by ${shipments.createdAt} desc, ${shipments.id} desc limit ${cap + 1}) m
     group by 1, 2`);
  const rows = result.rows as { day: string; status: string; n: number; found: number }[];
  return {
    counts: rows.filter((r) => Number(r.n) > 0).map((r) => ({ day: r.day, status: r.status as ShipmentStatus, n: Number(r.n) })),
    capped: rows.some((r) => Number(r.found) > cap),
  };
}

const dayStatusCounts = (rows: unknown[]): DayStatusCount[] =>
  (rows as { day: string; status: string; n: string | number }[]).map((r) => ({ day: r.day, status: r.status as ShipmentStatus, n: Number(r.n) }));

/**
 * The same counts grouped by chart bucket (the day, its Monday-started week, month or year, as the
 * domain's bucketStart), keyed by the bucket's first day within a chart starting on `from`: at most
 * a few hundred rows whatever the span, where a year day by day is thousands for the Panel to group.
 * Days before `from` keep their bucket's own start, so a chart that drops its oldest years (over 92
 * bars) leaves them out of the series and in the counters, as day-by-day rows did.
 */
export async function dailyCountsByBucket(
  db: Db,
  actor: SessionUser,
  filters: Omit<ShipmentFilters, 'q'>,
  bucket: ChartBucket,
  from: string,
): Promise<DayStatusCount[]> {
  // Per day first (the counts' rows are per route too), then per bar: the date arithmetic runs on
  // a row per day and status, not on every counter row.
  const start = bucket === 'day' ? sql`d.day` : sql`date_trunc(${bucket}, d.day::timestamp)::date`;
  const result = await db.execute(sql`
    select (case when d.day < ${from}::date then ${start} else greatest(${start}, ${from}::date) end)::text as day, d.status, sum(d.n)::bigint as n
      from (select k.day, k.status, sum(k.n) as n from (${dailyCountRows(actor, filters)}) k group by k.day, k.status) d
     group by 1, 2`);
  return dayStatusCounts(result.rows);
}

/**
 * The first and last day the counters hold a shipment matching the filters (null when none): where
 * a chart with an open end starts or stops. Each end is one walk of the counters' day index.
 */
export async function dailyCountDays(
  db: Db,
  actor: SessionUser,
  filters: Omit<ShipmentFilters, 'q'>,
): Promise<{ first: string; last: string } | null> {
  // Scalar min()/max() per table, which PostgreSQL answers from the day index; over a union it
  // would read every row.
  const ends = dailyCountSources(actor, filters).map(
    ({ table, where, n }) =>
      sql`(select min(${table.day}) from ${table} where ${where} and ${n} > 0), (select max(${table.day}) from ${table} where ${where} and ${n} > 0)`,
  );
  const result = await db.execute(sql`
    select least(f.first, d.first)::text as first, greatest(f.last, d.last)::text as last
      from (select ${ends[0]}) f(first, last), (select ${ends[1]}) d(first, last)`);
  const row = result.rows[0] as { first: string | null; last: string | null };
  return row.first && row.last ? { first: row.first, last: row.last } : null;
}

/**
 * The list's total from the same counters, added up by the database: one row comes back, where the
 * per-day answer would bring a row per day and status (thousands over a few years).
 */
export async function dailyCountTotal(db: Db, actor: SessionUser, filters: Omit<ShipmentFilters, 'q'>): Promise<number> {
  const result = await db.execute(sql`select coalesce(sum(k.n), 0)::bigint as n from (${dailyCountRows(actor, filters)}) k`);
  return Number((result.rows[0] as { n: string | number }).n);
}

/**
 * Counter rows (folded counts and pending deltas) matching the filters: day, status, n. The folded
 * part comes from the smallest table that answers the filters (see foldedSource).
 */
function dailyCountRows(actor: SessionUser, filters: Omit<ShipmentFilters, 'q'>): SQL {
  const [folded, deltas] = dailyCountSources(actor, filters);
  return sql`select ${folded.table.day} as day, ${folded.table.status} as status, ${folded.n} as n from ${folded.table} where ${folded.where}
      union all
      select ${deltas.table.day}, ${deltas.table.status}, ${deltas.n} from ${deltas.table} where ${deltas.where}`;
}

type CounterTable =
  typeof shipmentDailyCounts | typeof shipmentDailyCountDeltas | typeof shipmentDailyStatusCounts | typeof shipmentDailyBranchCounts;

/** A counter table, the filters as its conditions, and the column that counts what they match. */
interface CounterSource {
  table: CounterTable;
  where: SQL;
  n: AnyPgColumn;
}

/** The two sources a count is the sum of: folded counts, then pending deltas (always per route). */
function dailyCountSources(actor: SessionUser, filters: Omit<ShipmentFilters, 'q'>): readonly [CounterSource, CounterSource] {
  const deltas = shipmentDailyCountDeltas;
  return [foldedSource(actor, filters), { table: deltas, where: routeConditions(deltas, actor, filters), n: deltas.n }] as const;
}

/**
 * With no route in play (an admin, no origin or destination filter) the counts added up over the
 * routes (migration 0019), a row per day and status; with one branch on one side or either (an
 * agent's scope, an admin's origin or destination filter) that branch's counts (migration 0023), a
 * row per day and status too; else every route's row.
 */
function foldedSource(actor: SessionUser, filters: Omit<ShipmentFilters, 'q'>): CounterSource {
  if (actor.role === 'admin' && !filters.originBranchId && !filters.destinationBranchId) {
    const c = shipmentDailyStatusCounts;
    return { table: c, where: dayAndStatusConditions(c, filters) ?? sql`true`, n: c.n };
  }
  const one = oneBranch(actor, filters);
  if (one) {
    const c = shipmentDailyBranchCounts;
    const n = one.side === 'origin' ? c.nOrigin : one.side === 'destination' ? c.nDestination : c.n;
    return { table: c, where: and(eq(c.branchId, one.branchId), dayAndStatusConditions(c, filters))!, n };
  }
  return { table: shipmentDailyCounts, where: routeConditions(shipmentDailyCounts, actor, filters), n: shipmentDailyCounts.n };
}

/**
 * The one branch whose shipments the scope and route filters leave, and on which side (either is
 * origin OR destination, an agent's scope); null when they name a route or none.
 */
function oneBranch(
  actor: SessionUser,
  { originBranchId: origin, destinationBranchId: destination }: Omit<ShipmentFilters, 'q'>,
): { branchId: number; side: 'either' | 'origin' | 'destination' } | null {
  if (actor.role === 'admin') {
    if (origin && !destination) return { branchId: origin, side: 'origin' };
    if (destination && !origin) return { branchId: destination, side: 'destination' };
    return null;
  }
  const own = actor.branchId;
  if (own === null) return null;
  if (!origin && !destination) return { branchId: own, side: 'either' };
  // Their own branch on one side narrows their scope to that side; another branch makes a route.
  if (origin === own && !destination) return { branchId: own, side: 'origin' };
  if (destination === own && !origin) return { branchId: own, side: 'destination' };
  return null;
}

/** The filters' days and status on a counter table (a missing date bound is open, as in the list). */
function dayAndStatusConditions(c: CounterTable, filters: Omit<ShipmentFilters, 'q'>): SQL | undefined {
  const where: SQL[] = [];
  // Inclusive Lima days, as the list's createdAt bounds.
  if (filters.dateFrom) where.push(gte(c.day, filters.dateFrom));
  if (filters.dateTo) where.push(lte(c.day, filters.dateTo));
  if (filters.status) where.push(eq(c.status, filters.status));
  if (filters.active !== undefined) where.push(inArray(c.status, [...(filters.active ? ACTIVE_STATUSES : FINAL_STATUSES)]));
  return and(...where);
}

/** The filters, the actor's branch scope included, on a table with a row per route. */
function routeConditions(
  c: typeof shipmentDailyCounts | typeof shipmentDailyCountDeltas,
  actor: SessionUser,
  filters: Omit<ShipmentFilters, 'q'>,
): SQL {
  const where: (SQL | undefined)[] = [dayAndStatusConditions(c, filters)];
  where.push(branchScopeCondition(scopeOf(actor), c.originBranchId, c.destinationBranchId));
  if (filters.originBranchId) where.push(eq(c.originBranchId, filters.originBranchId));
  if (filters.destinationBranchId) where.push(eq(c.destinationBranchId, filters.destinationBranchId));
  return and(...where) ?? sql`true`;
}

/** Key of the advisory lock that lets one process at a time fold the daily count deltas. */
const FOLD_LOCK = 7_283_019;

/**
 * Moves the deltas the trigger appended into shipment_daily_counts, in one statement: a reader
 * sees them either still as deltas or already folded, never both nor neither. Creations append
 * rows instead of updating one counter row per (day, route, status), so they never queue on it.
 */
export async function foldDailyCounts(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const lock = await tx.execute(sql`select pg_try_advisory_xact_lock(${FOLD_LOCK}) as ok`);
    if (!(lock.rows[0] as { ok: boolean }).ok) return;
    await tx.execute(sql`
      with moved as (delete from shipment_daily_count_deltas returning day, origin_branch_id, destination_branch_id, status, n)
      insert into shipment_daily_counts as c (day, origin_branch_id, destination_branch_id, status, n)
      select day, origin_branch_id, destination_branch_id, status, sum(n) from moved group by 1, 2, 3, 4
      on conflict (day, origin_branch_id, destination_branch_id, status) do update set n = c.n + excluded.n`);
  });
}

/**
 * Folds the daily count deltas into the counts every `everyMs` while the app runs. Readers sum
 * counts and deltas, so this only keeps the deltas few; every process tries, one at a time folds.
 */
export function foldDailyCountsInBackground(app: App, everyMs = 1000) {
  runInBackground(app, everyMs, () => foldDailyCounts(app.db), 'No se pudieron consolidar los conteos diarios');
}
