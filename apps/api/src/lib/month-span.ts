import { sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import { addDays, dayMs, msDay } from '@tramo/domain';

/**
 * How a range of days (YYYY-MM-DD, inclusive, either end open) splits between counters kept per
 * month and counters kept per day: the whole calendar months inside it, read from the monthly rows,
 * and the days at either end that only part of a month covers, read from the daily rows. An open
 * end takes every month on that side, so a range with no dates is months only.
 */
export interface MonthSpan {
  /** The first days of the first and last whole months (null: open on that side); null when no month is whole. */
  months: DayRange | null;
  /** Day ranges (inclusive) outside the whole months: none, one or two. */
  days: DayRange[];
}

const monthStart = (day: string) => `${day.slice(0, 7)}-01`;
/** The first day of the month `shift` months from `day`'s. */
const monthFrom = (day: string, shift: number) => {
  const d = new Date(dayMs(monthStart(day)));
  d.setUTCMonth(d.getUTCMonth() + shift);
  return msDay(d.getTime());
};

export function monthSpan(from: string | undefined, to: string | undefined): MonthSpan {
  // The first whole month starts on `from` if it is a first day, else on the next month's; the last
  // whole month ends on `to` if it is a last day, else the month before `to`'s is the last whole one.
  const first = from === undefined ? null : from === monthStart(from) ? from : monthFrom(from, 1);
  const last = to === undefined ? null : addDays(to, 1) === monthFrom(to, 1) ? monthStart(to) : monthFrom(to, -1);
  if (first !== null && last !== null && first > last) return { months: null, days: [{ from: from ?? null, to: to ?? null }] };
  const days: MonthSpan['days'] = [];
  if (from !== undefined && first !== null && from < first) days.push({ from, to: addDays(first, -1) });
  if (to !== undefined && last !== null && to >= monthFrom(last, 1)) days.push({ from: monthFrom(last, 1), to });
  return { months: { from: first, to: last }, days };
}

/** A range of days or of months' first days, inclusive; null is open on that side. */
export interface DayRange {
  from: string | null;
  to: string | null;
}

/** A date column within a range, as conditions for and(). */
export const within = (column: SQLWrapper | AnyColumn, range: DayRange) => [
  range.from ? sql`${column} >= ${range.from}` : undefined,
  range.to ? sql`${column} <= ${range.to}` : undefined,
];

/**
 * The counter rows for the days from `from` to `to` as one derived table named `c`: `read.months`
 * selects the rows of the whole months (a range of first days), `read.days` those of the days a
 * month is cut at (a range of days), each with the same columns.
 */
export function counterRows(
  from: string | undefined,
  to: string | undefined,
  read: { months: (range: DayRange) => SQL; days: (range: DayRange) => SQL },
): SQL {
  const span = monthSpan(from, to);
  const parts = [...(span.months ? [read.months(span.months)] : []), ...span.days.map(read.days)];
  return sql`(${sql.join(parts, sql` union all `)}) c`;
}
