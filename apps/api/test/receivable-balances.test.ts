import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Reconciliation } from '@tramo/domain';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/**
 * Issue 37: Cuentas por cobrar and 'Por cobrar en destino' read balances that triggers keep in the
 * transactions of shipments and payments (migration 0089). Under a burst of concurrent creations,
 * payments and voids they stay equal to what the old scan of every shipment answers, and the
 * ledger check sees a balance changed behind the triggers' back.
 */
describe.each(engines)('receivable balances (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let lima: number;
  let arequipa: number;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;

  beforeAll(async () => {
    billing = await sandboxBilling('receivable-balances');
    t = await startTestApp(engine, {
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '12.34']] }),
      providers: { billing: billing.provider },
    });
    billing.followClock(t.clock.now);
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
    [admin, agent] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1')]);
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  const rows = async (query: ReturnType<typeof sql>) => (await t.database.db.execute(query)).rows as Record<string, unknown>[];
  const create = (senderName: string, over: Record<string, unknown> = {}) =>
    t.call('POST', '/api/shipments', {
      token: agent,
      body: shipmentBody({ originBranchId: lima, destinationBranchId: arequipa }, { senderName, ...over }),
    });
  const pay = (shipmentId: number, amount: number, token = agent) =>
    t.call('POST', '/api/payments/manual', {
      token,
      body: { shipmentId, customerName: 'María Flores Ccori', customerDocNumber: '45879612', amount, currency: 'PEN', methodCode: 'cash' },
    });
  const voidPayment = (paymentId: number, token = agent) =>
    t.call('POST', `/api/payments/manual/${paymentId}/cancel`, { token, body: { motivo: 'Error de cobro' } });
  const reconciliation = async () => {
    const res = await t.call('GET', '/api/reconciliation', { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Reconciliation;
  };
  const countOf = (r: Reconciliation, check: string) => r.checks.find((c) => c.check === check)!.count;

  /** What Cuentas por cobrar answered when it scanned every shipment (before migration 0089): the oracle. */
  const scanned = () =>
    rows(sql`
      select coalesce('c' || s.sender_customer_id::text, 'n:' || lower(s.sender_name)) as key,
        count(*)::int as n, round(sum(s.quoted_price) * 100)::bigint::int as cents, max(s.created_at) as last_at
      from shipments s
      where s.status <> 'Anulado' and s.payment_moment <> 'destino'
        and not exists (select 1 from payments p where p.shipment_id = s.id and p.status = 'paid')
      group by 1 order by 1`);
  const scannedDestination = () =>
    rows(sql`
      select s.destination_branch_id as branch_id, count(*)::int as n, round(sum(s.quoted_price) * 100)::bigint::int as cents
      from shipments s
      where s.payment_moment = 'destino' and s.status in ('Creado', 'En tránsito', 'En agencia')
        and not exists (select 1 from payments p where p.shipment_id = s.id and p.status = 'paid')
      group by 1 order by 1`);

  it('a burst of 20 concurrent creations, payments and voids leaves the balances what the shipments say, and the checks at 0', async () => {
    const senders = ['Balance Norte SAC', 'balance norte sac', 'Balance Sur EIRL'];
    const made: { id: number; quotedPrice: number }[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await create(senders[i % 3]!, { lines: [{ productType: 'liviano', weightKg: 1 + i }] });
      expect(res.statusCode, res.body).toBe(201);
      made.push(res.json());
    }
    const paid: number[] = [];
    for (const s of made.slice(0, 6)) {
      const res = await pay(s.id, s.quotedPrice);
      expect(res.statusCode, res.body).toBe(201);
      paid.push(res.json().payment.id);
    }
    // 7 creations (2 pago en destino), 7 payments of unpaid shipments (admin and agent: two cash
    // sessions), 6 voids of paid ones, all at once.
    const burst = await Promise.all([
      ...[0, 1, 2, 3, 4].map((i) => create(senders[i % 3]!, { lines: [{ productType: 'liviano', weightKg: 20 + i }] })),
      ...[0, 1].map((i) => create(`Destino Balance ${i}`, { payer: 'destinatario', paymentMoment: 'destino' })),
      ...made.slice(6, 12).map((s, i) => pay(s.id, s.quotedPrice, i % 2 ? admin : agent)),
      ...paid.map((id) => voidPayment(id)),
    ]);
    expect(burst.map((r) => r.statusCode).sort()).toEqual(
      [...Array<number>(7).fill(201), ...Array<number>(6).fill(201), ...Array<number>(6).fill(200)].sort(),
    );
    // The newest shipment of a sender paid: its balance finds its last shipment again.
    const late = burst[4]!.json() as { id: number; quotedPrice: number };
    const latePay = await pay(late.id, late.quotedPrice, admin);
    expect(latePay.statusCode, latePay.body).toBe(201);

    const kept = await rows(sql`
      select customer_key as key, sum(n)::int as n, round(sum(amount) * 100)::bigint::int as cents, max(last_shipment_at) as last_at
      from receivable_customer_balances group by 1 order by 1`);
    expect(kept).toEqual(await scanned());
    const keptDestination = await rows(sql`
      select destination_branch_id as branch_id, sum(n)::int as n, round(sum(amount) * 100)::bigint::int as cents
      from receivable_destination_balances group by 1 order by 1`);
    expect(keptDestination).toEqual(await scannedDestination());
    expect(keptDestination).toEqual([{ branch_id: arequipa, n: 2, cents: 3702 * 2 }]);

    // The API answers the same: two spellings of one sender are one customer, the smallest name shown.
    const list = (await t.call('GET', '/api/receivables/customers?q=balance norte', { token: admin })).json();
    const north = (await scanned()).find((r) => r.key === 'n:balance norte sac')!;
    expect(list.items).toEqual([
      expect.objectContaining({
        customer_key: 'n:balance norte sac',
        customer_name: 'Balance Norte SAC',
        shipments_count: north.n,
        open_amount: Number(north.cents) / 100,
      }),
    ]);
    const result = await reconciliation();
    expect(countOf(result, 'receivable_balances')).toBe(0);
    expect(countOf(result, 'destination_receivable_balances')).toBe(0);
    expect(result).toMatchObject({ ok: true, violations: 0 });
  });

  it('a cancellation takes the shipment off its balance in its own transaction', async () => {
    const res = await create('Balance Anulado SAC');
    expect(res.statusCode, res.body).toBe(201);
    const shipment = res.json() as { id: number };
    const owed = async () => (await rows(sql`select n from receivable_customer_balances where customer_key = 'n:balance anulado sac'`))[0]?.n ?? 0;
    expect(await owed()).toBe(1);
    const cancel = await t.call('DELETE', `/api/shipments/${shipment.id}`, { token: admin });
    expect(cancel.statusCode, cancel.body).toBe(200);
    // Nothing owed: the balance row is gone, not left at zero.
    expect(await owed()).toBe(0);
    expect((await reconciliation()).ok).toBe(true);
  });

  it('a balance changed behind the triggers is reported by the ledger check, per customer and per destination', async () => {
    const [row] = await rows(sql`select customer_key, origin_branch_id, sender_name from receivable_customer_balances order by customer_key limit 1`);
    await t.database.db.execute(sql`update receivable_customer_balances set amount = amount + 1
      where customer_key = ${row!.customer_key} and origin_branch_id = ${row!.origin_branch_id} and sender_name = ${row!.sender_name}`);
    await t.database.db.execute(sql`update receivable_destination_balances set n = n + 1`);
    try {
      const result = await reconciliation();
      expect(result.ok).toBe(false);
      expect(countOf(result, 'receivable_balances')).toBe(1);
      expect(countOf(result, 'destination_receivable_balances')).toBe(1);
      const violation = result.checks.find((c) => c.check === 'receivable_balances')!.violations[0]!;
      expect(violation).toMatchObject({ table: 'receivable_customer_balances', code: row!.sender_name });
      expect(Number(violation.values.keptCents) - Number(violation.values.cents)).toBe(100);
    } finally {
      await t.database.db.execute(sql`update receivable_customer_balances set amount = amount - 1
        where customer_key = ${row!.customer_key} and origin_branch_id = ${row!.origin_branch_id} and sender_name = ${row!.sender_name}`);
      await t.database.db.execute(sql`update receivable_destination_balances set n = n - 1`);
    }
    expect(await reconciliation()).toMatchObject({ ok: true, violations: 0 });
  });
});
