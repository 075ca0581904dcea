import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  chargeableKg,
  compensationDue,
  incidentCompensation,
  DEFAULT_TIERS,
  DEFAULT_VOLUMETRIC_DIVISOR,
  insurancePremium,
  priceShipment,
  quoteWithTiers,
  TARIFF_MESSAGES,
  volumetricKg,
  type ArticlePrice,
  type CustomerTariff,
  type PriceRequest,
  type RouteTariff,
  type TariffLineInput,
  type TariffSettings,
} from '../src/index.ts';

// Every expected figure below is worked out by hand in its comment, not by the code under test.

const sobre: ArticlePrice = { articleId: 1, name: 'Sobre', unitCode: 'NIU', priceCents: 800 };
const saco: ArticlePrice = { articleId: 2, name: 'Saco 50 kg', unitCode: 'BG', priceCents: 2550 };

const route: RouteTariff = {
  usingReverse: false,
  tiers: { liviano: DEFAULT_TIERS, medio: [{ from_kg: 1, to_kg: 500, factor_per_kg: 2.15, sort_order: 1 }] },
  articles: new Map([
    [1, sobre],
    [2, saco],
  ]),
  minimumChargeCents: 0,
  divisor: null,
};

const settings: TariffSettings = {
  divisor: DEFAULT_VOLUMETRIC_DIVISOR,
  insurance: { rateBp: 200, minimumPremiumCents: 300, thresholdCents: 50_000, mandatoryAbove: true, maxDeclaredCents: 5_000_000 },
  surcharges: new Map([
    ['domicilio', { code: 'domicilio', description: 'Entrega a domicilio', fixedCents: 1000 }],
    ['fragil', { code: 'fragil', description: 'Frágil', percentBp: 1000 }],
    ['recojo', { code: 'recojo', description: 'Recojo a domicilio', fixedCents: 500, percentBp: 250 }],
  ]),
};

const line = (over: Partial<TariffLineInput> = {}): TariffLineInput => ({ productType: 'liviano', packages: 1, weightKg: 1, basis: 'peso', ...over });
const price = (request: PriceRequest, r: RouteTariff = route, customer: CustomerTariff | null = null) => {
  const result = priceShipment(request, r, settings, customer);
  if (!result.ok) throw new Error(result.problem.message);
  return result.breakdown;
};
const problem = (request: PriceRequest, r: RouteTariff = route, customer: CustomerTariff | null = null) => {
  const result = priceShipment(request, r, settings, customer);
  if (result.ok) throw new Error('expected a refusal');
  return result.problem;
};

describe('chargeable weight', () => {
  it('by weight, 2.3 kg real is 3 kg, as today', () => {
    expect(chargeableKg(line({ weightKg: 2.3 }), 6000)).toBe(3);
  });
  it('by weight, dimensions are shown but not charged', () => {
    // 60 × 40 × 50 = 120,000 cm³ / 6000 = 20 kg volumetric; basis peso charges the real 5 kg.
    const l = line({ weightKg: 5, lengthCm: 60, widthCm: 40, heightCm: 50 });
    expect(volumetricKg(l, 6000)).toBe(20);
    expect(chargeableKg(l, 6000)).toBe(5);
  });
  it('by volume, volume beats weight', () => {
    // 120,000 / 6000 = 20 kg volumetric > 5 kg real → 20.
    expect(chargeableKg(line({ weightKg: 5, basis: 'volumen', lengthCm: 60, widthCm: 40, heightCm: 50 }), 6000)).toBe(20);
  });
  it('by volume, weight beats volume', () => {
    // 30 × 20 × 10 = 6,000 cm³ / 6000 = 1 kg volumetric < 12.5 kg real → 13.
    expect(chargeableKg(line({ weightKg: 12.5, basis: 'volumen', lengthCm: 30, widthCm: 20, heightCm: 10 }), 6000)).toBe(13);
  });
  it('bultos multiply the size', () => {
    // 50 × 40 × 30 = 60,000 cm³ × 3 bultos = 180,000 / 6000 = 30 kg.
    expect(chargeableKg(line({ weightKg: 9, packages: 3, basis: 'volumen', lengthCm: 50, widthCm: 40, heightCm: 30 }), 6000)).toBe(30);
  });
  it('a volumetric fraction rounds up to the whole kg', () => {
    // 31 × 31 × 31 = 29,791 / 6000 = 4.965 → volumetric shown 4.97, charged 5.
    const l = line({ weightKg: 1, basis: 'volumen', lengthCm: 31, widthCm: 31, heightCm: 31 });
    expect(volumetricKg(l, 6000)).toBe(4.97);
    expect(chargeableKg(l, 6000)).toBe(5);
  });
  it('the divisor of air freight (5000) gives more volumetric kg', () => {
    // 120,000 / 5000 = 24 kg.
    expect(chargeableKg(line({ weightKg: 5, basis: 'volumen', lengthCm: 60, widthCm: 40, heightCm: 50 }), 5000)).toBe(24);
  });
});

