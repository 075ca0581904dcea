import { describe, expect, it } from 'vitest';
import { newShipmentSchema, pricingChanged, priceRequestOf, tariffQuoteBodySchema } from '../src/index.ts';

const base = {
  senderName: 'Comercial Andina',
  recipientDoc: '45879612',
  recipientFirstName: 'María',
  recipientLastName: 'Flores',
  originBranchId: 1,
  destinationBranchId: 2,
  secretCode: 'clave-7',
};

describe('tariff fields of a shipment (issue 34)', () => {
  it('the spec payload gets the defaults: one package, by weight, undeclared, no surcharges', () => {
    const parsed = newShipmentSchema.parse({ ...base, productType: 'liviano', weightKg: 2.5 });
    expect(parsed.lines).toEqual([{ productType: 'liviano', weightKg: 2.5, packages: 1, basis: 'peso', articleId: null }]);
    expect(parsed).toMatchObject({ declaredValue: null, insured: false, surcharges: [] });
  });

  it('keeps the declared value in soles on the wire and in céntimos for pricing', () => {
    const parsed = tariffQuoteBodySchema.parse({
      originBranchId: 1,
      destinationBranchId: 2,
      lines: [{ productType: 'liviano', weightKg: 3 }],
      declaredValue: '800.10',
      insured: true,
    });
    expect(parsed.declaredValue).toBe(800.1);
    expect(priceRequestOf(parsed)).toMatchObject({ declaredValueCents: 80010, insured: true });
  });

  it('refuses a declared value of more than 2 decimals and sizes that are not whole centimetres', () => {
    expect(
      tariffQuoteBodySchema.safeParse({
        originBranchId: 1,
        destinationBranchId: 2,
        lines: [{ productType: 'liviano', weightKg: 3 }],
        declaredValue: 1.005,
      }).success,
    ).toBe(false);
    const res = newShipmentSchema.safeParse({ ...base, lines: [{ productType: 'liviano', weightKg: 3, lengthCm: 10.5, widthCm: 1, heightCm: 1 }] });
    expect(res.success).toBe(false);
    expect(res.error?.issues[0]?.message).toBe('Medida inválida: centímetros enteros de 1 a 1000.');
  });

  it('an edit reprices when a tariff choice changes, not when nothing that sets the price does', () => {
    const stored = { originBranchId: 1, destinationBranchId: 2, lines: [{ productType: 'liviano' as const, weightKg: 3 }], senderCustomerId: null };
    expect(pricingChanged(stored, { ...stored, lines: [{ productType: 'liviano', weightKg: 3, packages: 1, basis: 'peso' }] })).toBe(false);
    expect(pricingChanged(stored, { ...stored, lines: [{ productType: 'liviano', weightKg: 3, packages: 2 }] })).toBe(true);
    expect(pricingChanged(stored, { ...stored, lines: [{ productType: 'liviano', weightKg: 3, lengthCm: 10, widthCm: 10, heightCm: 10 }] })).toBe(
      true,
    );
    expect(pricingChanged(stored, { ...stored, surcharges: ['fragil'] })).toBe(true);
    expect(pricingChanged(stored, { ...stored, declaredValueCents: 50_000, insured: true })).toBe(true);
    expect(pricingChanged(stored, { ...stored, senderCustomerId: 7 })).toBe(true);
    expect(pricingChanged({ ...stored, surcharges: ['a_b', 'fragil'] }, { ...stored, surcharges: ['fragil', 'a_b'] })).toBe(false);
  });
});
