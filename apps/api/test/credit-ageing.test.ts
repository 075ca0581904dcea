import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, AGEING_BUCKETS, limaDay } from '@tramo/domain';
import { seedLimaPrices } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/*
 * Issue 35, item 6: the ageing inside Cuentas por cobrar, with totals per branch (the branch that
 * issued the factura) and the filter for customers over their limit.
 */

const ACCOUNTS = [
  { ruc: '20100070970', name: 'SUPERMERCADOS PERUANOS S.A.', limit: '5000' },
  { ruc: '20131312955', name: 'TRANSPORTES ICA S.A.C.', limit: '500' },
];

describe.each(engines)('credit ageing per branch (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;
  const ids: number[] = [];

  beforeAll(async () => {
    billing = await sandboxBilling('credit-ageing');
    t = await startTestApp(engine, {
      seed: (db, branchIds) => seedLimaPrices(db, branchIds, ['Arequipa'], { liviano: [[1, 1000, '10.00']] }),
      providers: { billing: billing.provider },
    });
    billing.followClock(t.clock.now);
    admin = await t.login('ADMIN');
    for (const a of ACCOUNTS) {
      const c = await t.call('POST', '/api/customers', {
        token: admin,
        body: { doc_type: 6, doc_number: a.ruc, firstName: a.name, address: 'Av. Lima 100' },
      });
      expect(c.statusCode, c.body).toBe(201);
      ids.push(c.json().id);
      const opened = await t.call('PUT', `/api/credit/accounts/${c.json().id}`, {
        token: admin,
        body: { limit: a.limit, termsDays: 30, period: 'mensual', contactName: 'Rosa Díaz', contactEmail: 'cobranzas@cliente.pe' },
      });
      expect(opened.statusCode, opened.body).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  const today = () => limaDay(t.clock.now());
  /** A factura al crédito of `base` + IGV, issued by `user` (whose branch it then belongs to), due in `days`. */
  const invoice = async (user: string, series: string, account: (typeof ACCOUNTS)[number], base: string, net: string, days: number) => {
    const res = await t.call('POST', '/api/billing/create-emit', {
      token: await t.login(user),
      body: {
        type: '01',
        serie: series,
        issueDate: today(),
        items: [{ description: 'Servicio de transporte de carga', unit: 'ZZ', quantity: 1, unitValue: base, igvType: '10' }],
        customer: { doc_type: 6, doc_number: account.ruc, name: account.name, address: 'Av. Lima 100' },
        payment: { type: 'credito', installments: [{ fecha_de_pago: addDays(today(), days), importe: net }] },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
  };

  it('totals each bucket per issuing branch, the branches adding up to the company, and filters the accounts over their limit', async () => {
    await invoice('AGENTE1', 'F361', ACCOUNTS[0]!, '100', '118.00', 10); // Lima, S/ 118.00, due in 10 days
    await invoice('AGENTE2', 'F362', ACCOUNTS[0]!, '200', '236.00', 20); // Arequipa, S/ 236.00, due in 20 days
    await invoice('AGENTE2', 'F362', ACCOUNTS[1]!, '500', '590.00', 5); // Arequipa, S/ 590.00 over a S/ 500 limit, due in 5 days

    t.clock.advance(15 * 86_400_000); // the Lima facturas 5 days overdue; one Arequipa factura 10 days, the other por vencer
    try {
      const token = await t.login('ADMIN');
      const res = await t.call('GET', '/api/credit/ageing', { token });
      expect(res.statusCode, res.body).toBe(200);
      const all = res.json();
      expect(all.branches).toEqual([
        { branchId: t.branchIds.get('Arequipa'), branchName: 'Arequipa', porVencer: 236, d1a30: 590, d31a60: 0, d61a90: 0, mas90: 0, total: 826 },
        { branchId: t.branchIds.get('Lima'), branchName: 'Lima', porVencer: 0, d1a30: 118, d31a60: 0, d61a90: 0, mas90: 0, total: 118 },
      ]);
      for (const b of [...AGEING_BUCKETS, 'total'] as const)
        expect(all.branches.reduce((s: number, x: Record<string, number>) => s + x[b]!, 0)).toBeCloseTo(all.totals[b], 2);
      expect(all.items.find((i: { customerId: number }) => i.customerId === ids[1])).toMatchObject({ overLimit: true, balance: 590, d1a30: 590 });

      const over = (await t.call('GET', '/api/credit/ageing?overLimit=true', { token })).json();
      expect(over.items.map((i: { customerId: number }) => i.customerId)).toEqual([ids[1]]);
      expect(over.branches).toEqual([
        { branchId: t.branchIds.get('Arequipa'), branchName: 'Arequipa', porVencer: 0, d1a30: 590, d31a60: 0, d61a90: 0, mas90: 0, total: 590 },
      ]);
      expect(over.totals.total).toBe(590);
      const bad = await t.call('GET', '/api/credit/ageing?overLimit=si', { token });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toContain('overLimit: true o false');
    } finally {
      t.clock.advance(-15 * 86_400_000);
    }
  });
});
