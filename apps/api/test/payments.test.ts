import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  MOVEMENT_CSV_COLUMNS,
  PAYMENT_MESSAGES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  csvDialectFor,
  limaDay,
  limaDayStart,
  parseCsv,
  type CashSession,
  type MovementCsvSource,
  type MovementRow,
} from '@tramo/domain';
import { shipmentBody } from './fixtures.ts';
import { startWithSandboxBilling, type SandboxBilling } from './sandbox-billing.ts';
import { engines, statusCounts, type TestContext } from './harness.ts';
import { startDemoServer, type DemoServer } from './support/demo-server.ts';

/** Lima → Arequipa at S/ 12.34 per billable kg: 1 kg 12.34, 2.5 kg (3) 37.02, 10 kg 123.40. */
const FACTOR = '12.34';
const DAY = 86_400_000;

describe.each(engines)('payments (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let agentArequipa: string;
  let courier: string;
  let lima: number;
  let arequipa: number;
  let billing: SandboxBilling;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ t, billing, close } = await startWithSandboxBilling(engine, 'payments-api', { factor: FACTOR }));
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
    [admin, agent, agentArequipa, courier] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1'), t.login('AGENTE2'), t.login('REPARTIDOR1')]);
  });
  afterAll(async () => {
    await close?.();
  });

  const scalar = async (query: ReturnType<typeof sql>) => Number(((await t.database.db.execute(query)).rows[0] as { n: unknown }).n);
  const userId = async (username: string) => scalar(sql`select id as n from users where username = ${username}`);

  /** A new Lima → Arequipa shipment (or the reverse, for Arequipa's agent); answers its id and code. */
  async function newShipment(token = agent, over: Record<string, unknown> = {}, from: 'lima' | 'arequipa' = 'lima') {
    const route = from === 'lima' ? { originBranchId: lima, destinationBranchId: arequipa } : { originBranchId: arequipa, destinationBranchId: lima };
    const res = await t.call('POST', '/api/shipments', { token, body: shipmentBody(route, over) });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json();
    return { id: s.id as number, code: s.code as string, price: s.quotedPrice as number };
  }

  const payBody = (shipmentId: number, over: Record<string, unknown> = {}) => ({
    shipmentId,
    customerName: 'María Flores Ccori',
    customerDocNumber: '45879612',
    amount: 37.02,
    currency: 'PEN',
    methodCode: 'cash',
    ...over,
  });
  const pay = (shipmentId: number, over: Record<string, unknown> = {}, token = agent) =>
    t.call('POST', '/api/payments/manual', { token, body: payBody(shipmentId, over) });

  it('lists the six methods with Spanish names; couriers get 403 everywhere', async () => {
    const res = await t.call('GET', '/api/payments/methods', { token: agent });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((m: { code: string }) => m.code)).toEqual(['cash', 'card_pos', 'bank_transfer', 'yape_qr', 'plin_qr', 'card_online']);
    for (const url of [
      '/api/payments/methods',
      '/api/payments/manual',
      '/api/payments/report/movements',
      '/api/receivables/customers',
      '/api/payments/cash-sessions/current',
    ]) {
      expect((await t.call('GET', url, { token: courier })).statusCode).toBe(403);
    }
    expect((await t.call('POST', '/api/payments/manual', { token: courier, body: payBody(1) })).statusCode).toBe(403);
  });

  it('takes a cash payment: pending → boleta 03 for the DNI → paid, in an auto-opened session, audited', async () => {
    const s = await newShipment();
    expect(s.price).toBe(37.02);
    const res = await pay(s.id);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, error: null, cashSessionOpened: true });
    expect(body.payment).toMatchObject({
      status: 'paid',
      statusLabel: 'Pagado',
      amount: 37.02,
      method_code: 'cash',
      methodName: 'Efectivo',
      shipmentCode: s.code,
    });
    expect(body.payment.documentNumber).toMatch(/^B/);
    expect(body.receipt).toMatchObject({ ok: true, status: 'aceptado' });
    expect(body.payment.pdfUrl).toBeTruthy();

    const doc = (await t.call('GET', `/api/billing/lookup/${body.payment.documentId}`, { token: agent })).json();
    expect(doc.type).toBe('03');
    expect(doc.lines[0].description).toBe(`Servicio de envío ${s.code}`);
    expect(doc.totals).toEqual({ gravada: 31.37, exonerada: 0, inafecta: 0, igv: 5.65, total: 37.02 });

    expect(await scalar(sql`select count(*) as n from audit_log where entity = 'payment' and entity_id = ${String(body.payment.id)}`)).toBe(2);
    expect(await scalar(sql`select count(*) as n from payment_movements where payment_id = ${body.payment.id} and kind = 'cobro'`)).toBe(1);
    const pills = (await t.call('GET', '/api/payments/receivables', { token: agent })).json();
    expect(pills.items.find((i: { id: number }) => i.id === s.id)).toMatchObject({ paid: true, pill: 'Pagado', paymentStatus: 'paid' });
  });

  it('issues a factura 01 for a RUC and requires the voucher id for non-cash methods', async () => {
    const s = await newShipment();
    const missing = await pay(s.id, { methodCode: 'yape_qr' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields.providerTxId).toBe(PAYMENT_MESSAGES.voucher);
    // A factura needs the customer's address (issue 32): the RUC lookup answers it from the registered customer.
    const customer = await t.call('POST', '/api/customers', {
      token: agent,
      body: { doc_type: 6, doc_number: '20100070970', firstName: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' },
    });
    expect(customer.statusCode).toBe(201);
    const res = await pay(s.id, {
      methodCode: 'yape_qr',
      providerTxId: 'YP-0091',
      customerDocNumber: '20100070970',
      customerName: 'SUPERMERCADOS PERUANOS S.A.',
    });
    expect(res.statusCode, res.body).toBe(201);
    const doc = (await t.call('GET', `/api/billing/lookup/${res.json().payment.documentId}`, { token: agent })).json();
    expect(doc.type).toBe('01');
  });

  it("refuses the modal's bad input with the spec's messages", async () => {
    const s = await newShipment();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ amount: 0 }, 'amount', 'Monto inválido'],
      [{ customerDocNumber: '123' }, 'customerDocNumber', 'El DNI debe tener 8 dígitos.'],
      [{ customerDocType: 6, customerDocNumber: '2010007097' }, 'customerDocNumber', 'El RUC debe tener 11 dígitos.'],
      [{ currency: 'USD' }, 'currency', 'Este modal solo soporta PEN.'],
      [{ customerName: ' ' }, 'customerName', PAYMENT_MESSAGES.name],
    ];
    for (const [over, field, message] of cases) {
      const res = await pay(s.id, over);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields[field]).toBe(message);
    }
    expect(await scalar(sql`select count(*) as n from payments where shipment_id = ${s.id}`)).toBe(0);
  });

  it('takes exactly what the shipment owes: 0.01 or 99999.99 for S/ 37.02 is a 422 naming the amount due, nothing stored', async () => {
    const s = await newShipment();
    for (const amount of ['0.01', '99999.99', '37.01', '37.03']) {
      const res = await pay(s.id, { amount });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ error: 'El monto debe ser S/ 37.02, lo que debe el envío.', code: 'AMOUNT_NOT_DUE' });
    }
    expect(await scalar(sql`select count(*) as n from payments where shipment_id = ${s.id}`)).toBe(0);
    expect((await pay(s.id, { amount: '37.020' })).statusCode).toBe(400);
    expect((await pay(s.id, { amount: 37.02 })).statusCode).toBe(201);
  });

  it("collects at the counter only today's (Lima) shipments still in 'Creado'", async () => {
    const yesterday = await newShipment();
    // Created at the end of yesterday in Lima: one minute before today's Lima midnight.
    await t.database.db.execute(
      sql`update shipments set created_at = ${new Date(limaDayStart(limaDay(t.clock.now())).getTime() - 60_000)} where id = ${yesterday.id}`,
    );
    const late = await pay(yesterday.id, { amount: yesterday.price });
    expect(late.statusCode, late.body).toBe(422);
    expect(late.json().error).toBe(PAYMENT_MESSAGES.shipmentNotToday);

    const moved = await newShipment();
    expect((await t.call('PATCH', `/api/shipments/${moved.id}/status`, { token: agent, body: { status: 'En tránsito' } })).statusCode).toBe(200);
    const inTransit = await pay(moved.id, { amount: moved.price });
    expect(inTransit.statusCode, inTransit.body).toBe(422);
    expect(inTransit.json().error).toBe(PAYMENT_MESSAGES.shipmentNotCreado);
    expect(await scalar(sql`select count(*) as n from payments where shipment_id in (${yesterday.id}, ${moved.id})`)).toBe(0);

    const today = await newShipment();
    expect((await pay(today.id, { amount: today.price })).statusCode).toBe(201);
  });

  it('of 50 concurrent payments for one shipment exactly one is taken (a database constraint)', async () => {
    const s = await newShipment();
    const results = await Promise.all(Array.from({ length: 50 }, () => pay(s.id)));
    expect(statusCounts(results.map((r) => r.statusCode))).toEqual({ 201: 1, 409: 49 });
    const refused = results.filter((r) => r.statusCode === 409).map((r) => r.json().error);
    expect(refused.every((e) => e === PAYMENT_MESSAGES.duplicatePaid || e === PAYMENT_MESSAGES.duplicatePending)).toBe(true);
    expect(await scalar(sql`select count(*) as n from payments where shipment_id = ${s.id}`)).toBe(1);
    expect(
      await scalar(
        sql`select count(*) as n from documents where idempotency_key like 'PAGO-%' and document->'lines'->0->>'description' like ${'%' + s.code}`,
      ),
    ).toBe(1);
    const again = await pay(s.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(PAYMENT_MESSAGES.duplicatePaid);
  });

  it('a receipt failure leaves the payment pending with the message; a retry completes it with one document', async () => {
    const s = await newShipment();
    billing.failures.emit.push('network');
    const res = await pay(s.id);
    expect(res.statusCode, res.body).toBe(202);
    const body = res.json();
    expect(body.ok).toBe(false);
    expect(body.error).toBeTruthy();
    expect(body.payment.status).toBe('pending');
    expect(body.payment.lastError).toBe(body.error);
    // A second payment for the shipment is refused while this one is pending.
    const second = await pay(s.id);
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toBe(PAYMENT_MESSAGES.duplicatePending);

    const retries = await Promise.all([1, 2, 3].map(() => t.call('POST', `/api/payments/manual/${body.payment.id}/confirm`, { token: agent })));
    for (const r of retries) expect(r.statusCode, r.body).toBe(201);
    const paid = retries[0]!.json().payment;
    expect(paid).toMatchObject({ status: 'paid', documentId: body.payment.documentId, lastError: null });
    expect(await scalar(sql`select count(*) as n from documents where idempotency_key like ${`PAGO-${body.payment.id}%`}`)).toBe(1);
    expect(await scalar(sql`select count(*) as n from payment_movements where payment_id = ${body.payment.id}`)).toBe(1);
    // Confirming a paid payment again answers it as it is.
    expect((await t.call('POST', `/api/payments/manual/${body.payment.id}/confirm`, { token: agent })).statusCode).toBe(201);
  });

  it("an admin of another branch retrying an agent's failed receipt finds it: still one document, the collecting branch's", async () => {
    const s = await newShipment();
    billing.failures.emit.push('network');
    const res = await pay(s.id);
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().payment.id;
    const moveAdmin = (branchId: number) =>
      t.call('PUT', '/api/users/1', { token: admin, body: { username: 'ADMIN', role: 'admin', branchId, firstName: 'Ana', lastName: 'Quispe' } });
    expect((await moveAdmin(arequipa)).statusCode).toBe(200);
    try {
      const retry = await t.call('POST', `/api/payments/manual/${id}/confirm`, { token: admin });
      expect(retry.statusCode, retry.body).toBe(201);
    } finally {
      expect((await moveAdmin(lima)).statusCode).toBe(200);
    }
    expect(await scalar(sql`select count(*) as n from documents where idempotency_key like ${`PAGO-${id}%`}`)).toBe(1);
    expect(await scalar(sql`select count(*) as n from documents where idempotency_key like ${`PAGO-${id}%`} and branch_id = ${lima}`)).toBe(1);
  });

  it('a rejected receipt is replaced by a new one on retry, still one live document', async () => {
    const s = await newShipment();
    billing.failures.emit.push('sunat-rejects');
    const res = await pay(s.id);
    expect(res.statusCode).toBe(202);
    const id = res.json().payment.id;
    const retry = await t.call('POST', `/api/payments/manual/${id}/confirm`, { token: agent });
    expect(retry.statusCode, retry.body).toBe(201);
    expect(await scalar(sql`select count(*) as n from documents where idempotency_key like ${`PAGO-${id}%`} and status = 'aceptado'`)).toBe(1);
  });

  it('voids a payment and its receipt once; a second void is refused; of 10 concurrent voids one is taken', async () => {
    const s = await newShipment();
    const p = (await pay(s.id)).json().payment;
    const res = await t.call('POST', `/api/payments/manual/${p.id}/cancel`, { token: agent, body: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'canceled', cancelReason: 'ERROR DEL SISTEMA' });
    const doc = (await t.call('GET', `/api/billing/lookup/${p.documentId}`, { token: agent })).json();
    expect(doc.status).toBe('anulado');
    const twice = await t.call('POST', `/api/payments/payments/${p.id}/cancel`, { token: agent, body: { motivo: 'otra vez' } });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe(PAYMENT_MESSAGES.alreadyCanceled);
    expect(await scalar(sql`select sum(amount_cents) as n from payment_movements where payment_id = ${p.id}`)).toBe(0);

    // The shipment can be paid again after the void.
    const p2 = (await pay(s.id)).json().payment;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t.call('POST', `/api/payments/payments/${p2.id}/cancel`, { token: agent, body: { motivo: 'Duplicado' } })),
    );
    expect(statusCounts(results.map((r) => r.statusCode))).toEqual({ 200: 1, 409: 9 });
    expect(await scalar(sql`select count(*) as n from payment_movements where payment_id = ${p2.id} and kind = 'anulacion'`)).toBe(1);
  });

  it('keeps a paid payment as it was when the provider refuses the void', async () => {
    const s = await newShipment();
    const p = (await pay(s.id)).json().payment;
    billing.refuseVoid.push(true);
    const res = await t.call('POST', `/api/payments/manual/${p.id}/cancel`, { token: agent, body: { motivo: 'x' } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.json().error).toBe(`${PAYMENT_MESSAGES.cancelFailed} SUNAT rechazó la comunicación de baja.`);
    expect((await t.call('GET', `/api/billing/lookup/${p.documentId}`, { token: agent })).json().status).toBe('aceptado');
    expect((await t.call('GET', `/api/payments/manual/${p.id}`, { token: agent })).json().status).toBe('paid');
    expect(await scalar(sql`select count(*) as n from payment_movements where payment_id = ${p.id} and kind = 'anulacion'`)).toBe(0);
  });

  describe('movements report', () => {
    let adminId: number;
    beforeAll(async () => {
      adminId = await userId('ADMIN');
      const a = await newShipment(admin);
      const b = await newShipment(admin);
      const c = await newShipment(admin);
      expect((await pay(a.id, { amount: '10.10', discount: '26.92', discountReason: 'Cortesía' }, admin)).statusCode).toBe(201);
      expect(
        (await pay(b.id, { amount: '20.20', discount: '16.82', discountReason: 'Cortesía', methodCode: 'yape_qr', providerTxId: 'YP-1' }, admin))
          .statusCode,
      ).toBe(201);
      const pc = (
        await pay(c.id, { amount: '30.30', discount: '6.72', discountReason: 'Cortesía', methodCode: 'card_pos', providerTxId: 'POS-1' }, admin)
      ).json().payment;
      expect((await t.call('POST', `/api/payments/manual/${pc.id}/cancel`, { token: admin, body: { motivo: 'Error' } })).statusCode).toBe(200);
    });
    const list = (query: string, token = admin) => t.call('GET', `/api/payments/report/movements?${query}`, { token });

    it('filters by user, method and status, pages, and totals the filtered set per method and status', async () => {
      const res = await list(`userId=${adminId}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      expect(page).toMatchObject({ total: 3, page: 1, pageSize: 20 });
      expect(page.items.map((i: { amount: number }) => i.amount)).toEqual([30.3, 20.2, 10.1]);
      expect(page.items[0]).toMatchObject({
        status: 'canceled',
        statusLabel: 'Anulado',
        methodCode: 'card_pos',
        branchName: 'Lima',
        collectedByUserId: adminId,
      });
      const byMethod = Object.fromEntries(
        page.totals.byMethod.map((m: { methodCode: string; count: number; amount: number }) => [m.methodCode, [m.count, m.amount]]),
      );
      expect(byMethod).toMatchObject({ cash: [1, 10.1], yape_qr: [1, 20.2], card_pos: [1, 30.3], plin_qr: [0, 0] });
      const byStatus = Object.fromEntries(
        page.totals.byStatus.map((s: { status: string; count: number; amount: number }) => [s.status, [s.count, s.amount]]),
      );
      expect(byStatus).toEqual({ pending: [0, 0], paid: [2, 30.3], canceled: [1, 30.3] });
      expect(page.totals.paid).toBe(30.3);

      const second = (await list(`userId=${adminId}&pageSize=2&page=2`)).json();
      expect(second.items.map((i: { amount: number }) => i.amount)).toEqual([10.1]);
      expect(second.total).toBe(3);
      expect((await list(`userId=${adminId}&status=canceled`)).json().total).toBe(1);
      expect((await list(`userId=${adminId}&method=yape_qr`)).json().items.map((i: { providerTxId: string }) => i.providerTxId)).toEqual(['YP-1']);
      expect((await list(`userId=${adminId}&branchId=${arequipa}`)).json().total).toBe(0);
      const today = page.items[0].date;
      expect((await list(`userId=${adminId}&dateFrom=2000-01-01&dateTo=2000-01-02`)).json().total).toBe(0);
      expect(today).toBeTruthy();
    });

    it("refuses 'from' after 'to' and a non-numeric user", async () => {
      const bad = await list('dateFrom=2026-05-10&dateTo=2026-05-01');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toBe('Rango de fechas inválido');
      expect((await list('userId=abc')).json().error).toBe(PAYMENT_MESSAGES.userId);
    });

    it("keeps an agent to their branch: another branch's filter is 403, the list leaks nothing", async () => {
      const own = await list('', agentArequipa);
      expect(own.statusCode).toBe(200);
      expect(own.json().items.every((i: { branchId: number }) => i.branchId === arequipa)).toBe(true);
      expect((await list(`userId=${adminId}`, agentArequipa)).json().total).toBe(0);
      expect((await list(`branchId=${lima}`, agentArequipa)).statusCode).toBe(403);
      expect((await t.call('GET', `/api/payments/report/movements.csv?branchId=${lima}`, { token: agentArequipa })).statusCode).toBe(403);
      const limaPayment = (await list(`userId=${adminId}`)).json().items[1].id;
      expect((await t.call('GET', `/api/payments/manual/${limaPayment}`, { token: agentArequipa })).statusCode).toBe(403);
      expect((await t.call('POST', `/api/payments/manual/${limaPayment}/cancel`, { token: agentArequipa, body: {} })).statusCode).toBe(403);
      expect((await t.call('POST', `/api/payments/manual/${limaPayment}/confirm`, { token: agentArequipa })).statusCode).toBe(403);
      const limaShipment = await newShipment(agent);
      expect((await pay(limaShipment.id, {}, agentArequipa)).statusCode).toBe(403);
      const daily = (await t.call('GET', '/api/payments/report/daily', { token: agentArequipa })).json();
      expect(daily.rows.every((r: { branchId: number }) => r.branchId === arequipa)).toBe(true);
      const toCollect = (await t.call('GET', '/api/payments/receivables', { token: agentArequipa })).json();
      expect(toCollect.items.every((i: { originBranchId: number }) => i.originBranchId === arequipa)).toBe(true);
    });

    it('exports the filtered set as CSV that parses back to the rows (both separators)', async () => {
      const page = (await list(`userId=${adminId}`)).json();
      for (const locale of ['es-PE', 'es-ES']) {
        const res = await t.call('GET', `/api/payments/report/movements.csv?userId=${adminId}&locale=${locale}`, { token: admin });
        expect(res.statusCode).toBe(200);
        expect(res.headers.get('content-type')).toContain('text/csv');
        expect(res.headers.get('content-disposition')).toContain('movimientos_filtrados.csv');
        const sep = locale === 'es-ES' ? ';' : ',';
        // fetch's text() drops the byte-order mark: read the first bytes themselves.
        const raw = new Uint8Array(
          await (
            await fetch(`${t.baseUrl}/api/payments/report/movements.csv?userId=${adminId}&locale=${locale}`, {
              headers: { authorization: `Bearer ${admin}` },
            })
          ).arrayBuffer(),
        );
        expect([...raw.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
        expect(res.body.startsWith(`sep=${sep}\r\n`)).toBe(true);
        const rows = parseCsv(res.body);
        expect(rows[0]).toEqual(MOVEMENT_CSV_COLUMNS.map((c) => c.header));
        const dialect = csvDialectFor(locale);
        const expected = page.items.map((i: MovementCsvSource) => MOVEMENT_CSV_COLUMNS.map((c) => String(c.cell(i, dialect.decimalMark) ?? '')));
        expect(rows.slice(1)).toEqual(expected);
      }
    });
  });

  it("takes an admin's discount with its reason: stored, audited, on the receipt; agents, no reason or the whole price refused", async () => {
    const s = await newShipment();
    const byAgent = await pay(s.id, { amount: '32.02', discount: '5', discountReason: 'Cliente frecuente' });
    expect(byAgent.statusCode, byAgent.body).toBe(403);
    expect(byAgent.json().error).toBe('Solo un administrador puede aplicar descuentos.');
    const noReason = await pay(s.id, { amount: '32.02', discount: '5' }, admin);
    expect(noReason.statusCode, noReason.body).toBe(400);
    expect(noReason.json().fields.discountReason).toBe(PAYMENT_MESSAGES.discountReason);
    for (const discount of ['37.02', '40']) {
      const whole = await pay(s.id, { amount: '0.01', discount, discountReason: 'Cortesía' }, admin);
      expect(whole.statusCode, whole.body).toBe(422);
      expect(whole.json().code).toBe('DISCOUNT_TOO_LARGE');
    }
    const notLess = await pay(s.id, { amount: '37.02', discount: '5', discountReason: 'Cliente frecuente' }, admin);
    expect(notLess.statusCode).toBe(422);
    expect(notLess.json().error).toBe('El monto debe ser S/ 32.02, lo que debe el envío menos el descuento.');
    expect(await scalar(sql`select count(*) as n from payments where shipment_id = ${s.id}`)).toBe(0);

    const res = await pay(s.id, { amount: '32.02', discount: '5', discountReason: 'Cliente frecuente' }, admin);
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json().payment;
    expect(p).toMatchObject({ amount: 32.02, discount: 5, discountReason: 'Cliente frecuente', status: 'paid' });
    expect((await t.call('GET', `/api/payments/manual/${p.id}`, { token: admin })).json()).toMatchObject({
      discount: 5,
      discountReason: 'Cliente frecuente',
    });
    const created = (
      await t.database.db.execute(sql`select after from audit_log where entity = 'payment' and entity_id = ${String(p.id)} and action = 'create'`)
    ).rows[0] as { after: Record<string, unknown> };
    expect(created.after).toMatchObject({ amountCents: 3202, discountCents: 500, discountReason: 'Cliente frecuente' });
    const doc = (await t.call('GET', `/api/billing/lookup/${p.documentId}`, { token: admin })).json();
    expect(doc.lines[0].description).toBe(`Servicio de envío ${s.code} (Descuento S/ 5.00: Cliente frecuente)`);
    expect(doc.totals.total).toBe(32.02);
    // And no way around it in the database: a negative discount, an unexplained one, a zero amount.
    for (const change of [sql`discount_cents = -1`, sql`discount_reason = null`, sql`amount_cents = 0`])
      await expect(t.database.db.execute(sql`update payments set ${change} where id = ${p.id}`)).rejects.toThrow();
  });

  it("writes a payer name that is a formula as text in the movements CSV (a leading ', OWASP), the amount still a number", async () => {
    const s = await newShipment();
    const evil = "=cmd|' /C calc'!A0";
    const paid = await pay(s.id, { amount: s.price, customerName: evil });
    expect(paid.statusCode, paid.body).toBe(201);
    const res = await t.call('GET', `/api/payments/report/movements.csv?userId=${await userId('AGENTE1')}&locale=es-PE`, { token: agent });
    expect(res.statusCode).toBe(200);
    const line = parseCsv(res.body).find((r) => r[11] === s.code)!;
    expect(line[8]).toBe(`'${evil}`);
    expect(line[9]).toBe(`'${evil}`);
    expect(line[5]).toBe(s.price.toFixed(2));
    expect(res.body).not.toContain(`,${evil}`);
  });

  it('streams a large export in batches (PostgreSQL cursor, embedded seek): every row, parsed back, equals the database', async () => {
    const n = engine === 'postgres' ? 100_000 : 20_000;
    const shipment = await newShipment();
    const bulkUser = 900_001;
    await t.database.db.execute(
      sql`insert into cash_sessions (user_id, user_name, branch_id, float_cents, closed_at) values (${bulkUser}, 'Carga masiva', ${lima}, 0, now())`,
    );
    await t.database.db.execute(sql`
      insert into payments (shipment_id, status, method, amount_cents, customer_doc_type, customer_doc_number, customer_name, branch_id, user_id, user_name, cash_session_id, provider_tx_id, created_at)
      select ${shipment.id}, 'canceled', (array['cash','card_pos','bank_transfer','yape_qr','plin_qr','card_online'])[1 + i % 6], 100 + i, 1, '45879612',
        case when i % 7 = 0 then 'Cliente "comillas", coma' else 'Cliente ' || i end, ${lima}, ${bulkUser}, 'Carga masiva',
        (select id from cash_sessions where user_id = ${bulkUser}), case when i % 5 = 0 then E'línea\\nnueva' else null end,
        now() - make_interval(secs => i / 3)
      from generate_series(1, ${n}) as i`);
    const res = await t.call('GET', `/api/payments/report/movements.csv?userId=${bulkUser}`, { token: admin });
    expect(res.statusCode).toBe(200);
    const rows = parseCsv(res.body).slice(1);
    expect(rows).toHaveLength(n);
    // Every row read back is its database row (amount 100 + i identifies it); each i exactly once, so
    // no batch boundary skipped or repeated a row, even among rows of the same instant.
    const seen = new Set<number>();
    for (const row of rows) {
      const i = Math.round(Number(row[5]) * 100) - 100;
      seen.add(i);
      expect(row[8]).toBe(i % 7 === 0 ? 'Cliente "comillas", coma' : `Cliente ${i}`);
      expect(row[15]).toBe(i % 5 === 0 ? 'línea nueva' : '');
      expect(row[3]).toBe(String(bulkUser));
      expect(row[7]).toBe('Anulado');
    }
    expect(seen.size).toBe(n);
    expect([...seen].every((i) => i >= 1 && i <= n)).toBe(true);
    const sum = rows.reduce((s, r) => s + Math.round(Number(r[5]) * 100), 0);
    expect(sum).toBe(await scalar(sql`select sum(amount_cents) as n from payments where user_id = ${bulkUser}`));
  });

  it('sums receivables per sender exactly to the céntimo (not Anulado, no paid payment)', async () => {
    const sender = { senderName: 'Receivables Prueba SAC' };
    const a = await newShipment(agent, { ...sender, lines: [{ productType: 'liviano', weightKg: 1 }] }); // 12.34
    const b = await newShipment(agent, { ...sender, lines: [{ productType: 'liviano', weightKg: 2.5 }] }); // 37.02, paid
    const c = await newShipment(agent, { ...sender, lines: [{ productType: 'liviano', weightKg: 10 }] }); // 123.40
    const d = await newShipment(agent, { ...sender, lines: [{ productType: 'liviano', weightKg: 1 }] }); // 12.34, Anulado
    const e = await newShipment(agent, { ...sender, lines: [{ productType: 'liviano', weightKg: 0.3 }] }); // 12.34, paid then voided: still open
    expect([a.price, b.price, c.price, d.price]).toEqual([12.34, 37.02, 123.4, 12.34]);
    expect((await pay(b.id, { amount: b.price })).statusCode).toBe(201);
    const pe = (await pay(e.id, { amount: e.price })).json().payment;
    expect((await t.call('POST', `/api/payments/manual/${pe.id}/cancel`, { token: agent, body: {} })).statusCode).toBe(200);
    expect((await t.call('DELETE', `/api/shipments/${d.id}`, { token: agent })).statusCode).toBe(200);

    const res = await t.call('GET', '/api/receivables/customers?q=receivables prueba', { token: agent });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toEqual([
      expect.objectContaining({ customer_name: 'Receivables Prueba SAC', shipments_count: 3, open_amount: 148.08, currency: 'PEN' }),
    ]);
    expect(res.json().totalOpen).toBe(148.08);
    const other = await t.call('GET', '/api/receivables/customers?q=receivables prueba', { token: agentArequipa });
    expect(other.json().items).toEqual([]);
  });

  it('closes a cash session: expected vs counted per method; a closed session refuses payments; a later void is an adjustment', async () => {
    const opened = await t.call('POST', '/api/payments/cash-sessions', { token: agentArequipa, body: { float: '50' } });
    expect(opened.statusCode, opened.body).toBe(201);
    const session = opened.json();
    expect(session).toMatchObject({ status: 'open', float: 50 });
    expect((await t.call('POST', '/api/payments/cash-sessions', { token: agentArequipa, body: { float: 0 } })).statusCode).toBe(409);

    const s1 = await newShipment(agentArequipa, {}, 'arequipa');
    const r1 = await pay(s1.id, { amount: s1.price }, agentArequipa);
    expect(r1.statusCode, r1.body).toBe(201);
    expect(r1.json()).toMatchObject({ cashSessionOpened: false, payment: { cashSessionId: session.id } });
    const s2 = await newShipment(agentArequipa, {}, 'arequipa');
    expect((await pay(s2.id, { amount: s2.price, methodCode: 'plin_qr', providerTxId: 'PL-7' }, agentArequipa)).statusCode).toBe(201);

    const current = (await t.call('GET', '/api/payments/cash-sessions/current', { token: agentArequipa })).json();
    expect(current.session.id).toBe(session.id);
    expect(current.session.closing.lines.find((l: { methodCode: string }) => l.methodCode === 'cash').expected).toBe(87.02);

    const closed = await t.call('POST', `/api/payments/cash-sessions/${session.id}/close`, {
      token: agentArequipa,
      body: {
        denominations: [
          { value: 50, quantity: 1 },
          { value: 20, quantity: 1 },
          { value: 10, quantity: 1 },
          { value: 5, quantity: 1 },
          { value: 2, quantity: 1 },
        ],
      },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    const closing = closed.json().closing;
    expect(closing.lines.find((l: { methodCode: string }) => l.methodCode === 'cash')).toMatchObject({
      expected: 87.02,
      counted: 87,
      difference: -0.02,
      count: 1,
    });
    expect(closing.lines.find((l: { methodCode: string }) => l.methodCode === 'plin_qr')).toMatchObject({
      expected: 37.02,
      counted: 37.02,
      difference: 0,
    });
    expect(closing.difference).toBe(-0.02);
    expect(
      (await t.call('POST', `/api/payments/cash-sessions/${session.id}/close`, { token: agentArequipa, body: { countedCash: 1 } })).statusCode,
    ).toBe(409);
    expect(await scalar(sql`select count(*) as n from audit_log where entity = 'cash_session' and entity_id = ${String(session.id)}`)).toBe(2);

    const s3 = await newShipment(agentArequipa, {}, 'arequipa');
    const refused = await pay(s3.id, { cashSessionId: session.id }, agentArequipa);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(PAYMENT_MESSAGES.sessionClosed);
    expect(await scalar(sql`select count(*) as n from payments where shipment_id = ${s3.id}`)).toBe(0);

    // The void of a payment of the closed session lands in the next session as an adjustment.
    const voided = await t.call('POST', `/api/payments/manual/${r1.json().payment.id}/cancel`, { token: agentArequipa, body: {} });
    expect(voided.statusCode).toBe(200);
    const next = (await t.call('GET', '/api/payments/cash-sessions/current', { token: agentArequipa })).json().session;
    expect(next.id).not.toBe(session.id);
    expect(next.movements).toEqual([expect.objectContaining({ kind: 'anulacion', amount: -37.02, adjustment: true })]);
    const after = (await t.call('GET', `/api/payments/cash-sessions?date=`, { token: admin })).json();
    expect(after.items.find((s: { id: number }) => s.id === session.id).closing.difference).toBe(-0.02);
  });

  it('answers the daily report per branch, user and method', async () => {
    const res = await t.call('GET', '/api/payments/report/daily', { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const sum = body.rows.reduce((s: number, r: { amount: number }) => s + Math.round(r.amount * 100), 0);
    expect(Math.round(body.total * 100)).toBe(sum);
    expect(await scalar(sql`select coalesce(sum(amount_cents), 0) as n from payments where status = 'paid'`)).toBe(sum);
  });

  it('looks customers up for the modal', async () => {
    const res = await t.call('GET', '/api/payments/customers-lookup?q=a', { token: agent });
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json())).toBe(true);
    expect((await t.call('GET', '/api/payments/customers/999999', { token: agent })).statusCode).toBe(404);
  });
});

/**
 * `npm start` on an empty database in demo mode (the real server process, on each engine): 60 days
 * of payments in every method and status, in closed cash sessions, with receivables left open and
 * today's Creado shipments still to collect.
 */
describe.each(engines)('demo start has payments (%s)', (engine) => {
  let server: DemoServer;
  let admin: string;

  const get = async (url: string, token = admin) => {
    const res = await server.get(url, token);
    expect(res.status, url).toBe(200);
    return res.body;
  };
  const login = (username: string, password: string) => server.login(username, password);

  beforeAll(async () => {
    server = await startDemoServer(engine, 'payments');
    admin = await login('ADMIN', 'admin123');
  });
  afterAll(() => server?.close());

  it('in every method and status over 60 days, in closed sessions (two with a difference), none with a receipt it does not have', async () => {
    const all: MovementRow[] = [];
    // Past page 1 by cursor: page numbers stop at the first 1000 rows.
    let after: string | null = null;
    for (let page = 1; ; page++) {
      const answer = await get(`/api/payments/report/movements?pageSize=100&page=${page}${after ? `&after=${after}` : ''}`);
      after = answer.next;
      all.push(...answer.items);
      if (page === 1) {
        expect(answer.total).toBeGreaterThanOrEqual(100);
        for (const m of answer.totals.byMethod) expect(m.count, m.methodCode).toBeGreaterThan(0);
        for (const s of answer.totals.byStatus) expect(s.count, s.status).toBeGreaterThan(0);
      }
      if (all.length >= answer.total) break;
    }
    expect(new Set(all.map((m) => m.methodCode))).toEqual(new Set(PAYMENT_METHODS));
    expect(new Set(all.map((m) => m.status))).toEqual(new Set(PAYMENT_STATUSES));
    const days = all.map((m) => limaDay(new Date(m.date))).sort();
    expect(days[0]! >= limaDay(new Date(Date.now() - 61 * DAY))).toBe(true);
    expect(days[0]! <= limaDay(new Date(Date.now() - 40 * DAY))).toBe(true);
    expect(days.at(-1)! <= limaDay(new Date())).toBe(true);
    expect(new Set(all.map((m) => m.branchName)).size).toBeGreaterThanOrEqual(2);
    // Every non-cash payment carries its voucher. Every paid one has its receipt (issue 31: no money
    // without a boleta or factura); one left pending has none (its receipt failed).
    expect(all.filter((m) => m.methodCode !== 'cash').every((m) => m.providerTxId)).toBe(true);
    expect(all.filter((m) => m.status === 'paid').every((m) => /^(BBB1|FFF1)-\d{8}$/.test(m.reference ?? ''))).toBe(true);
    expect(all.filter((m) => m.status === 'pending').every((m) => m.reference === null)).toBe(true);
    const pending = all.find((m) => m.status === 'pending')!;
    const detail = await get(`/api/payments/manual/${pending.id}`);
    expect(detail).toMatchObject({ status: 'pending', documentId: null, pdfUrl: null });
    expect(detail.lastError).toBeTruthy();
    const canceled = await get(`/api/payments/manual/${all.find((m) => m.status === 'canceled')!.id}`);
    expect(canceled.canceledAt).not.toBeNull();
    expect(canceled.cancelReason).toBeTruthy();

    // Each day's sessions are closed and their ledger adds up: only two drawers differ, one short, one over.
    const differences: number[] = [];
    for (let d = 0; d <= 14; d++) {
      const day = limaDay(new Date(Date.now() - d * DAY));
      const sessions = (await get(`/api/payments/cash-sessions?date=${day}`)).items as CashSession[];
      for (const s of sessions) {
        expect(s.status).toBe('closed');
        if (s.closing.difference !== 0) differences.push(s.closing.difference);
        expect(s.closing.lines.filter((l) => l.methodCode !== 'cash').every((l) => l.difference === 0)).toBe(true);
      }
    }
    expect(differences.sort()).toEqual([-2.5, 1]);
  });

  it("leaves today's Creado shipments to collect, senders with open balances, and no session open for the agents", async () => {
    const toCollect = await get('/api/payments/receivables?pageSize=200');
    expect(toCollect.items.every((s: { paid: boolean; paymentId: number | null }) => !s.paid && s.paymentId === null)).toBe(true);
    const receivables = await get('/api/receivables/customers');
    expect(receivables.total).toBeGreaterThanOrEqual(3);
    expect(receivables.items.some((r: { customer_doc: string | null }) => r.customer_doc?.startsWith('20'))).toBe(true);
    for (const username of ['AGENTE1', 'AGENTE2']) {
      const token = await login(username, 'agente123');
      expect((await get('/api/payments/cash-sessions/current', token)).session).toBeNull();
    }
    // So an agent opens today's own.
    const token = await login('AGENTE1', 'agente123');
    const opened = await fetch(`${server.url}/api/payments/cash-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ float: 100 }),
    });
    expect(opened.status).toBe(201);
  });
});
