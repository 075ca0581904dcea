import { and } from 'drizzle-orm';
import {
  addDays,
  barStarts,
  bucketCount,
  bucketStart,
  CHART_BUCKETS,
  DASHBOARD_SEARCH_CAP,
  earliest,
  latest,
  limaDay,
  SHIPMENT_MESSAGES,
  SHIPMENT_STATUSES,
  type DashboardQuery,
  type ShipmentStatus,
} from '@tramo/domain';
import { badRequest } from '../../lib/errors.ts';
import type { SessionUser, ServiceContext } from '../../types.ts';
import {
  branchScope,
  countByDayAndStatusUpTo,
  dailyCountDays,
  dailyCountsByBucket,
  textFreeConditions,
  searchWindows,
  type DayStatusCount,
} from '../shipments/index.ts';

/** Every status at zero: copied for each bar (a spread, not a fromEntries per bar). */
const NO_SHIPMENTS = Object.fromEntries(SHIPMENT_STATUSES.map((s) => [s, 0])) as Readonly<Record<ShipmentStatus, number>>;

/** With no lower bound and little data, the chart still shows at least the last 30 days. */
const MIN_CHART_DAYS = 30;
/** The chart keeps at most this many bars: days, then weeks, months or years as the span grows. */
const MAX_CHART_BARS = 92;
/** The chart's bars for a span: days, then weeks, months or years, at most MAX_CHART_BARS of them. */
function chartSpan(from: string, dateTo: string) {
  let dateFrom = from;
  const bucket = CHART_BUCKETS.find((b) => bucketCount(dateFrom, dateTo, b) <= MAX_CHART_BARS) ?? 'year';
  // Only a span of more than 92 years gets here: the chart keeps its last 92 years.
  if (bucketCount(dateFrom, dateTo, bucket) > MAX_CHART_BARS) {
    dateFrom = `${String(Number(dateTo.slice(0, 4)) - MAX_CHART_BARS + 1).padStart(4, '0')}-01-01`;
  }
  return { dateFrom, dateTo, bucket };
}

/**
 * The chart's span when a bound is open: the end stops at today (or the last shipment), the start
 * at the first shipment, at least 30 days back.
 */
function openSpan(query: DashboardQuery, today: string, days: { first: string; last: string } | null) {
  const to = query.dateTo ?? latest(today, ...(days ? [days.last] : []), ...(query.dateFrom ? [query.dateFrom] : []));
  return chartSpan(query.dateFrom ?? earliest(addDays(to, -(MIN_CHART_DAYS - 1)), ...(days ? [days.first] : [])), to);
}

/**
 * The Panel in one round trip: counters for exactly the filtered set the latest-shipments list
 * shows (a missing date bound is open, as in the list), and shipments per period by status.
 * The chart spans the given range; an open end stops at today (or the last shipment), an open
 * start at the first shipment (at least 30 days back). Long spans are grouped by week, month or
 * year so the chart keeps a readable number of bars.
 */
export async function dashboard(ctx: ServiceContext, actor: SessionUser, query: DashboardQuery) {
  if (query.dateFrom && query.dateTo && query.dateFrom > query.dateTo) {
    throw badRequest(SHIPMENT_MESSAGES.invalidRange, { dateTo: SHIPMENT_MESSAGES.invalidRange });
  }
  const today = limaDay(ctx.now());
  // The span and bars are known before reading the counts: with both bounds (as the Panel always
  // asks) from the bounds, with an open end from the first and last day the counters hold. The
  // database then adds the counts up by bar: a few hundred rows instead of a row per day and
  // status. A text search needs the shipments themselves, and counts only the newest matches up to
  // a cap; its span comes from the days it found.
  let counts: DayStatusCount[];
  let capped = false;
  let span: ReturnType<typeof chartSpan>;
  if (query.q) {
    ({ counts, capped } = await countByDayAndStatusUpTo(
      ctx.readDb,
      // Each window carries the search's own condition (searchWindows).
      and(branchScope(actor), ...textFreeConditions(query)),
      DASHBOARD_SEARCH_CAP,
      searchWindows(query, ctx.now()),
    ));
    const days = counts.map((c) => c.day).sort();
    span = openSpan(query, today, days.length > 0 ? { first: days[0]!, last: days.at(-1)! } : null);
  } else {
    span =
      query.dateFrom && query.dateTo
        ? chartSpan(query.dateFrom, query.dateTo)
        : openSpan(query, today, await dailyCountDays(ctx.readDb, actor, query));
    counts = await dailyCountsByBucket(ctx.readDb, actor, query, span.bucket, span.dateFrom);
  }

  const zero = () => ({ ...NO_SHIPMENTS });
  const byStatus = zero();
  for (const c of counts) byStatus[c.status] += c.n;
  const { dateFrom, dateTo, bucket } = span;

  // Each bucket is keyed by its first day within the span (the first one may start mid-bucket).
  // Worked out once per day, not once per (day, status) row: a year by week is 2,500 rows of date
  // arithmetic otherwise, ~3 ms of the answer. Counts read by bucket come keyed so already (see
  // dailyCountsByBucket); only a text search's come by day.
  const byDay = Boolean(query.q);
  const keys = new Map<string, string>();
  const keyOf = (day: string) => {
    let key = keys.get(day);
    if (key === undefined) keys.set(day, (key = latest(dateFrom, bucketStart(day, bucket))));
    return key;
  };
  const byBucket = new Map<string, Record<ShipmentStatus, number>>();
  for (const c of counts) {
    if (c.day < dateFrom || c.day > dateTo) continue;
    const key = byDay ? keyOf(c.day) : c.day;
    const entry = byBucket.get(key) ?? zero();
    entry[c.status] += c.n;
    byBucket.set(key, entry);
  }
  const series = barStarts(dateFrom, dateTo, bucket).map((day) => {
    const inBucket = byBucket.get(day) ?? zero();
    return { day, total: SHIPMENT_STATUSES.reduce((a, s) => a + inBucket[s], 0), byStatus: inBucket };
  });
  return {
    /** The span the series covers, and the size of each of its bars. */
    dateFrom,
    dateTo,
    bucket,
    counters: {
      total: SHIPMENT_STATUSES.reduce((a, s) => a + byStatus[s], 0),
      Creado: byStatus.Creado,
      'En tránsito': byStatus['En tránsito'],
      'En agencia': byStatus['En agencia'],
      Entregado: byStatus.Entregado,
      Anulado: byStatus.Anulado,
      Devuelto: byStatus.Devuelto,
    },
    totalCapped: capped,
    series,
  };
}