describe('line prices', () => {
  it('3 kg light by weight at 1.40 = 4.20', () => {
    const b = price({ lines: [line({ weightKg: 2.3 })] });
    expect(b.totalCents).toBe(420);
    expect(b.lines[0]).toMatchObject({ chargeableKg: 3, source: 'ruta', tier: { factor_per_kg: 1.4 } });
  });
  it('20 kg by volume falls in the 11–1000 tier: 20 × 1.30 = 26.00', () => {
    const b = price({ lines: [line({ weightKg: 5, basis: 'volumen', lengthCm: 60, widthCm: 40, heightCm: 50 })] });
    expect(b.totalCents).toBe(2600);
    expect(b.lines[0]?.tier?.from_kg).toBe(11);
  });
  it('a route divisor overrides the company one: 120,000 / 4000 = 30 kg × 1.30 = 39.00', () => {
    const b = price({ lines: [line({ weightKg: 5, basis: 'volumen', lengthCm: 60, widthCm: 40, heightCm: 50 })] }, { ...route, divisor: 4000 });
    expect(b.totalCents).toBe(3900);
  });
  it('medio class 7 kg × 2.15 = 15.05', () => {
    expect(price({ lines: [line({ productType: 'medio', weightKg: 7 })] }).totalCents).toBe(1505);
  });
  it('articles: 3 sobres × 8.00 = 24.00 and 2 sacos × 25.50 = 51.00', () => {
    const b = price({
      lines: [line({ basis: 'articulo', articleId: 1, packages: 3 }), line({ basis: 'articulo', articleId: 2, packages: 2, weightKg: 100 })],
    });
    expect(b.lines.map((l) => l.amountCents)).toEqual([2400, 5100]);
    expect(b.totalCents).toBe(7500);
    expect(b.lines[1]).toMatchObject({ source: 'articulo', article: { name: 'Saco 50 kg', unitCode: 'BG', unitPriceCents: 2550 } });
  });
  it('two lines add up: 4.20 + 15.05 = 19.25', () => {
    expect(price({ lines: [line({ weightKg: 2.3 }), line({ productType: 'medio', weightKg: 7 })] }).totalCents).toBe(1925);
  });
  it('céntimo rounding half up: 3 kg × 1.4355 = 4.3065 → 4.31', () => {
    const r = { ...route, tiers: { liviano: [{ from_kg: 1, to_kg: 10, factor_per_kg: 1.4355, sort_order: 1 }] } };
    expect(price({ lines: [line({ weightKg: 3 })] }, r).totalCents).toBe(431);
  });
  it('by weight it prices as the spec quote does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), (hundredths) => {
        const kg = hundredths / 100;
        const q = quoteWithTiers(DEFAULT_TIERS, kg);
        const b = priceShipment({ lines: [line({ weightKg: kg })] }, route, settings);
        return q.ok && b.ok && b.breakdown.totalCents === q.priceCents;
      }),
    );
  });
});

