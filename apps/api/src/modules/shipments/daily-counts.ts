import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { ACTIVE_STATUSES, addDays, FINAL_STATUSES, scopeOf, type ChartBucket, type ShipmentFilters, type ShipmentStatus } from '@tramo/domain';
import type { Db } from '../../db/client.ts';
import {
  shipmentDailyBranchCounts,
  shipmentDailyCountDeltas,
  shipmentDailyCounts,
  shipmentDailyStatusCounts,
  shipmentMonthlyBranchCounts,
  shipmentMonthlyCounts,
  shipmentMonthlyStatusCounts,
  shipments,
} from '../../db/schema.ts';
import { branchScopeCondition } from '../../lib/branch-scope.ts';
import type { App, SessionUser } from '../../types.ts';
import { runInBackground } from '../../lib/background.ts';
import { monthSpan, within, type DayRange, type MonthSpan } from '../../lib/month-span.ts';
import { eachWindow, type SearchWindow } from './search.ts';

export interface DayStatusCount {
  day: string;
  status: ShipmentStatus;
  n: number;
}

/**
 * Counts per Lima day and status (Lima has no DST: the fixed −5 h shift gives the same days as
 * `limaDay()`) of at most the newest `cap` matching shipments, and whether more match: for a
 * text search, which no maintained counter knows. The `windows` of creation instants (the search's
 * searchWindows, newest first) are read in order until the cap is reached, so a common name reads
 * the newest rows it counts and not its matches over the whole history (issue 37). Within a window,
 * LIMIT lets the planner stop walking the newest rows (a common name) or sort only a rare name's few
 * index matches; never a count of every match.
 */
