import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_METHODS, type CashSession, type MovementPage, type PaymentMethod } from '@tramo/domain';
import { shipmentBody } from './fixtures.ts';
import { startWithSandboxBilling } from './sandbox-billing.ts';
import { engines, type TestContext } from './harness.ts';

/** 10:00 in Lima on 9 and 10 March 2026. */
const DAY1 = { day: '2026-03-09', at: '2026-03-09T15:00:00.000Z' };
const DAY2 = { day: '2026-03-10', at: '2026-03-10T15:00:00.000Z' };

/** What a report says of a day: payments collected per method, and payments voided. */
interface DayCount {
  collected: Partial<Record<PaymentMethod, number>>;
  voided: number;
}

const nonZero = (counts: { methodCode: PaymentMethod; count: number }[]) =>
  Object.fromEntries(counts.filter((c) => c.count > 0).map((c) => [c.methodCode, c.count])) as Partial<Record<PaymentMethod, number>>;

describe.each(engines)('one count of voided payments: Cierres del día, Mi caja and Movimientos (%s)', (engine) => {
  let t: TestContext;
  let agent: string;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ t, close } = await startWithSandboxBilling(engine, 'payment-void-counts'));
    agent = await t.login('AGENTE1');
  });
  afterAll(async () => {
    await close?.();
  });

  async function collect(methodCode: PaymentMethod) {
    const route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! };
    const s = (await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route) })).json();
    const res = await t.call('POST', '/api/payments/manual', {
      token: agent,
      body: {
        shipmentId: s.id,
        customerName: 'María Flores Ccori',
        customerDocNumber: '45879612',
        amount: s.quotedPrice,
        methodCode,
        ...(methodCode === 'cash' ? {} : { providerTxId: `OP-${s.id}` }),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().payment as { id: number; amount: number };
  }
  const voidPayment = async (id: number) => {
    const res = await t.call('POST', `/api/payments/manual/${id}/cancel`, { token: agent, body: { motivo: 'Cliente desistió' } });
    expect(res.statusCode, res.body).toBe(200);
  };

  /** The day as each screen reads it: the day's summary card, the cash sessions of the day, the movements report. */
  async function counts(day: string): Promise<{ cierres: DayCount; cajas: DayCount; movimientos: DayCount }> {
    const daily = (await t.call('GET', `/api/payments/report/daily?date=${day}`, { token: agent })).json();
    const sessions = (await t.call('GET', `/api/payments/cash-sessions?date=${day}`, { token: agent })).json().items as CashSession[];
    const all: MovementPage = (await t.call('GET', `/api/payments/report/movements?dateFrom=${day}&dateTo=${day}`, { token: agent })).json();
    const paid: MovementPage = (
      await t.call('GET', `/api/payments/report/movements?dateFrom=${day}&dateTo=${day}&status=paid`, { token: agent })
    ).json();
    const sessionCounts = PAYMENT_METHODS.map((m) => ({
      methodCode: m,
      count: sessions.reduce((n, s) => n + s.closing.lines.find((l) => l.methodCode === m)!.count, 0),
    }));
    return {
      cierres: { collected: nonZero(daily.byMethod), voided: daily.canceled.count },
      cajas: { collected: nonZero(sessionCounts), voided: sessions.reduce((n, s) => n + s.closing.voided.count, 0) },
      movimientos: { collected: nonZero(paid.totals.byMethod), voided: all.totals.byStatus.find((s) => s.status === 'canceled')!.count },
    };
  }

  it('a same-day void and a void on a later day count once, as Anulado on the day the payment was taken, in all three', async () => {
    t.clock.set(DAY1.at);
    const yape = await collect('yape_qr');
    const yapeVoidedSameDay = await collect('yape_qr');
    const cashVoidedLater = await collect('cash');
    await voidPayment(yapeVoidedSameDay.id);
    const session = (await t.call('GET', '/api/payments/cash-sessions/current', { token: agent })).json().session as CashSession;
    const closed = await t.call('POST', `/api/payments/cash-sessions/${session.id}/close`, {
      token: agent,
      body: { countedCash: cashVoidedLater.amount },
    });
    expect(closed.statusCode, closed.body).toBe(200);

    t.clock.set(DAY2.at);
    await voidPayment(cashVoidedLater.id);
    await collect('cash');

    const day1 = await counts(DAY1.day);
    const expected1: DayCount = { collected: { yape_qr: 1 }, voided: 2 };
    expect(day1).toEqual({ cierres: expected1, cajas: expected1, movimientos: expected1 });
    const day2 = await counts(DAY2.day);
    const expected2: DayCount = { collected: { cash: 1 }, voided: 0 };
    expect(day2).toEqual({ cierres: expected2, cajas: expected2, movimientos: expected2 });

    // The closed session keeps the money it counted; the later void moves it in the session open then.
    const [first] = (await t.call('GET', `/api/payments/cash-sessions?date=${DAY1.day}`, { token: agent })).json().items as CashSession[];
    expect(first!.closing.lines.find((l) => l.methodCode === 'cash')).toMatchObject({ count: 0, expected: cashVoidedLater.amount });
    expect(first!.closing.lines.find((l) => l.methodCode === 'yape_qr')).toMatchObject({ count: 1, expected: yape.amount });
    expect(first!.closing.voided).toEqual({ count: 2, amount: yapeVoidedSameDay.amount + cashVoidedLater.amount });
    const [second] = (await t.call('GET', `/api/payments/cash-sessions?date=${DAY2.day}`, { token: agent })).json().items as CashSession[];
    expect(second!.closing.lines.find((l) => l.methodCode === 'cash')!.expected).toBe(0);
    expect(second!.movements.filter((m) => m.adjustment)).toHaveLength(1);
    expect(t.takeViolations()).toEqual([]);
  });
});