describe('customer tariffs', () => {
  const discount: CustomerTariff = { kind: 'descuento', customerName: 'Agro SAC', discountBp: 1000 };
  it('a 10 % discount on 26.00 freight is −2.60 → 23.40', () => {
    const b = price({ lines: [line({ weightKg: 20 })] }, route, discount);
    expect(b.components.at(-1)).toMatchObject({ kind: 'descuento', amountCents: -260 });
    expect(b.totalCents).toBe(2340);
  });
  it('the discount rounds half up: 12.5 % of 4.20 = 0.525 → −0.53', () => {
    const b = price({ lines: [line({ weightKg: 3 })] }, route, { ...discount, discountBp: 1250 });
    expect(b.totalCents).toBe(420 - 53);
  });
  it('the discount leaves surcharges and insurance whole', () => {
    // freight 26.00 → −2.60; domicilio 10.00 and insurance 2 % of 1,000.00 = 20.00 untouched.
    const b = price({ lines: [line({ weightKg: 20 })], surcharges: ['domicilio'], insured: true, declaredValueCents: 100_000 }, route, discount);
    expect(b.totalCents).toBe(2600 + 1000 + 2000 - 260);
  });
  it("a customer's own tiers win over the route's: 3 kg × 1.10 = 3.30", () => {
    const own: CustomerTariff = {
      kind: 'propia',
      customerName: 'Agro SAC',
      prices: { tiers: { liviano: [{ from_kg: 1, to_kg: 100, factor_per_kg: 1.1, sort_order: 1 }] }, articles: new Map() },
    };
    const b = price({ lines: [line({ weightKg: 3 })] }, route, own);
    expect(b.totalCents).toBe(330);
    expect(b.lines[0]?.source).toBe('cliente');
  });
  it("a customer's own article price wins; a class without own tiers falls back to the route", () => {
    const own: CustomerTariff = {
      kind: 'propia',
      customerName: 'Agro SAC',
      prices: { tiers: {}, articles: new Map([[1, { ...sobre, priceCents: 650 }]]) },
    };
    // 2 sobres × 6.50 = 13.00 (customer) + 7 kg medio × 2.15 = 15.05 (route).
    const b = price({ lines: [line({ basis: 'articulo', articleId: 1, packages: 2 }), line({ productType: 'medio', weightKg: 7 })] }, route, own);
    expect(b.lines.map((l) => [l.source, l.amountCents])).toEqual([
      ['cliente', 1300],
      ['ruta', 1505],
    ]);
    expect(b.totalCents).toBe(2805);
  });
});

describe('minimum charge and surcharges', () => {
  const withMinimum = { ...route, minimumChargeCents: 1000 };
  it('4.20 of freight on a 10.00 minimum adds 5.80', () => {
    const b = price({ lines: [line({ weightKg: 3 })] }, withMinimum);
    expect(b.components.map((c) => [c.kind, c.amountCents])).toEqual([
      ['flete', 420],
      ['minimo', 580],
    ]);
    expect(b.totalCents).toBe(1000);
  });
  it('no adjustment when the freight reaches the minimum', () => {
    expect(price({ lines: [line({ weightKg: 20 })] }, withMinimum).components.some((c) => c.kind === 'minimo')).toBe(false);
  });
  it('a fixed surcharge: 4.20 + 10.00 = 14.20', () => {
    expect(price({ lines: [line({ weightKg: 3 })], surcharges: ['domicilio'] }).totalCents).toBe(1420);
  });
  it('a percentage surcharge on the freight after the minimum: 10 % of 10.00 = 1.00', () => {
    expect(price({ lines: [line({ weightKg: 3 })], surcharges: ['fragil'] }, withMinimum).totalCents).toBe(1100);
  });
  it('a fixed plus percentage surcharge: 5.00 + 2.5 % of 26.00 = 5.65', () => {
    expect(price({ lines: [line({ weightKg: 20 })], surcharges: ['recojo'] }).totalCents).toBe(2600 + 565);
  });
  it('a surcharge chosen twice counts once', () => {
    expect(price({ lines: [line({ weightKg: 3 })], surcharges: ['domicilio', 'domicilio'] }).totalCents).toBe(1420);
  });
});

describe('declared value and insurance', () => {
  it('2 % of 1,000.00 declared = 20.00', () => {
    const b = price({ lines: [line({ weightKg: 3 })], insured: true, declaredValueCents: 100_000 });
    expect(b.components.at(-1)).toMatchObject({ kind: 'seguro', amountCents: 2000 });
    expect(b.totalCents).toBe(2420);
  });
  it('below the threshold insurance is optional, and the minimum premium applies: 2 % of 100.00 = 2.00 → 3.00', () => {
    expect(price({ lines: [line({ weightKg: 3 })], declaredValueCents: 10_000 }).totalCents).toBe(420);
    expect(price({ lines: [line({ weightKg: 3 })], insured: true, declaredValueCents: 10_000 }).totalCents).toBe(720);
  });
  it('above the threshold it is mandatory when the company says so', () => {
    expect(problem({ lines: [line()], declaredValueCents: 50_001 })).toEqual({
      message: 'El seguro es obligatorio para un valor declarado mayor a S/ 500.00.',
      field: 'insured',
    });
    expect(
      priceShipment(
        { lines: [line()], declaredValueCents: 50_001 },
        route,
        { ...settings, insurance: { ...settings.insurance, mandatoryAbove: false } },
        null,
      ).ok,
    ).toBe(true);
  });
  it('insured with no declared value is refused', () => {
    expect(problem({ lines: [line()], insured: true }).message).toBe(TARIFF_MESSAGES.declaredValueRequired);
  });
  it('a declared value over the cap is refused', () => {
    expect(problem({ lines: [line()], insured: true, declaredValueCents: 5_000_001 })).toEqual({
      message: 'El valor declarado supera el máximo asegurable (S/ 50000.00).',
      field: 'declaredValue',
    });
  });
  it('premium rounding: 2 % of 1,234.57 = 24.6914 → 24.69', () => {
    expect(insurancePremium(settings.insurance, 123_457)).toBe(2469);
  });
  it('compensation: 90 % of the declared value, or the cap when undeclared', () => {
    expect(compensationDue(100_000, 9000, 20_000)).toBe(90_000);
    expect(compensationDue(null, 9000, 20_000)).toBe(20_000);
  });
  it('an incident of loss or damage: the insured declared value × cover, else the cap; other reasons nothing', () => {
    const clause = { coverBp: 9000, undeclaredCapCents: 10_000 };
    expect(incidentCompensation('extraviado', { declaredValueCents: 80_000, insured: true }, clause)).toEqual({
      amountCents: 72_000,
      basis: 'declarado',
      description: 'Indemnización según la cláusula: 90 % del valor declarado S/ 800.00 = S/ 720.00',
    });
    expect(incidentCompensation('dañado', { declaredValueCents: 80_000, insured: false }, clause)).toMatchObject({
      amountCents: 10_000,
      basis: 'tope',
    });
    expect(incidentCompensation('faltante en desembarque', { declaredValueCents: null, insured: false }, clause)?.amountCents).toBe(10_000);
    expect(incidentCompensation('destinatario ausente', { declaredValueCents: 80_000, insured: true }, clause)).toBeNull();
  });
});