export async function countByDayAndStatusUpTo(
  db: Db,
  where: SQL | undefined,
  cap: number,
  windows: SearchWindow[] = [{ from: null, to: null, days: Infinity }],
): Promise<{ counts: DayStatusCount[]; capped: boolean }> {
  // A Lima day can straddle two windows: its counts add up.
  const counts = new Map<string, DayStatusCount>();
  let capped = false;
  // One more than the cap tells whether more match.
  await eachWindow(windows, cap + 1, async (window, left) => {
    const conditions = and(where, window);
    const result = await db.execute(sql`
      select to_char((m.created_at at time zone 'UTC') - interval '5 hours', 'YYYY-MM-DD') as day, m.status,
             count(*) filter (where m.rn < ${left})::int as n, max(m.rn)::int as found
        from (select ${shipments.createdAt} as created_at, ${shipments.status} as status,
                     row_number() over (order by ${shipments.createdAt} desc, ${shipments.id} desc) as rn
                from ${shipments} ${conditions ? sql`where ${conditions}` : sql``}
               order by ${shipments.createdAt} desc, ${shipments.id} desc limit ${left}) m
       group by 1, 2`);
    const rows = result.rows as { day: string; status: string; n: number; found: number }[];
    for (const r of rows.filter((r) => Number(r.n) > 0)) {
      const key = `${r.day} ${r.status}`;
      const known = counts.get(key);
      if (known) known.n += Number(r.n);
      else counts.set(key, { day: r.day, status: r.status as ShipmentStatus, n: Number(r.n) });
    }
    const found = Math.max(0, ...rows.map((r) => Number(r.found)));
    if (found === left) capped = true;
    return found;
  });
  return { counts: [...counts.values()], capped };
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
  // a row per day (or whole month) and status, not on every counter row. A whole month is one bar's
  // share only when bars are months or years, and only from `from` on: the month `from` cuts is
  // read by days, so its first bar starts on `from` (issue 37: before, the whole history by days).
  const start = bucket === 'day' ? sql`d.day` : sql`date_trunc(${bucket}, d.day::timestamp)::date`;
  const before =
    filters.dateFrom === undefined || filters.dateFrom < from ? [countRows(actor, filters, filters.dateFrom, addDays(from, -1), true)] : [];
  const inChart = countRows(actor, filters, from, filters.dateTo, bucket === 'month' || bucket === 'year');
  const result = await db.execute(sql`
    select (case when d.day < ${from}::date then ${start} else greatest(${start}, ${from}::date) end)::text as day, d.status, sum(d.n)::bigint as n
      from (select k.day, k.status, sum(k.n) as n from (${sql.join([...before, inChart], sql` union all `)}) k group by k.day, k.status) d
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
  const ends = [foldedSource(actor, filters, 'day'), deltaSource(actor, filters)].map(
    ({ table, date, where, n }) =>
      sql`(select min(${date}) from ${table} where ${where} and ${n} > 0), (select max(${date}) from ${table} where ${where} and ${n} > 0)`,
  );
  const result = await db.execute(sql`
    select least(f.first, d.first)::text as first, greatest(f.last, d.last)::text as last
      from (select ${ends[0]}) f(first, last), (select ${ends[1]}) d(first, last)`);
  const row = result.rows[0] as { first: string | null; last: string | null };
  return row.first && row.last ? { first: row.first, last: row.last } : null;
}

/**
 * The list's total from the same counters, added up by the database: one row comes back. The
 * whole months of the dates (all of them without dates) are month rows, so a route, status or
 * branch filter over ten years reads a hundred rows or so, not one per day (issue 37).
 */
export async function dailyCountTotal(db: Db, actor: SessionUser, filters: Omit<ShipmentFilters, 'q'>): Promise<number> {
  const result = await db.execute(
    sql`select coalesce(sum(k.n), 0)::bigint as n from (${countRows(actor, filters, filters.dateFrom, filters.dateTo, true)}) k`,
  );
  return Number((result.rows[0] as { n: string | number }).n);
}

/**
 * Counter rows matching the filters for the days from `from` to `to` (inclusive, either open):
 * day, status, n. With `months`, the whole calendar months come from the monthly counts (day = the
 * month's first day) and only the days a month is cut at from the daily ones (lib/month-span.ts);
 * without, every day from the daily ones. Both from the smallest table that answers the filters
 * (see foldedSource), plus the pending deltas of those days.
 */
function countRows(actor: SessionUser, filters: Omit<ShipmentFilters, 'q'>, from: string | undefined, to: string | undefined, months: boolean): SQL {
  const rowsOf = ({ table, date, where, n }: CounterSource, range: DayRange) =>
    sql`select ${date} as day, ${table.status} as status, ${n} as n from ${table} where ${and(where, ...within(date, range))}`;
  // The last day a date holds bounds nothing, and the month after it has no date (monthSpan's edge).
  if (to !== undefined && to >= LAST_DAY) to = undefined;
  const span: MonthSpan = months ? monthSpan(from, to) : { months: null, days: [{ from: from ?? null, to: to ?? null }] };
  const parts = [
    ...(span.months ? [rowsOf(foldedSource(actor, filters, 'month'), span.months)] : []),
    ...span.days.map((range) => rowsOf(foldedSource(actor, filters, 'day'), range)),
    rowsOf(deltaSource(actor, filters), { from: from ?? null, to: to ?? null }),
  ];
  return sql.join(parts, sql` union all `);
}

const LAST_DAY = '9999-12-31';

type CounterTable =
  | typeof shipmentDailyCounts
  | typeof shipmentDailyCountDeltas
  | typeof shipmentDailyStatusCounts
  | typeof shipmentDailyBranchCounts
  | typeof shipmentMonthlyCounts
  | typeof shipmentMonthlyStatusCounts
  | typeof shipmentMonthlyBranchCounts;

/** A counter table, its date column (a day or a month's first day), the filters but dates as its conditions, and the column that counts what they match. */
interface CounterSource {
  table: CounterTable;
  date: AnyPgColumn;
  where: SQL;
  n: AnyPgColumn;
}

/** The pending deltas (always per route and day). */
function deltaSource(actor: SessionUser, filters: Omit<ShipmentFilters, 'q'>): CounterSource {
  const d = shipmentDailyCountDeltas;
  return { table: d, date: d.day, where: routeConditions(d, actor, filters), n: d.n };
}

/** Each kind of folded counts, per day and per month. */
const FOLDED = {
  company: { day: shipmentDailyStatusCounts, month: shipmentMonthlyStatusCounts },
  branch: { day: shipmentDailyBranchCounts, month: shipmentMonthlyBranchCounts },
  route: { day: shipmentDailyCounts, month: shipmentMonthlyCounts },
} as const;

/**
 * With no route in play (an admin, no origin or destination filter) the counts added up over the
 * routes (migration 0019), a row per day and status; with one branch on one side or either (an
 * agent's scope, an admin's origin or destination filter) that branch's counts (migration 0023), a
 * row per day and status too; else every route's row. Each per day or per month (migration 0092).
 */
function foldedSource(actor: SessionUser, filters: Omit<ShipmentFilters, 'q'>, grain: 'day' | 'month'): CounterSource {
  const dateOf = (t: CounterTable) => ('month' in t ? t.month : t.day);
  if (actor.role === 'admin' && !filters.originBranchId && !filters.destinationBranchId) {
    const c = FOLDED.company[grain];
    return { table: c, date: dateOf(c), where: statusConditions(c, filters) ?? sql`true`, n: c.n };
  }
  const one = oneBranch(actor, filters);
  if (one) {
    const c = FOLDED.branch[grain];
    const n = one.side === 'origin' ? c.nOrigin : one.side === 'destination' ? c.nDestination : c.n;
    return { table: c, date: dateOf(c), where: and(eq(c.branchId, one.branchId), statusConditions(c, filters))!, n };
  }
  const c = FOLDED.route[grain];
  return { table: c, date: dateOf(c), where: routeConditions(c, actor, filters), n: c.n };
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

/** The filters' status on a counter table (the dates are the caller's: a day or a month range). */
function statusConditions(c: CounterTable, filters: Omit<ShipmentFilters, 'q'>): SQL | undefined {
  const where: SQL[] = [];
  if (filters.status) where.push(eq(c.status, filters.status));
  if (filters.active !== undefined) where.push(inArray(c.status, [...(filters.active ? ACTIVE_STATUSES : FINAL_STATUSES)]));
  return and(...where);
}

/** The filters but dates, the actor's branch scope included, on a table with a row per route. */
function routeConditions(
  c: typeof shipmentDailyCounts | typeof shipmentDailyCountDeltas | typeof shipmentMonthlyCounts,
  actor: SessionUser,
  filters: Omit<ShipmentFilters, 'q'>,
): SQL {
  const where: (SQL | undefined)[] = [statusConditions(c, filters)];
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
