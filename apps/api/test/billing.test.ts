import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { BILLING_MESSAGES, limaDay } from '@tramo/domain';

/** The test clock starts at the real now: documents are issued today in Lima. */
const today = limaDay(new Date());
import { DEMO_ISSUER } from '../src/providers/billing/index.ts';
import { shipmentBody } from './fixtures.ts';
import { startWithSandboxBilling, type SandboxBilling } from './sandbox-billing.ts';
import { engines, type TestContext } from './harness.ts';
import { startDemoServer, type DemoServer } from './support/demo-server.ts';

/** A boleta for a DNI customer: one taxed line of S/ 118.00 (100 + 18 IGV). */
const boleta = (over: Record<string, unknown> = {}) => ({
  type: '03',
  serie: 'BBB1',
  issueDate: today,
  items: [{ description: 'Servicio de transporte', unit: 'ZZ', quantity: 1, unitValue: '100', igvType: '10' }],
  customer: { doc_type: 1, doc_number: '45879612', name: 'María Flores Ccori' },
  ...over,
});

const factura = (over: Record<string, unknown> = {}) => ({
  type: '01',
  serie: 'FFF1',
  issueDate: today,
  items: [{ description: 'Servicio de transporte de carga', unit: 'ZZ', quantity: 2, unitValue: '50.50', igvType: '10' }],
  customer: { doc_type: 6, doc_number: '20100070970', name: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' },
  ...over,
});

describe.each(engines)('billing documents (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let agentArequipa: string;
  let courier: string;
  let billing: SandboxBilling;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ t, billing, close } = await startWithSandboxBilling(engine, 'billing-api', { factor: '150' }));
    [admin, agent, agentArequipa, courier] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1'), t.login('AGENTE2'), t.login('REPARTIDOR1')]);
  });
  afterAll(async () => {
    await close?.();
  });

  const scalar = async (query: ReturnType<typeof sql>) => Number(((await t.database.db.execute(query)).rows[0] as { n: unknown }).n);
  const emit = (body: unknown, token = agent) => t.call('POST', '/api/billing/create-emit', { token, body });

  it('issues a boleta: numbered, accepted, its totals to the céntimo, its XML signed, its PDF rendered', async () => {
    const res = await emit(boleta());
    expect(res.statusCode).toBe(201);
    const result = res.json();
    expect(result).toMatchObject({ ok: true, error: null, serie: 'BBB1', status: 'aceptado' });
    expect(result.numero).toBeGreaterThan(0);

    const detail = (await t.call('GET', `/api/billing/lookup/${result.id}`, { token: agent })).json();
    expect(detail.totals).toEqual({ gravada: 100, exonerada: 0, inafecta: 0, igv: 18, total: 118 });
    expect(detail.amountInWords).toBe('SON: CIENTO DIECIOCHO CON 00/100 SOLES');
    expect(detail.branchName).toBe('Lima');
    expect(detail.issuedByName).toBe('Luis Ramírez');
    expect(detail.history.map((h: { kind: string }) => h.kind)).toEqual(['emitido', 'aceptado']);
    expect(detail.qrText.split('|').slice(0, 4)).toEqual([DEMO_ISSUER.ruc, '03', 'BBB1', String(result.numero).padStart(6, '0')]);

    const xml = await t.call('GET', `/api/billing/documents/${result.id}/xml`, { token: agent });
    expect(xml.statusCode).toBe(200);
    // The signature itself is verified in billing-provider.test.ts; here: the document stored is the signed one.
    expect(xml.body).toContain('<ds:SignatureValue>');
    expect(xml.body).toContain(`<cbc:ID>BBB1-${result.numero}</cbc:ID>`);

    for (const format of ['a4', 'ticket']) {
      const pdf = await t.call('GET', `/api/billing/documents/${result.id}/pdf?format=${format}`, { token: agent });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.body.startsWith('%PDF')).toBe(true);
    }
  });

  it('refuses a payload that breaks the rules with the problems under "Corrige:", taking no number', async () => {
    const before = await scalar(sql`select coalesce(max(last_number), 0) as n from document_series where series = 'FFF1'`);
    const res = await emit(factura({ customer: { doc_type: 1, doc_number: '45879612', name: 'María' }, items: [] }));
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.ok).toBe(false);
    expect(body.error.startsWith('Corrige:')).toBe(true);
    expect(body.problems.length).toBeGreaterThanOrEqual(2);
    expect(await scalar(sql`select coalesce(max(last_number), 0) as n from document_series where series = 'FFF1'`)).toBe(before);
    expect(await scalar(sql`select count(*) as n from documents where series = 'FFF1' and customer_doc_number = '45879612'`)).toBe(0);
  });

  it('numbers 100 concurrent emissions on one series 1..100: no gap, no duplicate', async () => {
    const results = await Promise.all(Array.from({ length: 100 }, () => emit(factura({ serie: 'F100' }))));
    expect(results.map((r) => r.statusCode).every((s) => s === 201)).toBe(true);
    const numbers = results.map((r) => r.json().numero as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(await scalar(sql`select count(distinct number) as n from documents where series = 'F100'`)).toBe(100);
  });

  it('answers the same document for the same codigo_unico, even sent at once', async () => {
    const body = factura({ serie: 'F200', extras: { codigo_unico: 'caja1-000042' } });
    const results = await Promise.all(Array.from({ length: 5 }, () => emit(body)));
    const ids = new Set(results.map((r) => r.json().id));
    expect(ids.size).toBe(1);
    expect(await scalar(sql`select count(*) as n from documents where series = 'F200'`)).toBe(1);
    expect(await scalar(sql`select last_number as n from document_series where series = 'F200'`)).toBe(1);
  });

  it('keeps a document whose provider timed out pending with its number; a consult completes it without a new one', async () => {
    billing.failures.emit.push('timeout');
    const res = await emit(factura({ serie: 'F300' }));
    expect(res.statusCode).toBe(202);
    const result = res.json();
    expect(result).toMatchObject({ serie: 'F300', numero: 1, status: 'pendiente', error: BILLING_MESSAGES.providerPending });

    const detail = (await t.call('GET', `/api/billing/lookup/${result.id}`, { token: agent })).json();
    expect(detail.status).toBe('aceptado');
    expect(detail.number).toBe(1);
    expect(detail.history.map((h: { kind: string }) => h.kind)).toContain('error');
    expect(await scalar(sql`select count(*) as n from documents where series = 'F300'`)).toBe(1);
    expect(await scalar(sql`select last_number as n from document_series where series = 'F300'`)).toBe(1);
    // The next emission on the series takes 2: the timed-out one kept 1.
    expect((await emit(factura({ serie: 'F300' }))).json().numero).toBe(2);
  });

  it('a lost answer (the provider got it, we did not hear) is found by the consult, never sent as a second number', async () => {
    billing.failures.emit.push('lost-answer' as never);
    const res = await emit(factura({ serie: 'F301' }));
    expect([201, 202]).toContain(res.statusCode);
    const detail = (await t.call('GET', `/api/billing/lookup/${res.json().id}`, { token: agent })).json();
    expect(detail.status).toBe('aceptado');
    expect(await scalar(sql`select count(*) as n from documents where series = 'F301'`)).toBe(1);
  });

  it('voids an accepted document once; a second void is refused; the void status reads voided', async () => {
    const id = (await emit(factura({ serie: 'F400' }))).json().id;
    const noReason = await t.call('POST', '/api/billing/void', { token: agent, body: { id, motivo: '  ' } });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error).toBe(BILLING_MESSAGES.voidReason);

    const first = await t.call('POST', '/api/billing/void', { token: agent, body: { id, motivo: 'ERROR DEL SISTEMA' } });
    expect(first.statusCode).toBe(200);
    expect(['anulado', 'anulación pendiente']).toContain(first.json().status);
    const status = (await t.call('GET', `/api/billing/void-status/${id}`, { token: agent })).json();
    expect(status.status).toBe('anulado');

    const second = await t.call('POST', '/api/billing/void', { token: agent, body: { id, motivo: 'ERROR DEL SISTEMA' } });
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toBe(BILLING_MESSAGES.alreadyVoided);
    expect(await scalar(sql`select count(*) as n from document_events where document_id = ${id} and kind = 'anulación solicitada'`)).toBe(1);
  });

  it('of 10 concurrent voids of one document exactly one is taken', async () => {
    const id = (await emit(factura({ serie: 'F401' }))).json().id;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t.call('POST', '/api/billing/void', { token: agent, body: { id, motivo: 'Duplicado' } })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(9);
  });

  describe('billing shipments', () => {
    let customerId: number;
    let shipmentIds: number[];

    beforeAll(async () => {
      const customer = await t.call('POST', '/api/customers', {
        token: agent,
        body: { doc_type: 6, doc_number: '20100070970', firstName: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' },
      });
      expect(customer.statusCode).toBe(201);
      customerId = customer.json().id;
      const route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! };
      shipmentIds = [];
      for (let i = 0; i < 4; i++) {
        const s = await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route, { senderCustomerId: customerId }) });
        expect(s.statusCode).toBe(201);
        shipmentIds.push(s.json().id);
      }
    });

    const billBody = (ids: number[]) =>
      factura({
        customerId,
        customer: null,
        shipmentIds: ids,
        items: ids.map((id) => ({ description: `Servicio de transporte de carga ${id}`, unit: 'ZZ', quantity: 1, unitValue: '10', igvType: '10' })),
      });

    it("lists a sender's unbilled shipments, bills two, and refuses them on a second document", async () => {
      const unbilled = (await t.call('GET', `/api/billing/unbilled-shipments?customerId=${customerId}`, { token: agent })).json();
      expect(unbilled.map((s: { id: number }) => s.id)).toEqual(shipmentIds);
      expect(unbilled[0].originName).toBe('Lima');

      const billed = await emit(billBody(shipmentIds.slice(0, 2)));
      expect(billed.statusCode).toBe(201);
      const detail = (await t.call('GET', `/api/billing/lookup/${billed.json().id}`, { token: agent })).json();
      expect(detail.shipmentIds).toEqual(shipmentIds.slice(0, 2));
      // The shipment's detail page lists the documents it is on.
      const onShipment = (await t.call('GET', `/api/billing/documents?shipmentId=${shipmentIds[1]}`, { token: agent })).json();
      expect(onShipment.items.map((d: { id: number }) => d.id)).toEqual([billed.json().id]);
      const notBilled = (await t.call('GET', `/api/billing/documents?shipmentId=${shipmentIds[3]}`, { token: agent })).json();
      expect(notBilled.total).toBe(0);

      const again = await emit(billBody([shipmentIds[1]!]));
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toContain('ya está en el comprobante');
      const left = (await t.call('GET', `/api/billing/unbilled-shipments?customerId=${customerId}`, { token: agent })).json();
      expect(left.map((s: { id: number }) => s.id)).toEqual(shipmentIds.slice(2));

      // Voiding the document frees its shipments.
      await t.call('POST', '/api/billing/void', { token: agent, body: { id: billed.json().id, motivo: 'Error en el monto' } });
      await t.call('GET', `/api/billing/void-status/${billed.json().id}`, { token: agent });
      const freed = (await t.call('GET', `/api/billing/unbilled-shipments?customerId=${customerId}`, { token: agent })).json();
      expect(freed.map((s: { id: number }) => s.id)).toEqual(shipmentIds);
    });

    it('of 20 concurrent documents for one shipment exactly one bills it (a database constraint)', async () => {
      const id = shipmentIds[3]!;
      const results = await Promise.all(Array.from({ length: 20 }, () => emit(billBody([id]))));
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
      expect(results.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
      expect(await scalar(sql`select count(*) as n from document_shipments where shipment_id = ${id} and live`)).toBe(1);
      // Refused emissions took no number: the series has exactly as many numbers as documents.
      expect(await scalar(sql`select last_number as n from document_series where series = 'FFF1'`)).toBe(
        await scalar(sql`select count(*) as n from documents where series = 'FFF1'`),
      );
    });
  });

  it('lists the register with filters and the totals of the filtered set (voided excluded)', async () => {
    const page = (await t.call('GET', '/api/billing/documents?series=F400&pageSize=10', { token: admin })).json();
    expect(page.total).toBe(1);
    expect(page.items[0].status).toBe('anulado');
    expect(page.sums.total).toBe(0);
    const f100 = (
      await t.call('GET', `/api/billing/documents?series=F100&dateFrom=${today}&dateTo=${today}&pageSize=5&page=2`, { token: admin })
    ).json();
    expect(f100.total).toBe(100);
    expect(f100.items).toHaveLength(5);
    expect(f100.sums.total).toBe(11918); // 100 × 119.18
    const byCustomer = (await t.call('GET', '/api/billing/documents?customer=flores&type=03', { token: admin })).json();
    expect(byCustomer.items.every((d: { customerName: string }) => d.customerName.includes('Flores'))).toBe(true);
  });

  it('keeps documents to admins and agents, and an agent to their branch', async () => {
    const id = (await emit(boleta())).json().id;
    expect((await t.call('GET', `/api/billing/lookup/${id}`, { token: agentArequipa })).statusCode).toBe(403);
    expect((await t.call('POST', '/api/billing/void', { token: agentArequipa, body: { id, motivo: 'x' } })).statusCode).toBe(403);
    expect((await t.call('GET', `/api/billing/documents/${id}/pdf`, { token: agentArequipa })).statusCode).toBe(403);
    expect((await t.call('GET', `/api/billing/lookup/${id}`, { token: admin })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/billing/documents', { token: agentArequipa })).json().total).toBe(0);
    expect((await emit(boleta(), courier)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/billing/documents', { token: courier })).statusCode).toBe(403);
    expect((await t.call('GET', '/api/billing/documents')).statusCode).toBe(401);
  });

  it('issues a payment receipt: boleta for a DNI, factura for a RUC, netting the amount over 1.18', async () => {
    const res = await t.call('POST', '/api/billing/emit', {
      token: agent,
      body: { amount: '25.50', customer: { doc_type: 1, doc_number: '45879612', name: 'María Flores' }, shipmentCode: 'TMT-000123' },
    });
    expect(res.statusCode).toBe(201);
    const detail = (await t.call('GET', `/api/billing/lookup/${res.json().id}`, { token: agent })).json();
    expect(detail.type).toBe('03');
    expect(detail.totals.total).toBe(25.5);
    expect(detail.totals.igv).toBe(3.89);
    const ruc = await t.call('POST', '/api/billing/emit', {
      token: agent,
      body: { amount: 59, customer: { doc_type: 6, doc_number: '20100070970', name: 'SUPERMERCADOS PERUANOS S.A.', address: 'Lima' } },
    });
    expect(ruc.json().serie).toBe('FFF1');
  });
});

/**
 * `npm start` on an empty database in demo mode (the real server process, on each engine): the
 * register already holds the demo comprobantes, issued through the service and the sandbox.
 */
describe.each(engines)('demo start issues demo documents (%s)', (engine) => {
  let server: DemoServer;
  let admin: string;
  const get = (url: string, token = admin) => server.get(url, token);
  const login = (username: string, password: string) => server.login(username, password);

  beforeAll(async () => {
    server = await startDemoServer(engine, 'documents');
    admin = await login('ADMIN', 'admin123');
  });
  afterAll(() => server?.close());

  it('has ~15 documents over the last 30 days: boletas, facturas billing corporate shipments, a credit note, one voided, one pending', async () => {
    expect(server.output()).toMatch(/Comprobantes de demostración emitidos: \d+/);
    // The register also holds the demo payments' receipts (issue 31), numbered first: the register's own are the rest.
    type Row = { id: number; type: string; status: string; issueDate: string; customerDocType: string; branchName: string; fullNumber: string };
    const all: Row[] = [];
    let total = 0;
    for (let page = 1; all.length < total || page === 1; page++) {
      const body = (await get(`/api/billing/documents?pageSize=100&page=${page}`)).body;
      total = body.total;
      all.push(...body.items);
      if (body.items.length === 0) break;
    }
    const receipts = new Set<string>();
    let after: string | null = null;
    for (let page = 1; ; page++) {
      const body: { items: { reference: string | null }[]; next: string | null; total: number } = (
        await get(`/api/payments/report/movements?pageSize=100&page=${page}${after ? `&after=${after}` : ''}`)
      ).body;
      for (const m of body.items) if (m.reference) receipts.add(m.reference);
      after = body.next;
      if (!after && body.items.length < 100) break;
      if (page * 100 >= body.total) break;
    }
    expect(receipts.size).toBeGreaterThan(100);
    // Read by id: pages of one register listing (same date, same order key) may repeat a row at their seam.
    const unique = [...new Map(all.map((d) => [d.id, d])).values()];
    expect(unique).toHaveLength(total);
    // A payment's receipt is a boleta or factura; a credit note may share its series and number (its own counter).
    const isReceipt = (d: Row) => d.type !== '07' && receipts.has(d.fullNumber);
    const items = unique.filter((d) => !isReceipt(d));
    expect(unique.length - items.length).toBe(receipts.size);
    expect(items.length).toBeGreaterThanOrEqual(12);
    expect(items.length).toBeLessThanOrEqual(20);
    const ofType = (type: string) => items.filter((d) => d.type === type).length;
    expect(ofType('03')).toBeGreaterThanOrEqual(4);
    expect(ofType('01')).toBeGreaterThanOrEqual(4);
    expect(ofType('07')).toBe(1);
    expect(items.filter((d) => d.status === 'anulado')).toHaveLength(1);
    expect(items.filter((d) => d.status === 'pendiente')).toHaveLength(1);
    expect(items.filter((d) => d.status === 'aceptado')).toHaveLength(items.length - 2);
    // Spread over the last 30 days (Lima), never in the future, not contingency; but for the demo's
    // overdue credit factura (issue 35: Distribuidora Muchik's, 50 days old), a factura al crédito.
    const today = limaDay(new Date());
    const monthAgo = limaDay(new Date(Date.now() - 30 * 86_400_000));
    expect(items.every((d) => d.issueDate <= today)).toBe(true);
    const older = items.filter((d) => d.issueDate < monthAgo);
    expect(older.map((d) => d.type)).toEqual(['01']);
    expect(new Set(items.map((d) => d.issueDate)).size).toBeGreaterThanOrEqual(10);
    expect(new Set(items.map((d) => d.branchName)).size).toBeGreaterThanOrEqual(2);

    // Facturas of corporate senders linked to their shipments (document_shipments).
    const details = await Promise.all(items.map(async (d) => (await get(`/api/billing/lookup/${d.id}`)).body));
    const billing = details.filter((d) => d.shipmentCodes.length > 0);
    expect(billing.length).toBeGreaterThanOrEqual(3);
    expect(billing.every((d) => d.type === '01' && d.customerDocType === '6' && d.customerId !== null)).toBe(true);
    expect(billing.some((d) => d.detraction?.code === '027')).toBe(true);
    // The voided one freed its shipments: they are back among the customer's unbilled ones.
    const voided = details.find((d) => d.status === 'anulado');
    expect(voided.history.map((h: { kind: string }) => h.kind)).toEqual(expect.arrayContaining(['emitido', 'anulación solicitada', 'anulado']));
    if (voided.shipmentCodes.length > 0) {
      const unbilled = (await get(`/api/billing/unbilled-shipments?customerId=${voided.customerId}`)).body as { code: string }[];
      expect(unbilled.map((s) => s.code)).toEqual(expect.arrayContaining(voided.shipmentCodes));
    }
    // The credit note modifies one of them; documents carry their signed XML and print.
    const note = details.find((d) => d.type === '07');
    expect(details.some((d) => d.type === '01' && d.fullNumber === note.modifies)).toBe(true);
    // The oldest boleta, accepted later (daily summary): its history says so, dated weeks ago, not at start.
    const accepted = details.findLast((d) => d.type === '03' && d.status === 'aceptado');
    expect(accepted.history.map((h: { kind: string }) => h.kind)).toContain('aceptado');
    expect(accepted.history[0].at < new Date(Date.now() - 14 * 86_400_000).toISOString()).toBe(true);
    expect((await get(`/api/billing/documents/${accepted.id}/xml`)).status).toBe(200);
    expect((await get(`/api/billing/documents/${accepted.id}/pdf?format=ticket`)).status).toBe(200);

    // An agent sees their branch's.
    const agent = await login('AGENTE2', 'agente123');
    const mine = (await get('/api/billing/documents?pageSize=100', agent)).body;
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.items.every((d: { branchName: string }) => d.branchName === 'Arequipa')).toBe(true);
  });

  it('issues them once: a restart on the same data finds the register as it was', async () => {
    const before = (await get('/api/billing/documents?pageSize=1')).body.total;
    await server.restart();
    admin = await login('ADMIN', 'admin123');
    expect(server.output()).not.toMatch(/Comprobantes de demostración/);
    expect((await get('/api/billing/documents?pageSize=1')).body.total).toBe(before);
  });
});
