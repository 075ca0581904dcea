import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '@tramo/domain';
import { shipmentBody } from './fixtures.ts';
import { startWithSandboxBilling } from './sandbox-billing.ts';
import { engines, type TestContext } from './harness.ts';

/** 23:30 in Lima on 9 March 2026 is 04:30 UTC on the 10th: a UTC date would put it on the wrong day. */
const EVENING = '2026-03-10T04:30:00.000Z';

describe.each(engines)('movements CSV in Lima time (%s)', (engine) => {
  let t: TestContext;
  let agent: string;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ t, close } = await startWithSandboxBilling(engine, 'movements-csv-lima'));
    agent = await t.login('AGENTE1');
  });
  afterAll(async () => {
    await close?.();
  });

  it("writes an evening payment's date as dd/mm/yyyy hh:mm on its Lima day, the amount with a plain dot and 2 decimals", async () => {
    t.clock.set(EVENING);
    const route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! };
    const s = (
      await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route, { lines: [{ productType: 'liviano', weightKg: 10 }] }) })
    ).json();
    const paid = await t.call('POST', '/api/payments/manual', {
      token: agent,
      body: {
        shipmentId: s.id,
        customerName: 'María Flores Ccori',
        customerDocNumber: '45879612',
        amount: s.quotedPrice,
        methodCode: 'yape_qr',
        providerTxId: 'YP-2330',
      },
    });
    expect(paid.statusCode, paid.body).toBe(201);

    for (const locale of ['es-PE', 'es-ES']) {
      // The Lima day of the payment finds it; the UTC day it fell on does not.
      const csv = await t.call('GET', `/api/payments/report/movements.csv?dateFrom=2026-03-09&dateTo=2026-03-09&locale=${locale}`, { token: agent });
      expect(csv.statusCode, csv.body).toBe(200);
      const [header, ...rows] = parseCsv(csv.body);
      expect(header![0]).toBe('Fecha');
      const row = rows.find((r) => r[11] === s.code);
      expect(row, csv.body).toBeDefined();
      expect(row![0]).toBe('09/03/2026 23:30');
      expect(row![5]).toBe(locale === 'es-ES' ? '123,40' : '123.40');
      // Every date cell of the export is Lima's wall clock, never an ISO instant.
      expect(rows.every((r) => /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/.test(r[0]!))).toBe(true);
    }
    const nextDay = await t.call('GET', '/api/payments/report/movements.csv?dateFrom=2026-03-10&dateTo=2026-03-10', { token: agent });
    expect(parseCsv(nextDay.body).some((r) => r[11] === s.code)).toBe(false);
  });
});
