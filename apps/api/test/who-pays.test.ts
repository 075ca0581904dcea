import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, statusCounts, type TestContext } from './harness.ts';

/** Lima → Arequipa at S/ 12.34 per billable kg: 2.5 kg (3) is S/ 37.02. */
const FACTOR = '12.34';

/** Issue 33: who pays and where — pago en destino collected by the destination branch, delivery waiting for it. */
describe.each(engines)('who pays (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agentLima: string;
  let agentArequipa: string;
  let lima: number;
  let arequipa: number;
  let plateSeq = 300;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;

  beforeAll(async () => {
    billing = await sandboxBilling('who-pays-api');
    t = await startTestApp(engine, {
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa', 'Cusco'], { liviano: [[1, 1000, FACTOR]] }),
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
  const scalar = async (query: ReturnType<typeof sql>) => Number((await rows(query))[0]!.n);

  const create = (over: Record<string, unknown> = {}, token = agentLima, destinationBranchId = arequipa) =>
    t.call('POST', '/api/shipments', { token, body: shipmentBody({ originBranchId: lima, destinationBranchId }, over) });
  const paidAtDestination = async () => {
    const res = await create({ payer: 'destinatario', paymentMoment: 'destino' });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; code: string; quotedPrice: number };
  };
  const pay = (shipmentId: number, token: string, over: Record<string, unknown> = {}) =>
    t.call('POST', '/api/payments/manual', {
      token,
      body: {
        shipmentId,
        customerName: 'María Flores Ccori',
        customerDocNumber: '45879612',
        amount: 37.02,
        currency: 'PEN',
        methodCode: 'cash',
        ...over,
      },
    });
  const deliver = (id: number, token = agentArequipa) =>
    t.call('POST', `/api/shipments/${id}/deliver`, {
      token,
      body: { secretCode: 'clave-7', receiverName: 'María Flores Ccori', receiverDoc: '45879612', deliveredByName: 'Rosa Quispe' },
    });
  /** Loads the shipments on a new Lima → Arequipa transport, departs it from Lima and arrives it at Arequipa. */
  const travel = async (shipmentIds: number[]) => {
    const tr = await t.call('POST', '/api/transports', {
      token: admin,
      body: { plate_primary: `WHO-${plateSeq++}`, capacity_kg: 100, origin_branch_id: lima, destination_branch_id: arequipa },
    });
    expect(tr.statusCode, tr.body).toBe(201);
    const id = tr.json().id as number;
    const loaded = await t.call('POST', `/api/transports/${id}/assignments`, { token: agentLima, body: { shipmentIds } });
    expect(loaded.statusCode, loaded.body).toBeLessThan(300);
    return {
      depart: async () =>
        expect((await t.call('POST', `/api/transports/${id}/departure`, { token: agentLima, body: {} })).statusCode).toBeLessThan(300),
      arrive: async () =>
        expect((await t.call('POST', `/api/transports/${id}/arrival`, { token: agentArequipa, body: {} })).statusCode).toBeLessThan(300),
    };
  };

  it("keeps the spec's payload meaning what it meant: the sender pays at origin", async () => {
    const res = await create();
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ payer: 'remitente', paymentMoment: 'origen', payerDocNumber: null, payerName: null });
    const detail = (await t.call('GET', `/api/shipments/${res.json().id}`, { token: admin })).json();
    expect(detail).toMatchObject({ payer: 'remitente', paymentMoment: 'origen' });
  });

  it('refuses in Spanish what the rules do not allow, and stores nothing', async () => {
    const before = await scalar(sql`select count(*) as n from shipments`);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ payer: 'remitente', paymentMoment: 'destino' }, 422, 'en destino paga el destinatario o un tercero'],
      [{ payer: 'destinatario', paymentMoment: 'credito' }, 422, 'cuenta de crédito'],
      [{ payer: 'tercero', paymentMoment: 'origen' }, 422, 'documento y el nombre del tercero'],
      [{ payer: 'quien', paymentMoment: 'origen' }, 400, 'Indica quién paga'],
      [{ payer: 'destinatario', paymentMoment: 'luego' }, 400, 'Indica cuándo se paga'],
      [{ payer: 'tercero', payerDocNumber: '123', payerName: 'X' }, 400, 'Documento del tercero inválido'],
      [{ payerDocType: 4 }, 400, 'Tipo de documento inválido'],
    ];
    for (const [over, status, message] of cases) {
      const res = await create(over);
      expect(res.statusCode, JSON.stringify(over)).toBe(status);
      expect(res.json().error + JSON.stringify(res.json().fields ?? {})).toContain(message);
    }
    expect(await scalar(sql`select count(*) as n from shipments`)).toBe(before);
  });

  it("applies the company's rules: maximum freight, weight limit and routes that refuse pago en destino", async () => {
    const cusco = t.branchIds.get('Cusco')!;
    const save = (body: Record<string, unknown>, token = admin) => t.call('PUT', '/api/settings/who-pays', { token, body });
    expect((await t.call('GET', '/api/settings/who-pays', { token: agentLima })).json()).toEqual({
      maxDestinationFreight: 500,
      originOnlyAboveKg: null,
      routes: [],
      branchMethods: [],
    });
    expect((await save({ maxDestinationFreight: 30, originOnlyAboveKg: null }, agentLima)).statusCode).toBe(403);
    const bad = await save({ maxDestinationFreight: -1, originOnlyAboveKg: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('Flete máximo inválido');

    const saved = await save({
      maxDestinationFreight: 30,
      originOnlyAboveKg: 20,
      routes: [{ originBranchId: lima, destinationBranchId: cusco, destinationAllowed: false }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await scalar(sql`select count(*) as n from audit_log where entity = 'who_pays_rules'`)).toBe(1);
    const destino = { payer: 'destinatario', paymentMoment: 'destino' };
    const overMax = await create(destino);
    expect(overMax.statusCode).toBe(422);
    expect(overMax.json().error).toBe('El pago en destino admite fletes de hasta S/ 30.00.');
    const route = await create({ ...destino, lines: [{ productType: 'liviano', weightKg: 1 }] }, agentLima, cusco);
    expect(route.json().error).toBe('Esta ruta no admite pago en destino.');

    await save({ maxDestinationFreight: 500, originOnlyAboveKg: 20 });
    const heavy = await create({ ...destino, lines: [{ productType: 'liviano', weightKg: 25 }] });
    expect(heavy.json().error).toBe('Los envíos de más de 20 kg se pagan en origen.');
    await save({ maxDestinationFreight: 500, originOnlyAboveKg: null });
  });

  it('Lima registers pago en destino → departs → arrives; Arequipa cannot deliver unpaid, collects with her boleta, then delivers', async () => {
    const s = await paidAtDestination();
    expect(s).toMatchObject({ payer: 'destinatario', paymentMoment: 'destino', quotedPrice: 37.02 });

    // The origin issues no receipt for it.
    const atOrigin = await pay(s.id, agentLima);
    expect(atOrigin.statusCode).toBe(403);
    expect(atOrigin.json().error).toBe('Este envío se paga en destino: lo cobra la sucursal de destino.');

    const trip = await travel([s.id]);
    await trip.depart();
    const early = await pay(s.id, agentArequipa);
    expect(early.statusCode).toBe(422);
    expect(early.json().error).toBe('El pago en destino se cobra cuando el envío llega a la agencia.');
    await trip.arrive();

    const unpaid = await deliver(s.id);
    expect(unpaid.statusCode).toBe(422);
    expect(unpaid.json()).toMatchObject({ error: 'Cobra el flete antes de entregar: S/ 37.02 por cobrar.', code: 'FREIGHT_UNPAID' });
    expect((await rows(sql`select status from shipments where id = ${s.id}`))[0]!.status).toBe('En agencia');

    // The Lima agent still cannot collect it at arrival.
    expect((await pay(s.id, agentLima)).statusCode).toBe(403);

    const collected = await pay(s.id, agentArequipa);
    expect(collected.statusCode, collected.body).toBe(201);
    const payment = collected.json().payment;
    expect(payment).toMatchObject({ status: 'paid', branchId: arequipa });
    const [doc] = await rows(
      sql`select d.branch_id, d.type, d.series, d.customer_doc_number, p.cash_session_id, cs.user_id, u.username
          from payments p join documents d on d.id = p.document_id join cash_sessions cs on cs.id = p.cash_session_id join users u on u.id = cs.user_id
          where p.id = ${payment.id}`,
    );
    // Issued by Arequipa (the branch's own register), a boleta to the person who paid, in AGENTE2's session.
    expect(doc).toMatchObject({ branch_id: arequipa, type: '03', username: 'AGENTE2', customer_doc_number: '45879612' });

    const delivered = await deliver(s.id);
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(delivered.json().status).toBe('Entregado');
  });

  it('takes exactly one of 20 parallel collections', async () => {
    const s = await paidAtDestination();
    const trip = await travel([s.id]);
    await trip.depart();
    await trip.arrive();
    const answers = await Promise.all(Array.from({ length: 20 }, () => pay(s.id, agentArequipa)));
    const codes = statusCounts(answers.map((a) => a.statusCode));
    expect(codes[201]).toBe(1);
    expect(codes[409]).toBe(19);
    expect(await scalar(sql`select count(*) as n from payments where shipment_id = ${s.id}`)).toBe(1);
    expect(
      await scalar(sql`select count(*) as n from payment_movements m join payments p on p.id = m.payment_id where p.shipment_id = ${s.id}`),
    ).toBe(1);
  });

  it('changes who pays until the parcel is loaded, audited; the destination refuses a method its counter does not take', async () => {
    const created = await create();
    const id = created.json().id as number;
    const change = (body: Record<string, unknown>, token = agentLima) => t.call('PUT', `/api/shipments/${id}/who-pays`, { token, body });
    const third = await change({ payer: 'tercero', paymentMoment: 'destino', payerDocNumber: '20123456786', payerName: 'Importaciones Sur SAC' });
    expect(third.statusCode, third.body).toBe(200);
    expect(third.json()).toMatchObject({ payer: 'tercero', paymentMoment: 'destino', payerDocType: 6, payerDocNumber: '20123456786' });
    expect((await change({ payer: 'destinatario', paymentMoment: 'destino' }, agentArequipa)).statusCode).toBe(403);
    const [audit] = await rows(
      sql`select before, after from audit_log where entity = 'shipment' and entity_id = ${String(id)} and action = 'who-pays'`,
    );
    expect(audit).toMatchObject({ before: { payer: 'remitente', paymentMoment: 'origen' }, after: { payer: 'tercero', paymentMoment: 'destino' } });

    await travel([id]);
    const locked = await change({ payer: 'remitente', paymentMoment: 'origen' });
    expect(locked.statusCode).toBe(409);
    expect(locked.json().error).toBe('El envío ya se cargó: quién paga y cuándo ya no cambian.');

    // Arequipa's counter takes only cash and Yape from here on.
    const rules = await t.call('PUT', '/api/settings/who-pays', {
      token: admin,
      body: { maxDestinationFreight: 500, originOnlyAboveKg: null, branchMethods: [{ branchId: arequipa, methods: ['cash', 'yape_qr'] }] },
    });
    expect(rules.statusCode, rules.body).toBe(200);
    await rows(sql`update shipments set status = 'En agencia' where id = ${id}`);
    const card = await pay(id, agentArequipa, {
      methodCode: 'card_pos',
      providerTxId: 'POS-1',
      customerDocNumber: '20123456786',
      customerName: 'Importaciones Sur SAC',
    });
    expect(card.statusCode).toBe(422);
    expect(card.json().error).toBe('Esta sucursal no acepta el medio de pago Tarjeta (POS).');
    // The methods are kept per process (the reference cache); an operator's SQL reaches it at its commit, not a minute later.
    await rows(sql`update who_pays_branch_methods set methods = array['cash', 'yape_qr', 'card_pos'] where branch_id = ${arequipa}`);
    let refused = true;
    for (let i = 0; i < 40 && refused; i++) {
      const again = await pay(id, agentArequipa, {
        methodCode: 'card_pos',
        providerTxId: 'POS-1',
        customerDocNumber: '20123456786',
        customerName: 'Importaciones Sur SAC',
      });
      refused = again.json().error === 'Esta sucursal no acepta el medio de pago Tarjeta (POS).';
      if (refused) await new Promise((r) => setTimeout(r, 50));
    }
    expect(refused).toBe(false);
    await t.call('PUT', '/api/settings/who-pays', { token: admin, body: { maxDestinationFreight: 500, originOnlyAboveKg: null } });
  });

  it('leaves the ledger checks at zero', async () => {
    const res = await t.call('GET', '/api/reconciliation', { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const failing = (res.json().checks as { check: string; count: number }[]).filter((c) => c.count > 0);
    expect(failing).toEqual([]);
  });
});
