import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { paymentReceiptDraft, receiptItemsFromComponents, type ReceiptComponent } from '../src/index.ts';

/** Issue 34: a counter receipt has one item per price component and totals the stored price exactly. */
const components: ReceiptComponent[] = [
  { kind: 'flete', description: 'Flete 20 kg (volumen)', amountCents: 4000 },
  { kind: 'minimo', description: 'Ajuste a cargo mínimo (S/ 50.00)', amountCents: 1000 },
  { kind: 'recargo', description: 'Entrega a domicilio', amountCents: 1000 },
  { kind: 'seguro', description: 'Seguro (valor declarado S/ 800.00)', amountCents: 1600 },
  { kind: 'descuento', description: 'Descuento (10 %)', amountCents: -500 },
];

describe('receipt items from price components', () => {
  it('one item per positive component, the customer discount on the freight items', () => {
    const items = receiptItemsFromComponents(components, 7100)!;
    expect(items.map((i) => [i.grossCents, i.discountCents, i.amountCents])).toEqual([
      [4000, 400, 3600],
      [1000, 100, 900],
      [1000, 0, 1000],
      [1600, 0, 1600],
    ]);
    for (const i of items) expect(i.netCents + i.igvCents).toBe(i.amountCents);
  });

  it("a payment's own discount goes over every item after the customer's", () => {
    const items = receiptItemsFromComponents(components, 7000)!;
    expect(items.reduce((s, i) => s + i.amountCents, 0)).toBe(7000);
    expect(items.reduce((s, i) => s + i.discountCents, 0)).toBe(600);
  });

  it('keeps the one item for a single component, no components, or a payment above them', () => {
    expect(receiptItemsFromComponents([{ kind: 'flete', description: 'Flete 5 kg (peso)', amountCents: 1000 }], 1000)).toBeNull();
    expect(receiptItemsFromComponents(null, 1000)).toBeNull();
    expect(receiptItemsFromComponents(components, 7700)).toBeNull();
  });

  it('the boleta totals the amount with IGV per item', () => {
    const items = receiptItemsFromComponents(components, 7100)!;
    const check = paymentReceiptDraft(
      {
        amountCents: 7100,
        customer: { docType: 1, docNumber: '45871236', name: 'Rosa Quispe', address: null, email: null },
        issueDate: '2026-11-26',
        code: 'TMT-000001',
        items,
      },
      { today: '2026-11-26' },
    );
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.draft.lines).toHaveLength(4);
    expect(check.draft.totals.totalCents).toBe(7100);
    expect(check.draft.totals.igvCents).toBe(check.draft.lines.reduce((s, l) => s + l.igvCents, 0));
    expect(check.draft.lines[0]).toMatchObject({ discountCents: 339, subtotalCents: 3051, totalCents: 3600 });
  });

  it('property: the items add up to the payment, no item below zero', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 500_000 }), { minLength: 2, maxLength: 6 }),
        fc.integer({ min: 0, max: 100 }),
        (amounts, pct) => {
          const list = amounts.map((a, i) => ({ kind: i === 0 ? 'flete' : 'recargo', description: `c${i}`, amountCents: a }));
          const gross = amounts.reduce((s, a) => s + a, 0);
          const paid = Math.max(1, gross - Math.floor((gross * pct) / 100));
          const items = receiptItemsFromComponents(list, paid)!;
          expect(items.reduce((s, i) => s + i.amountCents, 0)).toBe(paid);
          for (const i of items) expect(i.amountCents).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});
