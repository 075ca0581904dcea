import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/** SUNAT takes a boleta through the daily summary: in this sandbox it stays 'pendiente' for an hour. */
const BOLETA_DELAY_MS = 3_600_000;

describe.each(engines)('same-day void of a payment whose boleta is pending at SUNAT (%s)', (engine) => {
  let t: TestContext;
  let agent: string;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;

  beforeAll(async () => {
    billing = await sandboxBilling('payments-same-day-void', { boletaDelayMs: BOLETA_DELAY_MS });
    t = await startTestApp(engine, {
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '12.34']] }),
      providers: { billing: billing.provider },
    });
    billing.followClock(t.clock.now);
    agent = await t.login('AGENTE1');
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  it('pay, then void at once: 200, the payment voided with its reversal, its boleta on the way to anulado', async () => {
    const route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! };
    const s = (await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route) })).json();
    const paid = await t.call('POST', '/api/payments/manual', {
      token: agent,
      body: { shipmentId: s.id, customerName: 'María Flores Ccori', customerDocNumber: '45879612', amount: s.quotedPrice, methodCode: 'cash' },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const p = paid.json().payment;
    expect(p).toMatchObject({ status: 'paid', documentStatus: 'pendiente' });

    const res = await t.call('POST', `/api/payments/manual/${p.id}/cancel`, { token: agent, body: { motivo: 'Cliente desistió' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'canceled', cancelReason: 'Cliente desistió' });
    expect(['anulación pendiente', 'anulado']).toContain(res.json().documentStatus);
    const reversal = (await t.database.db.execute(sql`select amount_cents from payment_movements where payment_id = ${p.id} and kind = 'anulacion'`))
      .rows as { amount_cents: number }[];
    expect(reversal.map((r) => Number(r.amount_cents))).toEqual([-Math.round(s.quotedPrice * 100)]);
    // The shipment is free again: a new payment is taken.
    const again = await t.call('POST', '/api/payments/manual', {
      token: agent,
      body: { shipmentId: s.id, customerName: 'María Flores Ccori', customerDocNumber: '45879612', amount: s.quotedPrice, methodCode: 'cash' },
    });
    expect(again.statusCode, again.body).toBe(201);
  });
});
