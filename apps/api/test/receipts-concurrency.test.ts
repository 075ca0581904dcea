import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { limaDay } from '@tramo/domain';
import { shipmentBody } from './fixtures.ts';
import { startWithSandboxBilling } from './sandbox-billing.ts';
import { engines, type TestContext } from './harness.ts';

/*
 * Issue 37: a payment's receipt is numbered, stored, evented and audited by one statement, and
 * confirmed with its movement and audit by another; an emission's number and its answer are
 * written without a transaction around a lone statement. Under concurrency on either engine the
 * series stays 1..N and every row those statements write is there exactly once per document.
 */

const rows = async (t: TestContext, query: ReturnType<typeof sql>) => (await t.database.db.execute(query)).rows as Record<string, unknown>[];
const scalar = async (t: TestContext, query: ReturnType<typeof sql>) => Number(Object.values((await rows(t, query))[0]!)[0]);

describe.each(engines)('receipts under concurrency (%s)', (engine) => {
  let t: TestContext;
  let close: (() => Promise<void>) | undefined;
  let agent: string;
  let admin: string;
  let lima: number;
  let arequipa: number;

  beforeAll(async () => {
    ({ t, close } = await startWithSandboxBilling(engine, 'receipts-concurrency', { factor: '12.34' }));
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
    [agent, admin] = await Promise.all([t.login('AGENTE1'), t.login('ADMIN')]);
  });
  afterAll(async () => {
    await close?.();
  });

  it('24 payments by two cashiers at once: all paid, boletas BBB1 1..24, one event, audit and movement each', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 24; i++) {
      const res = await t.call('POST', '/api/shipments', {
        token: agent,
        body: shipmentBody({ originBranchId: lima, destinationBranchId: arequipa }),
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    const results = await Promise.all(
      ids.map((shipmentId, i) =>
        t.call('POST', '/api/payments/manual', {
          token: i % 2 ? agent : admin,
          body: { shipmentId, customerName: 'María Flores Ccori', customerDocNumber: '45879612', amount: 37.02, currency: 'PEN', methodCode: 'cash' },
        }),
      ),
    );
    for (const r of results) expect(r.statusCode, r.body).toBe(201);
    const numbers = (await rows(t, sql`select number from documents where series = 'BBB1' order by number`)).map((r) => Number(r.number));
    expect(numbers).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(await scalar(t, sql`select last_number from document_series where series = 'BBB1'`)).toBe(24);
    // Each document: accepted, its number inside its JSON too, one 'emitido' and one 'aceptado' event, an 'emit' and an audit of the answer.
    expect(
      await scalar(t, sql`select count(*) from documents where series = 'BBB1' and status = 'aceptado' and (document ->> 'number')::int = number`),
    ).toBe(24);
    for (const kind of ['emitido', 'aceptado'])
      expect(
        await scalar(
          t,
          sql`select count(*) from document_events e join documents d on d.id = e.document_id where d.series = 'BBB1' and e.kind = ${kind}`,
        ),
      ).toBe(24);
    expect(
      await scalar(
        t,
        sql`select count(*) from audit_log a join documents d on a.entity = 'document' and a.entity_id = d.id::text
            where d.series = 'BBB1' and a.action = 'emit' and a.after = jsonb_build_object('type', d.type, 'series', d.series, 'number', d.number)`,
      ),
    ).toBe(24);
    // Each payment: paid with its receipt, one 'cobro' in its cashier's session, audited at creation and at confirmation.
    const paid = await rows(
      t,
      sql`select p.id, p.document_id, p.cash_session_id, s.user_id as session_user, p.user_id from payments p join cash_sessions s on s.id = p.cash_session_id where p.status = 'paid'`,
    );
    expect(paid).toHaveLength(24);
    for (const p of paid) expect(p.session_user).toBe(p.user_id);
    expect(
      await scalar(
        t,
        sql`select count(*) from payment_movements m join payments p on p.id = m.payment_id where m.kind = 'cobro' and m.amount_cents = 3702 and m.cash_session_id = p.cash_session_id`,
      ),
    ).toBe(24);
    for (const action of ['create', 'confirm'])
      expect(await scalar(t, sql`select count(*) from audit_log where entity = 'payment' and action = ${action}`)).toBe(24);
    expect(
      await scalar(
        t,
        sql`select count(*) from audit_log a join payments p on a.entity = 'payment' and a.entity_id = p.id::text
            where a.action = 'confirm' and a.after = jsonb_build_object('status', 'paid', 'documentId', p.document_id)`,
      ),
    ).toBe(24);
  });

  it('30 emissions on one series at once, with one key sent twice: numbers 1..29, the repeated key one document', async () => {
    const factura = (key?: string) => ({
      type: '01',
      serie: 'FCC1',
      issueDate: limaDay(new Date()),
      items: [{ description: 'Servicio de transporte de carga', unit: 'ZZ', quantity: 1, unitValue: '100', igvType: '10' }],
      customer: { doc_type: 6, doc_number: '20100070970', name: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' },
      ...(key ? { extras: { codigo_unico: key } } : {}),
    });
    const bodies = [...Array.from({ length: 28 }, () => factura()), factura('CLAVE-1'), factura('CLAVE-1')];
    const results = await Promise.all(bodies.map((body) => t.call('POST', '/api/billing/create-emit', { token: admin, body })));
    for (const r of results) expect([200, 201], r.body).toContain(r.statusCode);
    const numbers = (await rows(t, sql`select number from documents where series = 'FCC1' order by number`)).map((r) => Number(r.number));
    expect(numbers).toEqual(Array.from({ length: 29 }, (_, i) => i + 1));
    expect(await scalar(t, sql`select last_number from document_series where series = 'FCC1'`)).toBe(29);
    expect(await scalar(t, sql`select count(*) from documents where series = 'FCC1' and idempotency_key = 'CLAVE-1'`)).toBe(1);
    expect(await scalar(t, sql`select count(*) from document_events e join documents d on d.id = e.document_id where d.series = 'FCC1'`)).toBe(58);
  });
});
