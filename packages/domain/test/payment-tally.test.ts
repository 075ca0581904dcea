import { describe, expect, it } from 'vitest';
import { closingSummary, PAYMENT_METHODS, tallyPayments } from '../src/index.ts';

describe('the one count of payments (issue #38 item 4)', () => {
  it('counts a standing payment as collected by method, a voided one as Anulado, a pending one nowhere', () => {
    const tally = tallyPayments([
      { method: 'yape_qr', status: 'paid', count: 2, cents: 3000 },
      { method: 'yape_qr', status: 'canceled', count: 1, cents: 1234 },
      { method: 'cash', status: 'paid', count: 1, cents: 500 },
      { method: 'cash', status: 'pending', count: 4, cents: 9999 },
    ]);
    expect(tally.collected).toEqual({ count: 3, cents: 3500 });
    expect(tally.voided).toEqual({ count: 1, cents: 1234 });
    expect(tally.byMethod.yape_qr).toEqual({ count: 2, cents: 3000 });
    expect(tally.byMethod.cash).toEqual({ count: 1, cents: 500 });
    expect(Object.keys(tally.byMethod)).toEqual([...PAYMENT_METHODS]);
  });

  it("gives a session's closing the same count: a same-day void is 'Anulados 1', not 'Pagos 1, Esperado S/ 0.00'", () => {
    const c = closingSummary(
      0,
      [
        { method: 'yape_qr', amountCents: 1234, paymentStatus: 'canceled' },
        { method: 'yape_qr', amountCents: -1234 },
      ],
      {
        cashCents: 0,
      },
    );
    expect(c.lines.find((l) => l.methodCode === 'yape_qr')).toMatchObject({ count: 0, expectedCents: 0 });
    expect(c.voided).toEqual({ count: 1, cents: 1234 });
  });

  it("leaves a later void's reversal (an adjustment of an earlier session) out of both counts: only money moves", () => {
    const c = closingSummary(0, [{ method: 'cash', amountCents: -800 }], { cashCents: -800 });
    expect(c.lines.every((l) => l.count === 0)).toBe(true);
    expect(c.voided).toEqual({ count: 0, cents: 0 });
    expect(c.expectedCents).toBe(-800);
  });
});
