import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  computeDocument,
  documentTotals,
  igvOf,
  inclusiveLineAmounts,
  lineAmounts,
  parseDecimal,
  splitIgvInclusive,
  type IgvType,
  type LineInput,
} from '../src/index.ts';

type Row = [quantity: string | number, unitValue: string | number, discount: string | number | null, igvType: IgvType];
interface Case {
  name: string;
  lines: Row[];
  /** Expected header in céntimos: gravada, exonerada, inafecta, IGV, total. */
  expected: [gravada: number, exonerada: number, inafecta: number, igv: number, total: number];
}

const line = ([quantity, unitValue, discount, igvType]: Row): LineInput => ({ quantity, unitValue, discount, igvType });

/*
 * Each case's arithmetic, done by hand: per line subtotal = q × v − d (half up to the céntimo),
 * IGV = 18 % of that subtotal (half up), total = subtotal + IGV; the header sums the lines.
 */
const CASES: Case[] = [
  // SUNAT.md: 500.00 + 100.00 gravado → gravada 600.00; IGV 90.00 + 18.00 = 108.00; total 708.00.
  {
    name: 'SUNAT.md example',
    lines: [
      [1, '500.00', null, '10'],
      [1, '100.00', null, '10'],
    ],
    expected: [60000, 0, 0, 10800, 70800],
  },
  // 1 × 100 = 100.00; IGV 18.00; total 118.00.
  { name: 'one gravado line', lines: [[1, 100, null, '10']], expected: [10000, 0, 0, 1800, 11800] },
  // 3 × 10.333 = 30.999 − 1.50 = 29.499 → 29.50; IGV 29.50 × 0.18 = 5.31; total 34.81.
  { name: 'three decimals and a discount', lines: [[3, '10.333', '1.50', '10']], expected: [2950, 0, 0, 531, 3481] },
  // 2.5 × 4 = 10.00 exonerado; IGV 0; total 10.00.
  { name: 'fractional quantity, exonerado', lines: [['2.5', 4, null, '20']], expected: [0, 1000, 0, 0, 1000] },
  // 84.75 g → IGV 15.255 → 15.26 (half up), line 100.01; + 20.00 exo + 30.00 ina → total 150.01.
  {
    name: 'gravado + exonerado + inafecto',
    lines: [
      [1, '84.75', null, '10'],
      [1, 20, null, '20'],
      [1, 30, null, '30'],
    ],
    expected: [8475, 2000, 3000, 1526, 15001],
  },
  // 7 × 0.8474576271 = 5.9322033897 → 5.93; IGV 1.0674 → 1.07; total 7.00.
  { name: 'ten-decimal unit value', lines: [[7, '0.8474576271', null, '10']], expected: [593, 0, 0, 107, 700] },
  // 0.01; IGV 0.0018 → 0.00; total 0.01.
  { name: 'one céntimo', lines: [[1, '0.01', null, '10']], expected: [1, 0, 0, 0, 1] },
  // 0.03; IGV 0.0054 → 0.01; total 0.04.
  { name: 'three céntimos', lines: [[1, '0.03', null, '10']], expected: [3, 0, 0, 1, 4] },
  // 0.125 exonerado → 0.13 (half up); total 0.13.
  { name: 'half céntimo rounds up', lines: [[1, '0.125', null, '20']], expected: [0, 13, 0, 0, 13] },
  // 3 × 0.335 = 1.005 → 1.01 (binary floats give 1.00); IGV 0.1818 → 0.18; total 1.19.
  { name: 'a product floats get wrong', lines: [[3, '0.335', null, '10']], expected: [101, 0, 0, 18, 119] },
  // 2.50; IGV 0.45; total 2.95.
  { name: 'exact IGV', lines: [[1, '2.50', null, '10']], expected: [250, 0, 0, 45, 295] },
  // 0.25; IGV 0.045 → 0.05 (half up); total 0.30.
  { name: 'IGV exactly half a céntimo', lines: [[1, '0.25', null, '10']], expected: [25, 0, 0, 5, 30] },
  // 1.25; IGV 0.225 → 0.23; total 1.48.
  { name: 'IGV 0.225', lines: [[1, '1.25', null, '10']], expected: [125, 0, 0, 23, 148] },
  // 2 × 5 − 10.00 = 0.00; IGV 0; total 0.00.
  { name: 'discount takes the whole line', lines: [[2, 5, '10', '10']], expected: [0, 0, 0, 0, 0] },
  // Two lines of 0.25: IGV 0.05 each → 0.10 (18 % of the 0.50 sum would be 0.09); total 0.60.
  {
    name: 'IGV per line, not on the sum',
    lines: [
      [1, '0.25', null, '10'],
      [1, '0.25', null, '10'],
    ],
    expected: [50, 0, 0, 10, 60],
  },
  // 10 × 12.5 = 125.00 − 12.50 = 112.50; IGV 20.25; total 132.75.
  { name: 'ten per cent discount', lines: [[10, '12.5', '12.50', '10']], expected: [11250, 0, 0, 2025, 13275] },
  // 1000 × 1.1875 = 1187.50; IGV 213.75; total 1401.25.
  { name: 'many units', lines: [[1000, '1.1875', null, '10']], expected: [118750, 0, 0, 21375, 140125] },
  // 0.5 × 33.33 = 16.665 → 16.67; IGV 3.0006 → 3.00; total 19.67.
  { name: 'half a kilo', lines: [['0.5', '33.33', null, '10']], expected: [1667, 0, 0, 300, 1967] },
  // 4 × 25.25 = 101.00 − 1.01 = 99.99 inafecto; total 99.99.
  { name: 'inafecto with a discount', lines: [[4, '25.25', '1.01', '30']], expected: [0, 0, 9999, 0, 9999] },
  // 1,000,000.00; IGV 180,000.00; total 1,180,000.00.
  { name: 'a million', lines: [[1, 1000000, null, '10']], expected: [100000000, 0, 0, 18000000, 118000000] },
  // A: 2 × 59.32 = 118.64 − 0.64 = 118.00, IGV 21.24; B: 15.50 − 0.50 = 15.00 exo;
  // C: 3 × 3.333 = 9.999 → 10.00 ina. Header: 118.00 / 15.00 / 10.00, IGV 21.24, total 164.24.
  {
    name: 'mixed lines, each with a discount',
    lines: [
      [2, '59.32', '0.64', '10'],
      [1, '15.5', '0.5', '20'],
      [3, '3.333', null, '30'],
    ],
    expected: [11800, 1500, 1000, 2124, 16424],
  },
  // 1.5 × 0.3333333333 = 0.49999999995 → 0.50; IGV 0.09; total 0.59.
  { name: 'long product rounds at the end only', lines: [['1.5', '0.3333333333', null, '10']], expected: [50, 0, 0, 9, 59] },
  // 12 × 8.475 = 101.70; IGV 18.306 → 18.31; total 120.01.
  { name: 'IGV rounds up', lines: [[12, '8.475', null, '10']], expected: [10170, 0, 0, 1831, 12001] },
  // 0.005 exo → 0.01; 0.004 ina → 0.00; 0.015 g → 0.02, IGV 0.0036 → 0.00. Total 0.03.
  {
    name: 'sub-céntimo lines of each kind',
    lines: [
      [1, '0.005', null, '20'],
      [1, '0.004', null, '30'],
      [1, '0.015', null, '10'],
    ],
    expected: [2, 1, 0, 0, 3],
  },
  // 3 × 33.898305 = 101.694915 → 101.69; IGV 18.3042 → 18.30; total 119.99.
  { name: 'price from a 40.00 sticker', lines: [[3, '33.898305', null, '10']], expected: [10169, 0, 0, 1830, 11999] },
];

