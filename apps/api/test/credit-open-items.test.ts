import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addDays, limaDay, type Reconciliation } from '@tramo/domain';
import { seedLimaPrices } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/*
 * Issue 37: the list of credit accounts and the ageing read what is open now (migration 0101's
 * credit_open_* sets, kept by triggers), not every factura and collection of an account's years.
 * The sets must agree with what the facturas, collections and shipments say, whatever runs at once:
 * collections applied to one factura in a burst, a credit note beside them, a collection voided.
 */

const RUC = '20100070970';
const CUSTOMER = { doc_type: 6, doc_number: RUC, firstName: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' };

describe.each(engines)('credit open items (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let customerId: number;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;

  beforeAll(async () => {
    billing = await sandboxBilling('credit-open-items');
    t = await startTestApp(engine, {
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '10.00']] }),
      providers: { billing: billing.provider },
    });
    billing.followClock(t.clock.now);
    admin = await t.login('ADMIN');
    customerId = (await t.call('POST', '/api/customers', { token: admin, body: CUSTOMER })).json().id;
    const body = { limit: '5000', termsDays: 30, period: 'mensual', contactName: 'Rosa Díaz', contactEmail: 'cobranzas@spsa.pe' };
    expect((await t.call('PUT', `/api/credit/accounts/${customerId}`, { token: admin, body })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  const today = () => limaDay(t.clock.now());
  const emit = async (body: Record<string, unknown>) => {
    const res = await t.call('POST', '/api/billing/create-emit', { token: admin, body: { serie: 'F371', issueDate: today(), ...body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; numero: number };
  };
  /** A factura al crédito of S/ 118.00 (100 + IGV). */
  const invoice = () =>
    emit({
      type: '01',
      items: [{ description: 'Servicio de transporte de carga Lima - Arequipa', unit: 'ZZ', quantity: 1, unitValue: '100', igvType: '10' }],
      customer: { doc_type: 6, doc_number: RUC, name: CUSTOMER.firstName, address: CUSTOMER.address },
      payment: { type: 'credito', installments: [{ fecha_de_pago: addDays(today(), 30), importe: '118.00' }] },
    });
  const collect = (allocations: { documentId: number; amount: string }[], amount: string) =>
    t.call('POST', '/api/credit/collections', {
      token: admin,
      body: { customerId, receivedOn: today(), method: 'transferencia', bank: 'BCP', operationNumber: `OP-${Math.random()}`, amount, allocations },
    });
  const openInvoices = async () =>
    ((await t.database.db.execute(sql`select document_id from credit_open_invoices order by 1`)).rows as { document_id: number }[]).map((r) =>
      Number(r.document_id),
    );
  const check = async () => {
    const res = await t.call('GET', '/api/reconciliation', { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as Reconciliation).checks.find((c) => c.check === 'credit_open_items')!;
  };
  const listed = async () => {
    const res = await t.call('GET', '/api/credit/accounts', { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { customerId: number; balance: number; unapplied: number }[]).find((a) => a.customerId === customerId)!;
  };

  it('keeps a factura open until it is paid, through a burst of collections and a credit note at once', async () => {
    const facturas = [await invoice(), await invoice(), await invoice()];
    expect(await openInvoices()).toEqual(facturas.map((f) => f.id).sort((a, b) => a - b));
    expect(await listed()).toMatchObject({ balance: 354 });

    // Six collections of S/ 59.00 on the first two facturas and a whole credit note on the third, all at once.
    const [a, b, c] = facturas as [(typeof facturas)[0], (typeof facturas)[0], (typeof facturas)[0]];
    const burst = await Promise.all([
      ...[a, a, b, b, b, a].map((f) => collect([{ documentId: f.id, amount: '59.00' }], '59.00')),
      t.call('POST', '/api/billing/create-emit', {
        token: admin,
        body: {
          type: '07',
          serie: 'FFF1',
          issueDate: today(),
          items: [{ description: 'Servicio de transporte de carga Lima - Arequipa', unit: 'ZZ', quantity: 1, unitValue: '100', igvType: '10' }],
          customer: { doc_type: 6, doc_number: RUC, name: CUSTOMER.firstName, address: CUSTOMER.address },
          extras: {
            documento_que_se_modifica_tipo: '01',
            documento_que_se_modifica_serie: 'F371',
            documento_que_se_modifica_numero: c.numero,
            tipo_de_nota_de_credito: '01',
          },
        },
      }),
    ]);
    // Two of a's three fit (118 = 2 × 59), two of b's three: the third of each is refused, and the note goes.
    expect(burst.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 201, 201, 422, 422]);
    expect(await openInvoices()).toEqual([]);
    expect(await listed()).toMatchObject({ balance: 0, unapplied: 0 });
    expect((await check()).count).toBe(0);

    // A collection voided: its factura is open again, for what it paid.
    const paidA = (
      await t.database.db.execute(
        sql`select c.id from credit_collections c join credit_allocations l on l.collection_id = c.id where l.document_id = ${a.id} and l.live order by c.id limit 1`,
      )
    ).rows[0] as { id: number };
    const voided = await t.call('POST', `/api/credit/collections/${paidA.id}/void`, {
      token: admin,
      body: { reason: 'Transferencia devuelta por el banco' },
    });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(await openInvoices()).toEqual([a.id]);
    expect(await listed()).toMatchObject({ balance: 59 });
    expect((await check()).count).toBe(0);
  });

  it('keeps money not applied open, and the ledger check reports a set changed by hand', async () => {
    // S/ 80.00 received: 59.00 pays the open factura (oldest first), 21.00 stays the customer's.
    const res = await collect([], '80.00');
    expect(res.statusCode, res.body).toBe(201);
    expect(await openInvoices()).toEqual([]);
    expect(await listed()).toMatchObject({ balance: -21, unapplied: 21 });

    // Through the side door: the collection taken off its set; the list would not show the money.
    await t.database.db.execute(sql`delete from credit_open_collections`);
    expect(await listed()).toMatchObject({ unapplied: 0 });
    const broken = await check();
    expect(broken.count).toBe(1);
    expect(broken.violations[0]).toMatchObject({ table: 'credit_open_items' });
    // Its sync puts it back, as any change of the collection would.
    await t.database.db.execute(sql`select credit_open_collections_sync(array(select id from credit_collections order by id))`);
    expect((await check()).count).toBe(0);
    expect(await listed()).toMatchObject({ balance: -21, unapplied: 21 });
  });
});
