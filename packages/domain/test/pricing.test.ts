import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  billableWeightKg,
  centsToNumber,
  centsToString,
  createWeightFactorSchema,
  DEFAULT_TIERS,
  distinctFactors,
  dominantProductType,
  hasOverlap,
  overlappingTiers,
  isTierValid,
  linePriceCents,
  MAX_FACTOR_PER_KG,
  MAX_TIER_KG,
  nextTier,
  normalizeTier,
  prepareTiers,
  PRICING_MESSAGES,
  previewRange,
  previewRows,
  quoteQuerySchema,
  quoteWithTiers,
  sumCents,
  swapReversed,
  tierListSchema,
  tierProblem,
  weightTierSchema,
  toCents,
  toScaled,
  type WeightTier,
} from '../src/index.ts';

const tier = (from_kg: number, to_kg: number, factor_per_kg: number, sort_order = 1): WeightTier => ({ from_kg, to_kg, factor_per_kg, sort_order });

describe('tier validation', () => {
  it('needs from ≥ 1, to ≥ from, factor > 0, all finite', () => {
    expect(isTierValid(tier(1, 10, 1.4))).toBe(true);
    expect(isTierValid(tier(5, 5, 0.01))).toBe(true);
    expect(isTierValid(tier(0, 10, 1))).toBe(false);
    expect(isTierValid(tier(0.99, 10, 1))).toBe(false);
    expect(isTierValid(tier(10, 9, 1))).toBe(false);
    expect(isTierValid(tier(1, 10, 0))).toBe(false);
    expect(isTierValid(tier(1, 10, -1))).toBe(false);
    expect(isTierValid(tier(1, Number.POSITIVE_INFINITY, 1))).toBe(false);
    expect(isTierValid(tier(Number.NaN, 10, 1))).toBe(false);
  });

  it('refuses what the API refuses: to_kg above MAX_TIER_KG or a factor above MAX_FACTOR_PER_KG', () => {
    expect(isTierValid(tier(1, MAX_TIER_KG, MAX_FACTOR_PER_KG))).toBe(true);
    expect(isTierValid(tier(1, MAX_TIER_KG + 1, 1))).toBe(false);
    expect(isTierValid(tier(1, MAX_TIER_KG + 0.01, 1))).toBe(false);
    expect(isTierValid(tier(MAX_TIER_KG + 1, MAX_TIER_KG + 2, 1))).toBe(false);
    expect(isTierValid(tier(1, 10, MAX_FACTOR_PER_KG + 0.0001))).toBe(false);
    // The editor shows the invalid-values message (and disables save) for these lists.
    expect(tierProblem([tier(1, 10, 1.4), tier(11, 200_000, 1.3)])).toBe('invalid');
    expect(tierProblem([tier(1, 10, 20_000)])).toBe('invalid');
  });

  it('every tier the editor accepts passes the API schema', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        (from_kg, to_kg, factor_per_kg) => {
          const t = normalizeTier({ from_kg, to_kg, factor_per_kg });
          if (isTierValid(t)) expect(weightTierSchema.safeParse(t).success).toBe(true);
        },
      ),
    );
  });

  it('touching ranges overlap; adjacent whole-kg ranges do not; order does not matter', () => {
    expect(hasOverlap([tier(1, 10, 1), tier(10, 20, 1)])).toBe(true);
    expect(hasOverlap([tier(1, 10, 1), tier(11, 20, 1)])).toBe(false);
  });

  it('names the overlapping tiers, in the order given, and only those', () => {
    expect([...overlappingTiers([tier(1, 10, 1), tier(11, 20, 1), tier(21, 30, 1)])]).toEqual([]);
    expect([...overlappingTiers([tier(21, 30, 1), tier(1, 10, 1), tier(10, 20, 1)])].sort()).toEqual([1, 2]);
    // A wide tier overlaps two others that do not overlap each other.
    expect([...overlappingTiers([tier(5, 6, 1), tier(1, 100, 1), tier(50, 60, 1), tier(200, 300, 1)])].sort()).toEqual([0, 1, 2]);
    // An incomplete row (NaN) overlaps nothing.
    expect([...overlappingTiers([tier(1, 10, 1), tier(Number.NaN, 5, 1)])]).toEqual([]);
    expect(hasOverlap([tier(11, 20, 1), tier(1, 10, 1)])).toBe(false);
    expect(hasOverlap([tier(21, 30, 1), tier(1, 25, 1), tier(40, 50, 1)])).toBe(true);
    expect(hasOverlap([tier(1, 100, 1), tier(5, 6, 1)])).toBe(true);
    expect(hasOverlap([])).toBe(false);
  });

  it('tierProblem says invalid before overlap, and null for the defaults', () => {
    expect(tierProblem([...DEFAULT_TIERS])).toBeNull();
    expect(tierProblem([tier(1, 10, 1), tier(10, 20, 0)])).toBe('invalid');
    expect(tierProblem([tier(1, 10, 1), tier(10, 20, 1)])).toBe('overlap');
    expect(PRICING_MESSAGES.invalidTiers).toBe('Hay valores inválidos (desde ≥ 1, hasta ≥ desde, factor > 0).');
    expect(PRICING_MESSAGES.overlapping).toBe('Hay tramos que se solapan...');
  });

  it('a reversed range is swapped, a proper one kept', () => {
    expect(swapReversed(tier(20, 11, 1.2, 3))).toEqual(tier(11, 20, 1.2, 3));
    const ok = tier(1, 10, 1);
    expect(swapReversed(ok)).toBe(ok);
  });
});