describe('IGV and totals to the céntimo', () => {
  it.each(CASES)('$name', ({ lines, expected }) => {
    const { totals } = computeDocument(lines.map(line));
    expect([totals.gravadaCents, totals.exoneradaCents, totals.inafectaCents, totals.igvCents, totals.totalCents]).toEqual(expected);
  });

  it('keeps the line amounts it sums', () => {
    const a = lineAmounts({ quantity: 3, unitValue: '10.333', discount: '1.50', igvType: '10' });
    expect(a).toMatchObject({ grossCents: 3100, discountCents: 150, subtotalCents: 2950, igvCents: 531, totalCents: 3481 });
    expect(a.quantity).toBe('3');
    expect(a.unitValue).toBe('10.333');
    // 10.333 × 1.18 = 12.19294, the IGV-inclusive unit price.
    expect(a.unitPrice).toBe('12.19294');
  });

  it('prices exonerado and inafecto without IGV', () => {
    expect(lineAmounts({ quantity: 1, unitValue: '5.5', igvType: '20' }).unitPrice).toBe('5.5');
    expect(lineAmounts({ quantity: 1, unitValue: '5.5', igvType: '30' }).unitPrice).toBe('5.5');
  });

  it('rounds the inclusive unit price to ten decimals', () => {
    // 0.8474576271 × 1.18 = 0.999999999978 → 1.0000000000
    expect(lineAmounts({ quantity: 1, unitValue: '0.8474576271', igvType: '10' }).unitPrice).toBe('1');
  });

  it('refuses what is not a plain decimal', () => {
    expect(parseDecimal('1e3')).toBeNull();
    expect(parseDecimal('-1')).toBeNull();
    expect(parseDecimal('')).toBeNull();
    expect(parseDecimal(Number.NaN)).toBeNull();
    expect(parseDecimal(1e21)).toBeNull();
    expect(parseDecimal('0.1')?.toFixed()).toBe('0.1');
    expect(() => lineAmounts({ quantity: 'x', unitValue: 1, igvType: '10' })).toThrow(RangeError);
  });
});

