import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SHIPMENT_MESSAGES } from '@tramo/domain';
import { databaseConflict } from '../src/lib/errors.ts';
import { shipmentBody } from './fixtures.ts';
import { startWithSandboxBilling } from './sandbox-billing.ts';
import { engines, type TestContext } from './harness.ts';

/** Lima → Arequipa at S/ 12.34 per billable kg: 2.5 kg (3) is 37.02. */
const FACTOR = '12.34';

/** Issues 30 and 31: what was charged for a shipment stays what the shipment is. */
describe.each(engines)('shipment charges (%s)', (engine) => {
  let t: TestContext;
  let agent: string;
  let lima: number;
  let arequipa: number;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ t, close } = await startWithSandboxBilling(engine, 'shipment-charges', { factor: FACTOR }));
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
    agent = await t.login('AGENTE1');
  });
  afterAll(async () => {
    await close?.();
  });

  const route = () => ({ originBranchId: lima, destinationBranchId: arequipa });
  const execute = (query: ReturnType<typeof sql>) => t.database.db.execute(query);

  async function newShipment() {
    const res = await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route()) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; code: string; quotedPrice: number };
  }

  const payment = (s: { id: number; quotedPrice: number }) =>
    t.call('POST', '/api/payments/manual', {
      token: agent,
      body: {
        shipmentId: s.id,
        customerName: 'María Flores Ccori',
        customerDocNumber: '45879612',
        amount: s.quotedPrice,
        currency: 'PEN',
        methodCode: 'cash',
      },
    });

  /** Pays the whole price in cash: a paid payment and an accepted boleta. */
  async function pay(s: { id: number; quotedPrice: number }) {
    const res = await payment(s);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().receipt).toMatchObject({ status: 'aceptado' });
  }

  /** Everything a refused change must leave as it was: the row, its history, its audit, its payment and document. */
  async function state(id: number) {
    const result = await execute(sql`
      select s.status, s.weight_kg::text as weight, s.quoted_price::text as price, s.multi_line_detail as lines,
             (select count(*) from shipment_events e where e.shipment_id = s.id)::int as events,
             (select count(*) from audit_log a where a.entity = 'shipment' and a.entity_id = s.id::text)::int as audits,
             (select string_agg(p.status || '/' || coalesce(d.status, '-'), ',') from payments p left join documents d on d.id = p.document_id
               where p.shipment_id = s.id) as charges
        from shipments s where s.id = ${id}`);
    return result.rows[0];
  }

  it('refuses to cancel a paid shipment (409, nothing changed); the database refuses it too (issue 30)', async () => {
    const s = await newShipment();
    await pay(s);
    const before = await state(s.id);
    expect(before).toMatchObject({ status: 'Creado', charges: 'paid/aceptado' });

    const cancel = await t.call('DELETE', `/api/shipments/${s.id}`, { token: agent });
    expect(cancel.statusCode, cancel.body).toBe(409);
    expect(cancel.json().error).toBe(SHIPMENT_MESSAGES.paidNotCancellable);
    const byStatus = await t.call('PATCH', `/api/shipments/${s.id}/status`, { token: agent, body: { status: 'Anulado' } });
    expect(byStatus.statusCode, byStatus.body).toBe(409);
    expect(byStatus.json().error).toBe(SHIPMENT_MESSAGES.paidNotCancellable);
    expect(await state(s.id)).toEqual(before);

    const direct = await execute(sql`update shipments set status = 'Anulado' where id = ${s.id}`).catch((err: unknown) => err);
    expect(databaseConflict(direct)).toBe(SHIPMENT_MESSAGES.paidNotCancellable);
    expect(await state(s.id)).toEqual(before);
  });

  it('still cancels a shipment nobody paid', async () => {
    const s = await newShipment();
    const cancel = await t.call('DELETE', `/api/shipments/${s.id}`, { token: agent });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().status).toBe('Anulado');
  });

  it("an edit that changes nothing of what sets the price keeps it, whatever today's table says (issue 31)", async () => {
    const s = await newShipment();
    const before = await state(s.id);
    await execute(sql`update weight_factor_tiers set factor_per_kg = '99.99'
                       where table_id in (select id from weight_factor_tables where origin_branch_id = ${lima} and destination_branch_id = ${arequipa})`);
    try {
      const edit = await t.call('PUT', `/api/shipments/${s.id}`, {
        token: agent,
        body: shipmentBody(route(), { description: 'Solo cambia la descripción', secretCode: '' }),
      });
      expect(edit.statusCode, edit.body).toBe(200);
      expect(edit.json()).toMatchObject({ quotedPrice: 37.02, weightKg: 2.5, description: 'Solo cambia la descripción' });
      expect(await state(s.id)).toMatchObject({ price: before!.price, lines: before!.lines });
      // A change of weight is priced from today's table: 80 kg at 99.99.
      const heavier = await t.call('PUT', `/api/shipments/${s.id}`, {
        token: agent,
        body: shipmentBody(route(), { lines: [{ productType: 'liviano', weightKg: 80 }], secretCode: '' }),
      });
      expect(heavier.statusCode, heavier.body).toBe(200);
      expect(heavier.json()).toMatchObject({ quotedPrice: 7999.2, weightKg: 80 });
    } finally {
      await execute(sql`update weight_factor_tiers set factor_per_kg = ${FACTOR}
                         where table_id in (select id from weight_factor_tables where origin_branch_id = ${lima} and destination_branch_id = ${arequipa})`);
    }
  });

  it('refuses a change of weight, route or class of a paid shipment (409, nothing changed); the database refuses it too (issue 31)', async () => {
    const s = await newShipment();
    await pay(s);
    const before = await state(s.id);

    const heavier = await t.call('PUT', `/api/shipments/${s.id}`, {
      token: agent,
      body: shipmentBody(route(), { lines: [{ productType: 'liviano', weightKg: 80 }], secretCode: '' }),
    });
    expect(heavier.statusCode, heavier.body).toBe(409);
    expect(heavier.json().error).toBe(SHIPMENT_MESSAGES.paidNotRepriceable);
    expect(await state(s.id)).toEqual(before);

    // What does not set the price still changes, at the price paid.
    const described = await t.call('PUT', `/api/shipments/${s.id}`, {
      token: agent,
      body: shipmentBody(route(), { description: 'Frágil', secretCode: '' }),
    });
    expect(described.statusCode, described.body).toBe(200);
    expect(described.json()).toMatchObject({ quotedPrice: 37.02, weightKg: 2.5, description: 'Frágil' });

    const direct = await execute(sql`update shipments set weight_kg = 80 where id = ${s.id}`).catch((err: unknown) => err);
    expect(databaseConflict(direct)).toBe(SHIPMENT_MESSAGES.paidNotRepriceable);
    expect(await state(s.id)).toMatchObject({ weight: '2.50', price: '37.02' });
  });

  it('a cancellation and a payment of one shipment sent together never both stand (issues 30, 31)', async () => {
    for (let i = 0; i < 8; i++) {
      const s = await newShipment();
      const [cancel, paid] = await Promise.all([t.call('DELETE', `/api/shipments/${s.id}`, { token: agent }), payment(s)]);
      const after = await state(s.id);
      const outcome = JSON.stringify({ cancel: cancel.statusCode, payment: paid.statusCode, after });
      expect(cancel.statusCode < 500 && paid.statusCode < 500, outcome).toBe(true);
      expect(after!.status === 'Anulado' && /pending|paid/.test(String(after!.charges ?? '')), outcome).toBe(false);
    }
  });

  it('the database refuses a payment row for a cancelled shipment', async () => {
    const s = await newShipment();
    const cancel = await t.call('DELETE', `/api/shipments/${s.id}`, { token: agent });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const direct = await execute(sql`
      insert into payments (shipment_id, status, method, amount_cents, customer_doc_type, customer_doc_number, customer_name, user_id, user_name, cash_session_id)
      select ${s.id}, 'paid', 'cash', 3702, 1, '45879612', 'María Flores Ccori', p.user_id, p.user_name, p.cash_session_id from payments p limit 1`).catch(
      (err: unknown) => err,
    );
    expect(databaseConflict(direct)).toBe('El envío está anulado: no se le registra un pago.');
  });
});