describe('add-tier rule', () => {
  it('starts at last to_kg + 1 (or 1), spans 10 kg, factor 1, order count + 1', () => {
    expect(nextTier([])).toEqual(tier(1, 11, 1, 1));
    expect(nextTier([...DEFAULT_TIERS])).toEqual(tier(1001, 1011, 1, 3));
    // The last tier is the one that starts last, whatever the list order.
    expect(nextTier([tier(21, 30, 2, 1), tier(1, 20, 2, 2)])).toEqual(tier(31, 41, 1, 3));
    expect(hasOverlap([...DEFAULT_TIERS, nextTier([...DEFAULT_TIERS])])).toBe(false);
  });
});

describe('quote with the default tiers', () => {
  const cases: [number, number, number, number][] = [
    // weight, billable, factor, price
    [0.01, 1, 1.4, 1.4],
    [1, 1, 1.4, 1.4],
    [10, 10, 1.4, 14],
    [10.01, 11, 1.3, 14.3],
    [11, 11, 1.3, 14.3],
    [1000, 1000, 1.3, 1300],
  ];
  it.each(cases)('%s kg → %s billable kg × %s = S/ %s', (weight, billable, factor, price) => {
    const q = quoteWithTiers(DEFAULT_TIERS, weight);
    expect(q.ok).toBe(true);
    if (!q.ok) return;
    expect(q.billableWeightKg).toBe(billable);
    expect(q.factorPerKg).toBe(factor);
    expect(centsToNumber(q.priceCents)).toBe(price);
  });

  it('1000.01 kg is outside the ranges', () => {
    expect(quoteWithTiers(DEFAULT_TIERS, 1000.01)).toEqual({ ok: false, billableWeightKg: 1001 });
  });

  it('a gap between tiers is outside too', () => {
    expect(quoteWithTiers([tier(1, 5, 2), tier(8, 10, 2)], 6).ok).toBe(false);
  });

  it('billable weight is the whole kg above, at least 1', () => {
    expect(billableWeightKg(0.001)).toBe(1);
    expect(billableWeightKg(2)).toBe(2);
    expect(billableWeightKg(2.0000001)).toBe(2);
    expect(billableWeightKg(2.01)).toBe(3);
  });
});

describe('money exactness and rounding', () => {
  it('rounds half up to the céntimo (1.335 × 3 kg = 4.005 → 4.01)', () => {
    expect(linePriceCents(3, 1.335)).toBe(401);
    expect(linePriceCents(3, '1.3350')).toBe(401);
    expect(linePriceCents(1, 1.3349)).toBe(133);
    expect(linePriceCents(7, 0.0001)).toBe(0);
    expect(linePriceCents(50, 0.0001)).toBe(1);
  });

  it('has no float drift (0.1 × 3, 1.1 × 3, 0.1 + 0.2)', () => {
    expect(linePriceCents(3, 0.1)).toBe(30);
    expect(centsToString(linePriceCents(3, 1.1))).toBe('3.30');
    expect(linePriceCents(100, 1.15)).toBe(11500);
    expect(centsToNumber(sumCents([toCents(0.1), toCents(0.2)]))).toBe(0.3);
    expect(toCents(0.1 + 0.2)).toBe(30);
  });

  it('parses decimals exactly, refusing non-numbers', () => {
    expect(toScaled('1.4000', 4)).toBe(14000);
    expect(toScaled('12.345', 2)).toBe(1235);
    expect(toScaled(1.005, 2)).toBe(101);
    expect(toScaled('-2.5', 0)).toBe(-3);
    expect(() => toScaled('abc', 2)).toThrow(RangeError);
    expect(() => toScaled('', 2)).toThrow(RangeError);
    expect(() => toScaled(Number.NaN, 2)).toThrow(RangeError);
  });
});