describe('IGV-inclusive amounts (payment modal)', () => {
  it('splits by 1.18 and keeps the amount', () => {
    // 118.00 / 1.18 = 100.00 → IGV 18.00.
    expect(splitIgvInclusive(11800)).toEqual({ netCents: 10000, igvCents: 1800 });
    // 63.70 / 1.18 = 53.983… → 53.98; IGV 63.70 − 53.98 = 9.72.
    expect(splitIgvInclusive(6370)).toEqual({ netCents: 5398, igvCents: 972 });
    // 1.00 / 1.18 = 0.847… → 0.85; IGV 0.15.
    expect(splitIgvInclusive(100)).toEqual({ netCents: 85, igvCents: 15 });
    // 0.01 / 1.18 = 0.0084… → 0.01; IGV 0.00.
    expect(splitIgvInclusive(1)).toEqual({ netCents: 1, igvCents: 0 });
  });

  it('net + IGV is exactly the amount, and net is amount / 1.18 rounded half up', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), (amount) => {
        const { netCents, igvCents } = splitIgvInclusive(amount);
        expect(netCents + igvCents).toBe(amount);
        // |amount/1.18 − net| ≤ 0.5 céntimo  ⇔  |100·amount − 118·net| ≤ 59 (half up: −59 < d ≤ 59).
        const d = BigInt(amount) * 100n - BigInt(netCents) * 118n;
        expect(d > -59n && d <= 59n).toBe(true);
      }),
    );
  });

  it('makes a one-line receipt that totals the amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999 }), (amount) => {
        const l = inclusiveLineAmounts(amount);
        expect(l.subtotalCents + l.igvCents).toBe(amount);
        expect(documentTotals([l]).totalCents).toBe(amount);
        // SUNAT tolerates one céntimo between a line's tax and 18 % of its base.
        expect(Math.abs(l.igvCents - igvOf(l.subtotalCents))).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('header totals are the sums of the rounded lines', () => {
  const decimalText = (maxUnits: number, decimals: number) =>
    fc
      .tuple(fc.integer({ min: 0, max: maxUnits }), fc.integer({ min: 0, max: 10 ** decimals - 1 }))
      .map(([i, f]) => `${i}.${String(f).padStart(decimals, '0')}`);
  const lineArb = fc.record({
    quantity: decimalText(999, 3),
    unitValue: decimalText(9999, 6),
    igvType: fc.constantFrom<IgvType>('10', '20', '30'),
  });

  it('for any lines', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 12 }), (inputs) => {
        const { lines, totals } = computeDocument(inputs);
        const sum = (f: (l: (typeof lines)[number]) => number) => lines.reduce((a, l) => a + f(l), 0);
        expect(totals.gravadaCents).toBe(sum((l) => (l.igvType === '10' ? l.subtotalCents : 0)));
        expect(totals.exoneradaCents).toBe(sum((l) => (l.igvType === '20' ? l.subtotalCents : 0)));
        expect(totals.inafectaCents).toBe(sum((l) => (l.igvType === '30' ? l.subtotalCents : 0)));
        expect(totals.igvCents).toBe(sum((l) => l.igvCents));
        expect(totals.totalCents).toBe(totals.gravadaCents + totals.exoneradaCents + totals.inafectaCents + totals.igvCents);
      }),
    );
  });

  it('each line is q × v rounded half up, checked in integers', () => {
    fc.assert(
      fc.property(lineArb, (input) => {
        const l = lineAmounts(input);
        // q has 3 decimals and v has 6: q·v in units of 10⁻⁹ soles, rounded half up to 10⁻² soles.
        const q = BigInt(input.quantity.replace('.', ''));
        const v = BigInt(input.unitValue.replace('.', ''));
        const exact = q * v;
        const cents = (exact * 2n + 10n ** 7n) / (2n * 10n ** 7n);
        expect(BigInt(l.subtotalCents)).toBe(cents);
        const igv = l.igvType === '10' ? (BigInt(l.subtotalCents) * 18n * 2n + 100n) / 200n : 0n;
        expect(BigInt(l.igvCents)).toBe(igv);
      }),
    );
  });
});
