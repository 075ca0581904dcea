/**
 * Calendar arithmetic on `YYYY-MM-DD` days (Lima days are plain dates), through UTC midnights: the
 * Panel's chart groups its days by day, week (from Monday), month or year.
 */
export const DAY_MS = 86_400_000;
export const CHART_BUCKETS = ['day', 'week', 'month', 'year'] as const;
export type ChartBucket = (typeof CHART_BUCKETS)[number];

export const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
export const msDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => msDay(dayMs(day) + n * DAY_MS);
/** Whole days from one calendar day to another (negative when `to` comes first). */
export const daysBetween = (from: string, to: string) => Math.round((dayMs(to) - dayMs(from)) / DAY_MS);
export const earliest = (...days: string[]) => days.reduce((a, b) => (b < a ? b : a));
export const latest = (...days: string[]) => days.reduce((a, b) => (b > a ? b : a));

/** The first day of the calendar bucket (Monday-started week, month, year) that holds `day`. */
export function bucketStart(day: string, bucket: ChartBucket): string {
  if (bucket === 'week') {
    // addDays(day, -(days since Monday)), parsing the day once: the Panel asks it of every bar.
    const ms = dayMs(day);
    return msDay(ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS);
  }
  if (bucket === 'month') return `${day.slice(0, 7)}-01`;
  if (bucket === 'year') return `${day.slice(0, 4)}-01-01`;
  return day;
}

/** Moves `d`, the UTC midnight a bucket starts on, to the start of the next bucket. */
function toNextBucket(d: Date, bucket: ChartBucket) {
  if (bucket === 'day') d.setUTCDate(d.getUTCDate() + 1);
  else if (bucket === 'week') d.setUTCDate(d.getUTCDate() + 7);
  else if (bucket === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
}

/** The first day of the bucket after the one that starts on `start`, as a UTC instant. */
export function nextBucketMs(start: string, bucket: ChartBucket): number {
  const d = new Date(dayMs(start));
  toNextBucket(d, bucket);
  return d.getTime();
}

/**
 * The first day of each bar of a chart from `from` to `to`: `from` itself (it may fall mid-bucket),
 * then the start of every following bucket up to `to`. One date is stepped along, where parsing
 * and formatting day strings for each bar cost the Panel ~0.1 ms a year by week (issue 19).
 */
export function barStarts(from: string, to: string, bucket: ChartBucket): string[] {
  const end = dayMs(to);
  if (!(dayMs(from) <= end)) return [];
  const starts = [from];
  const d = new Date(dayMs(bucketStart(from, bucket)));
  for (toNextBucket(d, bucket); d.getTime() <= end; toNextBucket(d, bucket)) starts.push(d.toISOString().slice(0, 10));
  return starts;
}

/** How many buckets of this size the span from `from` to `to` (inclusive) touches. */
export function bucketCount(from: string, to: string, bucket: ChartBucket): number {
  const [a, b] = [bucketStart(from, bucket), bucketStart(to, bucket)];
  if (bucket === 'day') return Math.round((dayMs(b) - dayMs(a)) / DAY_MS) + 1;
  if (bucket === 'week') return Math.round((dayMs(b) - dayMs(a)) / (7 * DAY_MS)) + 1;
  const years = Number(b.slice(0, 4)) - Number(a.slice(0, 4));
  return bucket === 'year' ? years + 1 : years * 12 + Number(b.slice(5, 7)) - Number(a.slice(5, 7)) + 1;
}