describe('dominant class', () => {
  it('alto > medio > liviano', () => {
    expect(dominantProductType(['liviano', 'alto', 'medio'])).toBe('alto');
    expect(dominantProductType(['liviano', 'medio'])).toBe('medio');
    expect(dominantProductType(['liviano'])).toBe('liviano');
    expect(dominantProductType([])).toBe('liviano');
  });
});

describe('schemas and normalization', () => {
  it('tier list: numbers or numeric strings, at least one tier, bounded', () => {
    expect(tierListSchema.safeParse({ tiers: [{ from_kg: '1', to_kg: 10, factor_per_kg: '1.40' }] }).success).toBe(true);
    expect(tierListSchema.safeParse({ tiers: [] }).error?.issues[0]?.message).toBe('Agrega al menos un tramo.');
    expect(tierListSchema.safeParse({ tiers: [{ from_kg: null, to_kg: 10, factor_per_kg: 1 }] }).success).toBe(false);
    expect(tierListSchema.safeParse({ tiers: [{ from_kg: '', to_kg: 10, factor_per_kg: 1 }] }).success).toBe(false);
    expect(tierListSchema.safeParse({ tiers: [{ from_kg: 1, to_kg: 1e9, factor_per_kg: 1 }] }).success).toBe(false);
    expect(tierListSchema.safeParse({ tiers: 'x' }).success).toBe(false);
  });

  it('normalizes to the stored precision and numbers tiers in start order', () => {
    expect(normalizeTier({ from_kg: 1.005, to_kg: 10, factor_per_kg: 1.33335 })).toEqual(tier(1.01, 10, 1.3334, 0));
    expect(prepareTiers([tier(11, 20, 2, 7), tier(1, 10, 3, 9)])).toEqual([tier(1, 10, 3, 1), tier(11, 20, 2, 2)]);
  });

  it('create: distinct origin and destination, PEN only, known class', () => {
    const ok = createWeightFactorSchema.parse({ origin_branch_id: 1, destination_branch_id: 2, product_type: 'medio', name: ' Lima → Cusco ' });
    expect(ok).toMatchObject({ currency: 'PEN', name: 'Lima → Cusco' });
    const same = createWeightFactorSchema.safeParse({ origin_branch_id: 1, destination_branch_id: 1, product_type: 'medio' });
    expect(same.error?.issues[0]?.message).toBe('El origen y el destino deben ser distintos.');
    expect(
      createWeightFactorSchema.safeParse({ origin_branch_id: 1, destination_branch_id: 2, product_type: 'pesado' }).error?.issues[0]?.message,
    ).toBe('Categoría inválida');
    expect(createWeightFactorSchema.safeParse({ origin_branch_id: 1, destination_branch_id: 2, product_type: 'alto', currency: 'USD' }).success).toBe(
      false,
    );
  });

  it('quote query: positive weight, known class', () => {
    expect(quoteQuerySchema.safeParse({ originId: '1', destinationId: '2', productType: 'alto', weightKg: '0' }).success).toBe(false);
    expect(quoteQuerySchema.parse({ originId: '1', destinationId: '2', productType: 'alto', weightKg: '2.5' }).weightKg).toBe(2.5);
  });
});

