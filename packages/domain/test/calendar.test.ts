import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, barStarts, bucketCount, bucketStart, CHART_BUCKETS, dayMs, earliest, latest, msDay, nextBucketMs } from '../src/calendar.ts';

describe('calendar of the Panel chart', () => {
  it('adds days across months, leap years and years', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(earliest('2026-05-01', '2025-12-31', '2026-01-01')).toBe('2025-12-31');
    expect(latest('2026-05-01', '2025-12-31', '2026-01-01')).toBe('2026-05-01');
  });

  it.each([
    ['2026-11-23', 'day', '2026-11-23'],
    ['2026-11-23', 'week', '2026-11-23'], // a Monday
    ['2026-11-29', 'week', '2026-11-23'], // the Sunday after
    ['2026-11-22', 'week', '2026-11-16'],
    ['2026-11-23', 'month', '2026-11-01'],
    ['2026-11-23', 'year', '2026-01-01'],
  ] as const)('the %s bucket of %s starts on %s', (day, bucket, start) => {
    expect(bucketStart(day, bucket)).toBe(start);
  });

  it('steps to the next bucket and counts the buckets a span touches', () => {
    expect(msDay(nextBucketMs('2026-11-01', 'month'))).toBe('2026-12-01');
    expect(msDay(nextBucketMs('2026-11-23', 'week'))).toBe('2026-11-30');
    expect(msDay(nextBucketMs('2026-01-01', 'year'))).toBe('2027-01-01');
    expect(bucketCount('2026-11-01', '2026-11-30', 'day')).toBe(30);
    expect(bucketCount('2026-11-22', '2026-11-23', 'week')).toBe(2);
    expect(bucketCount('2025-11-15', '2026-02-01', 'month')).toBe(4);
    expect(bucketCount('2001-06-01', '2026-01-01', 'year')).toBe(26);
  });

  const day = fc.integer({ min: dayMs('1990-01-01'), max: dayMs('2060-12-31') }).map((ms) => msDay(Math.floor(ms / 86_400_000) * 86_400_000));

  it('starts a week on the Monday on or before the day', () => {
    fc.assert(
      fc.property(day, (d) => {
        const monday = bucketStart(d, 'week');
        expect(new Date(dayMs(monday)).getUTCDay()).toBe(1);
        expect(monday <= d && addDays(monday, 6) >= d).toBe(true);
      }),
    );
  });

  it("lists a chart's bars as stepping bucket by bucket does", () => {
    fc.assert(
      fc.property(day, fc.integer({ min: -10, max: 800 }), fc.constantFrom(...CHART_BUCKETS), (from, days, bucket) => {
        const to = addDays(from, days);
        const stepped: string[] = [];
        for (let start = from; dayMs(start) <= dayMs(to); start = msDay(nextBucketMs(bucketStart(start, bucket), bucket))) stepped.push(start);
        expect(barStarts(from, to, bucket)).toEqual(stepped);
      }),
    );
    expect(barStarts('2026-11-25', '2026-12-10', 'week')).toEqual(['2026-11-25', '2026-11-30', '2026-12-07']);
  });
});