describe('refusals name the field', () => {
  it('an article with no price on the route', () => {
    expect(problem({ lines: [line(), line({ basis: 'articulo', articleId: 99 })] })).toEqual({
      message: TARIFF_MESSAGES.articleWithoutPrice,
      field: 'lines.1.articleId',
    });
  });
  it('an article line without an article', () => {
    expect(problem({ lines: [line({ basis: 'articulo' })] }).field).toBe('lines.0.articleId');
  });
  it('two of three sizes', () => {
    expect(problem({ lines: [line({ lengthCm: 10, widthCm: 10 })] }).message).toBe(TARIFF_MESSAGES.dimensionsIncomplete);
  });
  it('volume without sizes', () => {
    expect(problem({ lines: [line({ basis: 'volumen' })] }).message).toBe(TARIFF_MESSAGES.volumeNeedsDimensions);
  });
  it('a weight beyond every tier, and a class with no table', () => {
    expect(problem({ lines: [line({ weightKg: 1001 })] }).message).toBe('Peso fuera de los rangos configurados.');
    expect(problem({ lines: [line({ productType: 'alto' })] }).field).toBe('lines.0.productType');
  });
  it('an unknown surcharge', () => {
    expect(problem({ lines: [line()], surcharges: ['helicoptero'] }).message).toBe(TARIFF_MESSAGES.unknownSurcharge);
  });
});

describe('properties', () => {
  const lineArb = fc.record({
    productType: fc.constant('liviano' as const),
    packages: fc.integer({ min: 1, max: 20 }),
    weightKg: fc.integer({ min: 1, max: 20_000 }).map((h) => h / 100),
    lengthCm: fc.integer({ min: 1, max: 120 }),
    widthCm: fc.integer({ min: 1, max: 120 }),
    heightCm: fc.integer({ min: 1, max: 120 }),
    basis: fc.constantFrom('peso' as const, 'volumen' as const),
  });
  it('chargeable kg is never below the real weight', () => {
    fc.assert(fc.property(lineArb, fc.integer({ min: 1000, max: 10_000 }), (l, divisor) => chargeableKg(l, divisor) >= l.weightKg));
  });
  it('a discount never raises the price, and the components always add up to the total', () => {
    const wide = { ...route, tiers: { liviano: [{ from_kg: 1, to_kg: 1_000_000, factor_per_kg: 1.3, sort_order: 1 }] } };
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 10_000 }), (lines, bp) => {
        const plain = priceShipment({ lines, surcharges: ['fragil'] }, wide, settings, null);
        const discounted = priceShipment({ lines, surcharges: ['fragil'] }, wide, settings, { kind: 'descuento', customerName: 'X', discountBp: bp });
        if (!plain.ok || !discounted.ok) return false;
        const sum = discounted.breakdown.components.reduce((s, c) => s + c.amountCents, 0);
        return (
          discounted.breakdown.totalCents <= plain.breakdown.totalCents &&
          sum === discounted.breakdown.totalCents &&
          discounted.breakdown.totalCents >= 0
        );
      }),
    );
  });
});
