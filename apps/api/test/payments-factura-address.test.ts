import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { BILLING_MESSAGES, INVOICE_MESSAGES } from '@tramo/domain';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/** A company nobody registered: the local lookup knows no address for it. */
const WALK_IN_RUC = '20100070970';

describe.each(engines)('counter factura to a walk-in RUC, and a payment receipt in the register (%s)', (engine) => {
  let t: TestContext;
  let agent: string;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;

  beforeAll(async () => {
    billing = await sandboxBilling('payments-factura-address');
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

  const count = async (query: ReturnType<typeof sql>) => Number(((await t.database.db.execute(query)).rows[0] as { n: unknown }).n);
  async function newShipment() {
    const route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! };
    const res = await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; quotedPrice: number };
  }
  const payByRuc = (s: { id: number; quotedPrice: number }, over: Record<string, unknown> = {}) =>
    t.call('POST', '/api/payments/manual', {
      token: agent,
      body: {
        shipmentId: s.id,
        customerName: 'SUPERMERCADOS PERUANOS S.A.',
        customerDocType: 6,
        customerDocNumber: WALK_IN_RUC,
        amount: s.quotedPrice,
        methodCode: 'cash',
        ...over,
      },
    });

  it('without an address typed (and none from the lookup) is a 422 that asks for it, and nothing is stored', async () => {
    const s = await newShipment();
    const [paymentsBefore, documentsBefore] = [
      await count(sql`select count(*) as n from payments`),
      await count(sql`select count(*) as n from documents`),
    ];
    for (const over of [{}, { customerAddress: '   ' }]) {
      const res = await payByRuc(s, over);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({
        error: INVOICE_MESSAGES.facturaNeedsAddress,
        code: 'FACTURA_NEEDS_ADDRESS',
        fields: { customerAddress: INVOICE_MESSAGES.facturaNeedsAddress },
      });
    }
    expect(await count(sql`select count(*) as n from payments`)).toBe(paymentsBefore);
    expect(await count(sql`select count(*) as n from documents`)).toBe(documentsBefore);
  });

  it('with the address typed is a factura 01 to that address, kept on the payment', async () => {
    const s = await newShipment();
    const res = await payByRuc(s, { customerAddress: '  Av. Morro Solar 1086, Santiago de Surco, Lima ' });
    expect(res.statusCode, res.body).toBe(201);
    const payment = res.json().payment;
    expect(payment.status).toBe('paid');
    const doc = (await t.call('GET', `/api/billing/lookup/${payment.documentId}`, { token: agent })).json();
    expect(doc).toMatchObject({ type: '01', customerDocNumber: WALK_IN_RUC, customerAddress: 'Av. Morro Solar 1086, Santiago de Surco, Lima' });
    const stored = await t.database.db.execute(sql`select customer_address from payments where id = ${payment.id}`);
    expect(stored.rows[0]).toEqual({ customer_address: 'Av. Morro Solar 1086, Santiago de Surco, Lima' });
  });

  it('a boleta needs no address and keeps none', async () => {
    const s = await newShipment();
    const res = await t.call('POST', '/api/payments/manual', {
      token: agent,
      body: { shipmentId: s.id, customerName: 'María Flores Ccori', customerDocNumber: '45879612', amount: s.quotedPrice, methodCode: 'cash' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const stored = await t.database.db.execute(sql`select customer_address from payments where id = ${res.json().payment.id}`);
    expect(stored.rows[0]).toEqual({ customer_address: null });
  });

  it("a live payment's receipt says so in its detail (the register offers no void of its own); once the payment is voided it no longer does", async () => {
    const s = await newShipment();
    const paid = await payByRuc(s, { customerAddress: 'Av. Morro Solar 1086, Lima' });
    expect(paid.statusCode, paid.body).toBe(201);
    const { id, documentId } = paid.json().payment as { id: number; documentId: number };
    const detail = async () => (await t.call('GET', `/api/billing/lookup/${documentId}`, { token: agent })).json();
    expect(await detail()).toMatchObject({ status: 'aceptado', ofLivePayment: true });
    // What the screen hides, the API refuses.
    const alone = await t.call('POST', '/api/billing/void', { token: agent, body: { id: documentId, motivo: 'Error' } });
    expect(alone.statusCode).toBe(409);
    expect(alone.json().error).toBe(BILLING_MESSAGES.receiptOfPayment);

    const voided = await t.call('POST', `/api/payments/manual/${id}/cancel`, { token: agent, body: { motivo: 'Error de cobro' } });
    expect(voided.statusCode, voided.body).toBe(200);
    expect((await detail()).ofLivePayment).toBe(false);
  });
});
