import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays, dayText, limaDateTime, limaDay, limaDayEnd, limaDayStart } from '../src/index.ts';

describe('Lima dates', () => {
  // What the web formatted with before (es-PE, Lima, 24 h): the one formatter must print the same.
  const intl = new Intl.DateTimeFormat('es-PE', {
    timeZone: 'America/Lima',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  // Peru last kept summer time in 1994; since then Lima is UTC-5 all year (DESIGN.md).
  const instant = fc.date({ min: new Date('1995-01-01T00:00:00Z'), max: new Date('2060-12-31T23:59:59Z'), noInvalidDate: true });

  it('prints dd/mm/yyyy hh:mm in Lima time, as Intl does', () => {
    expect(limaDateTime('2026-11-26T05:04:00Z')).toBe('26/11/2026 00:04');
    expect(limaDateTime(new Date('2026-01-01T04:59:00Z'))).toBe('31/12/2025 23:59');
    expect(dayText('2026-03-09')).toBe('09/03/2026');
    fc.assert(
      fc.property(instant, (d) => {
        expect(limaDateTime(d)).toBe(intl.format(d).replace(',', ''));
        expect(limaDateTime(d.toISOString())).toBe(limaDateTime(d));
        expect(limaDateTime(d).slice(0, 10)).toBe(dayText(limaDay(d)));
      }),
      { numRuns: 2000 },
    );
  });

  it('puts every instant inside its Lima day, whose end is the next day’s start', () => {
    fc.assert(
      fc.property(instant, (d) => {
        const day = limaDay(d);
        expect(limaDayStart(day).getTime()).toBeLessThanOrEqual(d.getTime());
        expect(d.getTime()).toBeLessThan(limaDayEnd(day).getTime());
        expect(limaDayEnd(day)).toEqual(limaDayStart(addDays(day, 1)));
      }),
      { numRuns: 1000 },
    );
  });
});