describe('preview', () => {
  const tiers = [tier(1, 5, 2.5, 1), tier(6, 20, 2.1, 2), tier(21, 1000, 1.8, 3)];

  it('lists each whole kg of the range with the same prices as quoteWithTiers', () => {
    const rows = previewRows(tiers, { fromKg: 1, toKg: 10 });
    expect(rows.map((r) => r.weightKg)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(rows[4]).toEqual({ weightKg: 5, factorPerKg: 2.5, priceCents: 1250 });
    expect(rows[5]).toEqual({ weightKg: 6, factorPerKg: 2.1, priceCents: 1260 });
    for (const r of previewRows(tiers, { fromKg: 1, toKg: 300 })) {
      const q = quoteWithTiers(tiers, r.weightKg);
      expect(q.ok && q.priceCents).toBe(r.priceCents);
    }
  });

  it('keeps weights whole and the final weight not below the initial one', () => {
    expect(previewRange(3.7, 2)).toEqual({ fromKg: 3, toKg: 3 });
    expect(previewRange(0, 4)).toEqual({ fromKg: 1, toKg: 4 });
    expect(previewRange(Number.NaN, Number.NaN)).toEqual({ fromKg: 1, toKg: 10 });
    expect(previewRange(1, 1e9).toKg).toBe(10_000);
  });

  it('shows weights outside every tier unpriced, and drops them once a filter is set', () => {
    const rows = previewRows([tier(3, 4, 1, 1)], { fromKg: 1, toKg: 5 });
    expect(rows.map((r) => r.priceCents)).toEqual([null, null, 300, 400, null]);
    expect(previewRows([tier(3, 4, 1, 1)], { fromKg: 1, toKg: 5, minPrice: 0 }).map((r) => r.weightKg)).toEqual([3, 4]);
  });

  it('a tier being edited (cleared factor or bounds) prices nothing instead of throwing', () => {
    const editing = [tier(1, 2, Number.NaN, 1), tier(3, 4, 1, 2), tier(Number.NaN, 6, 1, 3)];
    expect(previewRows(editing, { fromKg: 1, toKg: 6 }).map((r) => r.priceCents)).toEqual([null, null, 300, 400, null, null]);
  });

  it('filters by factor and by price bounds (inclusive, in céntimos)', () => {
    expect(previewRows(tiers, { fromKg: 1, toKg: 30, factor: 2.1 }).map((r) => r.weightKg)).toEqual([
      6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
    ]);
    const priced = previewRows(tiers, { fromKg: 1, toKg: 30, minPrice: 12.5, maxPrice: 14.7 });
    expect(priced.map((r) => r.weightKg)).toEqual([5, 6, 7]);
    expect(previewRows(tiers, { fromKg: 1, toKg: 30, factor: 9 })).toEqual([]);
  });

  it('offers the distinct factors ascending', () => {
    expect(distinctFactors([tier(1, 2, 1.4), tier(3, 4, 1.3), tier(5, 6, 1.4), tier(7, 8, Number.NaN)])).toEqual([1.3, 1.4]);
  });
});

describe('property: a quote is billable × factor of the unique containing tier, or outside', () => {
  /** Random valid, non-overlapping tiers with whole-kg bounds and 4-decimal factors, shuffled. */
  const tierSets = fc
    .array(
      fc.record({
        gap: fc.integer({ min: 1, max: 30 }),
        span: fc.integer({ min: 0, max: 200 }),
        factorUnits: fc.integer({ min: 1, max: 999_999 }),
      }),
      { minLength: 1, maxLength: 8 },
    )
    .map((parts) => {
      let end = 0;
      return parts.map((p, i) => {
        const from = end + p.gap;
        end = from + p.span;
        return { from_kg: from, to_kg: end, factorUnits: p.factorUnits, sort_order: i + 1 };
      });
    })
    .chain((ts) => fc.shuffledSubarray(ts, { minLength: ts.length, maxLength: ts.length }));

  it('holds for random tier sets and weights in 0.01 kg steps', () => {
    fc.assert(
      fc.property(tierSets, fc.integer({ min: 1, max: 200_000 }), (raw, hundredths) => {
        const tiers: WeightTier[] = raw.map((t) => ({
          from_kg: t.from_kg,
          to_kg: t.to_kg,
          factor_per_kg: t.factorUnits / 10_000,
          sort_order: t.sort_order,
        }));
        expect(tierProblem(tiers)).toBeNull();
        // Independent integer maths: billable kg, the containing tiers, kg × factor units / 100 half up.
        const billable = Math.max(1, Math.floor((hundredths + 99) / 100));
        const containing = raw.filter((t) => t.from_kg <= billable && billable <= t.to_kg);
        expect(containing.length).toBeLessThanOrEqual(1);
        const q = quoteWithTiers(tiers, hundredths / 100);
        expect(q.billableWeightKg).toBe(billable);
        if (containing.length === 0) {
          expect(q.ok).toBe(false);
          return;
        }
        const units = billable * containing[0]!.factorUnits;
        const expected = Math.floor(units / 100) + (units % 100 >= 50 ? 1 : 0);
        expect(q.ok).toBe(true);
        if (q.ok) {
          expect(q.priceCents).toBe(expected);
          expect(q.tier.from_kg).toBe(containing[0]!.from_kg);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
