import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/** Lima → Arequipa at S/ 12.34 per billable kg: 2.5 kg (3) is S/ 37.02. */
const FACTOR = '12.34';

/**
 * Issue 33 in the money views: Movimientos (branch that sold, branch that collected), Cuentas por
 * cobrar and the Panel ('Por cobrar en destino'), Mi caja (destino collections apart), a return
 * before the destination collected, and the guard on voiding a collected destino payment.
 */
describe.each(engines)('who pays in the money views (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agentLima: string;
  let agentArequipa: string;
  let lima: number;
  let arequipa: number;
  let plateSeq = 700;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;

  beforeAll(async () => {
    billing = await sandboxBilling('who-pays-reports');
    t = await startTestApp(engine, {
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, FACTOR]] }),
      providers: { billing: billing.provider },
    });
    billing.followClock(t.clock.now);
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
    [admin, agentLima, agentArequipa] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1'), t.login('AGENTE2')]);
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  const rows = async (query: ReturnType<typeof sql>) => (await t.database.db.execute(query)).rows as Record<string, unknown>[];
  const get = async (url: string, token: string) => {
    const res = await t.call('GET', url, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const destino = async (senderName: string) => {
    const res = await t.call('POST', '/api/shipments', {
      token: agentLima,
      body: shipmentBody({ originBranchId: lima, destinationBranchId: arequipa }, { senderName, payer: 'destinatario', paymentMoment: 'destino' }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; code: string };
  };
  const pay = (shipmentId: number, token = agentArequipa) =>
    t.call('POST', '/api/payments/manual', {
      token,
      body: { shipmentId, customerName: 'María Flores Ccori', customerDocNumber: '45879612', amount: 37.02, currency: 'PEN', methodCode: 'cash' },
    });
  const driver = async () => {
    const dni = String(41_000_000 + plateSeq++);
    const res = await t.call('POST', '/api/drivers', { token: admin, body: { full_name: `Conductor ${dni}`, dni, license_number: `Q${dni}` } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const travel = async (shipmentIds: number[], { arrive } = { arrive: true }) => {
    const tr = await t.call('POST', '/api/transports', {
      token: admin,
      body: {
        plate_primary: `REP-${plateSeq++}`,
        plate_secondary: `REQ-${plateSeq++}`,
        driver_id_1: await driver(),
        driver_id_2: await driver(),
        capacity_kg: 100,
        origin_branch_id: lima,
        destination_branch_id: arequipa,
      },
    });
    expect(tr.statusCode, tr.body).toBe(201);
    const id = tr.json().id as number;
    expect((await t.call('POST', `/api/transports/${id}/assignments`, { token: agentLima, body: { shipmentIds } })).statusCode).toBeLessThan(300);
    expect((await t.call('POST', `/api/transports/${id}/departure`, { token: agentLima, body: {} })).statusCode).toBeLessThan(300);
    if (arrive) expect((await t.call('POST', `/api/transports/${id}/arrival`, { token: agentArequipa, body: {} })).statusCode).toBeLessThan(300);
  };
  const deliver = (id: number) =>
    t.call('POST', `/api/shipments/${id}/deliver`, {
      token: agentArequipa,
      body: { secretCode: 'clave-7', receiverName: 'María Flores Ccori', receiverDoc: '45879612', deliveredByName: 'Rosa Quispe' },
    });

  let collected: { shipmentId: number; paymentId: number };

  it("shows 'por cobrar en destino' per destination branch and on the Panel, never as the sender's debt", async () => {
    const waiting = await destino('Textiles Sur Destino SAC');
    const registered = await destino('Textiles Sur Destino SAC');
    await travel([waiting.id]);

    const branches = await get('/api/receivables/destination-branches', agentArequipa);
    expect(branches).toEqual({
      items: [{ branchId: arequipa, branchName: 'Arequipa', shipmentsCount: 2, openAmount: 74.04, waitingCount: 1, waitingAmount: 37.02 }],
      shipmentsCount: 2,
      totalOpen: 74.04,
    });
    // Lima's agent sees Lima as destination only; the admin every branch.
    expect((await get('/api/receivables/destination-branches', agentLima)).items).toEqual([]);
    expect((await get('/api/receivables/destination-branches', admin)).totalOpen).toBe(74.04);
    // The sender owes none of it.
    const senders = await get('/api/receivables/customers?q=Textiles%20Sur%20Destino', admin);
    expect(senders.items).toEqual([]);

    // The Panel counts what /pagos lists to collect there: En agencia (1) and En tránsito, not the one still at Lima.
    expect(await get('/api/dashboard/destination-due', agentArequipa)).toEqual({ branchName: 'Arequipa', count: 1, amount: 37.02, waitingCount: 1 });
    expect(await get('/api/dashboard/destination-due', agentLima)).toMatchObject({ branchName: 'Lima', count: 0, amount: 0 });
    const courier = await t.call('GET', '/api/dashboard/destination-due', { token: await t.login('REPARTIDOR1') });
    expect(courier.statusCode).toBe(403);

    const res = await pay(waiting.id);
    expect(res.statusCode, res.body).toBe(201);
    collected = { shipmentId: waiting.id, paymentId: res.json().payment.id as number };
    expect((await get('/api/receivables/destination-branches', agentArequipa)).items[0]).toMatchObject({ shipmentsCount: 1, waitingCount: 0 });
    expect(await get('/api/dashboard/destination-due', agentArequipa)).toMatchObject({ count: 0, amount: 0 });
    expect(registered.id).toBeGreaterThan(0);
  });

  it('lists the branch that sold beside the branch that collected in Movimientos, with a filter for each', async () => {
    const page = await get('/api/payments/report/movements', agentArequipa);
    const row = (page.items as Record<string, unknown>[]).find((r) => r.id === collected.paymentId);
    expect(row).toMatchObject({ branchId: arequipa, branchName: 'Arequipa', soldBranchId: lima, soldBranchName: 'Lima', paymentMoment: 'destino' });

    const soldInLima = await get(`/api/payments/report/movements?soldBranchId=${lima}`, admin);
    expect(soldInLima.items.map((r: { id: number }) => r.id)).toContain(collected.paymentId);
    expect(soldInLima.totals.count).toBe(soldInLima.total);
    expect(soldInLima.totals.paid).toBe(37.02);
    const soldInArequipa = await get(`/api/payments/report/movements?soldBranchId=${arequipa}`, admin);
    expect(soldInArequipa).toMatchObject({ total: 0, items: [] });
    const collectedInLima = await get(`/api/payments/report/movements?branchId=${lima}&soldBranchId=${lima}`, admin);
    expect(collectedInLima.total).toBe(0);
    const bad = await t.call('GET', '/api/payments/report/movements?soldBranchId=abc', { token: admin });
    expect(bad.statusCode).toBe(400);

    // The CSV keeps its 16 columns: its 'Sucursal' is the branch that collected.
    const csv = await t.call('GET', `/api/payments/report/movements.csv?soldBranchId=${lima}`, { token: admin });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.split('\r\n').filter(Boolean);
    expect(lines[1]!.split(',')).toHaveLength(16);
    expect(lines).toHaveLength(3);
  });

  it("shows the session's destino collections apart in Mi caja and Cierres del día", async () => {
    const mine = await get('/api/payments/cash-sessions/current', agentArequipa);
    expect(mine.session.destination).toEqual({ count: 1, amount: 37.02 });
    expect(mine.session.movements).toEqual([expect.objectContaining({ paymentId: collected.paymentId, kind: 'cobro', destino: true })]);
    const day = await get('/api/payments/cash-sessions', admin);
    const arequipaSession = (day.items as { branchId: number; destination: unknown }[]).find((s) => s.branchId === arequipa);
    expect(arequipaSession?.destination).toEqual({ count: 1, amount: 37.02 });
  });

  it('refuses voiding a collected destino payment once the parcel was delivered, in the service and in the database', async () => {
    expect((await deliver(collected.shipmentId)).statusCode).toBe(200);
    const refused = await t.call('POST', `/api/payments/manual/${collected.paymentId}/cancel`, { token: agentArequipa, body: { motivo: 'Error' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      error: 'El envío ya se entregó: un pago en destino cobrado no se anula.',
      code: 'DESTINATION_PAID_DELIVERED',
    });
    await expect(rows(sql`update payments set status = 'canceled' where id = ${collected.paymentId}`)).rejects.toSatisfy((err: unknown) => {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause ?? (err as { code?: string; message?: string });
      return cause.code === 'TR409' && (cause.message ?? '').startsWith('tramo.void_of_delivered_destination_payment:');
    });
    const [payment] = await rows(sql`select status from payments where id = ${collected.paymentId}`);
    expect(payment!.status).toBe('paid');
    const moves = await rows(sql`select count(*)::int as n from payment_movements where payment_id = ${collected.paymentId}`);
    expect(moves[0]!.n).toBe(1);
  });

  it('makes a shipment returned before its destination collected the sender’s to pay at origin; the return leg charges S/ 0.00', async () => {
    const s = await destino('Ferretería Retorno EIRL');
    await travel([s.id]);
    const res = await t.call('POST', `/api/shipments/${s.id}/return`, {
      token: agentArequipa,
      body: { reason: 'Destinatario ausente', secretCode: 'clave-8' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { original, returnShipment } = res.json();
    expect(original).toMatchObject({ status: 'Devuelto', payer: 'remitente', paymentMoment: 'origen' });
    expect(returnShipment).toMatchObject({ quotedPrice: 0, payer: 'remitente', paymentMoment: 'origen' });
    const [audit] = await rows(
      sql`select before, after from audit_log where entity = 'shipment' and entity_id = ${String(s.id)} and action = 'who-pays'`,
    );
    expect(audit).toMatchObject({
      before: { payer: 'destinatario', paymentMoment: 'destino' },
      after: { payer: 'remitente', paymentMoment: 'origen' },
    });
    // Arequipa no longer waits for it; the sender owes it at Lima.
    const dest = await get('/api/payments/receivables/destination', agentArequipa);
    expect(dest.items.map((i: { id: number }) => i.id)).not.toContain(s.id);
    const senders = await get('/api/receivables/customers?q=Ferretería%20Retorno', agentLima);
    expect(senders.items).toEqual([expect.objectContaining({ customer_name: 'Ferretería Retorno EIRL', shipments_count: 1, open_amount: 37.02 })]);
    expect((await pay(s.id)).statusCode).toBe(403);
  });

  it("shows on a page of Movimientos each row's transport, drivers, sender and receipt as the tables hold them", async () => {
    // A shipment paid at Lima and then loaded on a transport with two drivers, still on the road.
    const shipment = await t.call('POST', '/api/shipments', {
      token: agentLima,
      body: shipmentBody({ originBranchId: lima, destinationBranchId: arequipa }, { senderName: 'Textiles Sur Origen SAC' }),
    });
    expect(shipment.statusCode, shipment.body).toBe(201);
    const paid = await pay(shipment.json().id, agentLima);
    expect(paid.statusCode, paid.body).toBe(201);
    await travel([shipment.json().id], { arrive: false });
    // A page looks its rows' columns up one by one (the CSV joins them, issue 37): every one equals the tables' own.
    const truth = await rows(sql`
      select p.id, b.name as "branchName", sb.name as "soldBranchName", c.doc_number as "senderDoc", t.plate_primary as "platePrimary",
        t.plate_secondary as "plateSecondary", d1.full_name as "driver1Name", d2.full_name as "driver2Name",
        doc.series || '-' || lpad(doc.number::text, 8, '0') as reference
      from payments p join shipments s on s.id = p.shipment_id
      left join branches b on b.id = p.branch_id left join branches sb on sb.id = s.origin_branch_id
      left join customers c on c.id = s.sender_customer_id
      left join transport_assignments ta on ta.shipment_id = s.id left join transports t on t.id = ta.transport_id
      left join drivers d1 on d1.id = t.driver_id_1 left join drivers d2 on d2.id = t.driver_id_2
      left join documents doc on doc.id = p.document_id
      order by p.created_at desc, p.id desc`);
    const all = await get('/api/payments/report/movements?pageSize=100', admin);
    const looked = (all.items as Record<string, unknown>[]).map((r) => ({
      id: r.id,
      ...Object.fromEntries(
        Object.keys(truth[0]!)
          .filter((k) => k !== 'id')
          .map((k) => [k, r[k]]),
      ),
    }));
    expect(looked).toEqual(truth);
    expect(looked.find((r) => r.id === paid.json().payment.id)).toMatchObject({
      platePrimary: expect.stringMatching(/^REP-/),
      driver2Name: expect.any(String),
      reference: expect.stringMatching(/^BBB1-\d{8}$/),
    });
  });

  it('leaves the ledger checks at zero', async () => {
    const res = await t.call('GET', '/api/reconciliation', { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const failing = (res.json().checks as { check: string; count: number }[]).filter((c) => c.count > 0);
    expect(failing).toEqual([]);
  });
});
