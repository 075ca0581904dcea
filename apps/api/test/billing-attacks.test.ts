import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { BILLING_MESSAGES, limaDay } from '@tramo/domain';
import { registerErrorHandling } from '../src/plugins/errors.ts';
import { shipmentBody } from './fixtures.ts';
import { sandboxBilling, startWithSandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/** The billing findings of the outside attack (issues 30 and 31), each replayed over HTTP. */

const today = limaDay(new Date());

const boleta = (over: Record<string, unknown> = {}) => ({
  type: '03',
  serie: 'BBB1',
  issueDate: today,
  items: [{ description: 'Servicio de transporte', unit: 'ZZ', quantity: 1, unitValue: '100', igvType: '10' }],
  customer: { doc_type: 1, doc_number: '45879612', name: 'María Flores Ccori' },
  ...over,
});

describe.each(engines)('billing attacks (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let agentArequipa: string;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ t, close } = await startWithSandboxBilling(engine, 'billing-attacks', { factor: '150' }));
    [admin, agent, agentArequipa] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1'), t.login('AGENTE2')]);
  });
  afterAll(async () => {
    await close?.();
  });

  const emit = (body: unknown, token = agent) => t.call('POST', '/api/billing/create-emit', { token, body });
  const count = async (query: ReturnType<typeof sql>) => Number(((await t.database.db.execute(query)).rows[0] as { n: unknown }).n);

  it('F5: a blank codigo_unico is no key: two emissions with " " are both issued, no 500', async () => {
    const first = await emit(boleta({ serie: 'B501', extras: { codigo_unico: ' ' } }));
    const second = await emit(boleta({ serie: 'B501', extras: { codigo_unico: ' ' } }));
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.json().id).not.toBe(first.json().id);
    const receipt = { amount: '11.80', customer: { doc_type: 1, doc_number: '45879612', name: 'María Flores' }, codigo_unico: ' ' };
    const receipts = [
      await t.call('POST', '/api/billing/emit', { token: agent, body: receipt }),
      await t.call('POST', '/api/billing/emit', { token: agent, body: receipt }),
    ];
    expect(receipts.map((r) => r.statusCode)).toEqual([201, 201]);
    // And the next emission still works: nothing blank was stored to collide with.
    expect((await emit(boleta({ serie: 'B501' }))).statusCode).toBe(201);
    expect(await count(sql`select count(*) as n from documents where idempotency_key is not null and btrim(idempotency_key) = ''`)).toBe(0);
  });

  it("F6: an Arequipa agent reusing a Lima agent's key gets a document of their own", async () => {
    const body = boleta({ serie: 'B601', extras: { codigo_unico: 'caja-0001' } });
    const lima = await emit(body, agent);
    const arequipa = await emit(body, agentArequipa);
    expect([lima.statusCode, arequipa.statusCode]).toEqual([201, 201]);
    expect(arequipa.json().id).not.toBe(lima.json().id);
    expect(arequipa.json().numero).toBe(lima.json().numero + 1);
    const detail = (await t.call('GET', `/api/billing/lookup/${arequipa.json().id}`, { token: agentArequipa })).json();
    expect(detail.branchName).toBe('Arequipa');
    // Each branch's retry still answers its own document.
    expect((await emit(body, agentArequipa)).json().id).toBe(arequipa.json().id);
    expect((await emit(body, agent)).json().id).toBe(lima.json().id);
  });

  it('F6: the same key with another payload is refused (409) and tells nothing of the first document', async () => {
    const first = await emit(boleta({ serie: 'B602', extras: { codigo_unico: 'caja-0002' } }));
    expect(first.statusCode).toBe(201);
    const other = boleta({
      serie: 'B602',
      extras: { codigo_unico: 'caja-0002' },
      customer: { doc_type: 1, doc_number: '70606878', name: 'Juan Pérez' },
    });
    const res = await emit(other);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: BILLING_MESSAGES.idempotencyKeyReused, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(res.body).not.toContain('B602');
    expect(res.body).not.toContain(String(first.json().id));
    expect(await count(sql`select count(*) as n from documents where series = 'B602'`)).toBe(1);
  });

  /** A Lima → Arequipa shipment paid at the counter: the payment and its receipt (a boleta). */
  async function paidShipment() {
    const route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! };
    const shipment = await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route) });
    expect(shipment.statusCode, shipment.body).toBe(201);
    const s = shipment.json();
    const res = await t.call('POST', '/api/payments/manual', {
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
    expect(res.statusCode, res.body).toBe(201);
    const payment = res.json().payment as { id: number; documentId: number; status: string };
    expect(payment.status).toBe('paid');
    return payment;
  }
  const documentStatus = async (id: number) => (await t.call('GET', `/api/billing/lookup/${id}`, { token: admin })).json().status;
  const paymentStatus = async (id: number) => (await t.call('GET', `/api/payments/manual/${id}`, { token: admin })).json().status;

  it("F7: a paid payment's receipt is not voided on its own through billing (409); the payment stays whole", async () => {
    const payment = await paidShipment();
    for (const token of [agent, admin]) {
      const res = await t.call('POST', '/api/billing/void', { token, body: { id: payment.documentId, motivo: 'Anulación directa' } });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ error: BILLING_MESSAGES.receiptOfPayment, code: 'RECEIPT_OF_PAYMENT' });
    }
    expect(await documentStatus(payment.documentId)).toBe('aceptado');
    expect(await paymentStatus(payment.id)).toBe('paid');
    // Voided from Payments (the payment first, then its receipt), it goes as it always did.
    const cancel = await t.call('POST', `/api/payments/manual/${payment.id}/cancel`, { token: agent, body: { motivo: 'Error de cobro' } });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await paymentStatus(payment.id)).toBe('canceled');
    expect(await documentStatus(payment.documentId)).toBe('anulado');
  });

  it("F7: the database refuses to start voiding a live payment's receipt, and the API answers that as the same 409", async () => {
    const payment = await paidShipment();
    const startVoid = (status: string) => sql`update documents set status = ${status} where id = ${payment.documentId}`;
    for (const status of ['anulación pendiente', 'anulado']) {
      await expect(t.database.db.execute(startVoid(status))).rejects.toSatisfy((err: unknown) => {
        const cause = (err as { cause?: { code?: string; message?: string } }).cause ?? (err as { code?: string; message?: string });
        return cause.code === 'TR409' && (cause.message ?? '').startsWith('tramo.receipt_of_live_payment:');
      });
    }
    // A request that raced past the service's check meets the trigger: the error handler answers it.
    const app = Fastify();
    registerErrorHandling(app);
    app.post('/void', async () => t.database.db.execute(startVoid('anulación pendiente')));
    const res = await app.inject({ method: 'POST', url: '/void' });
    await app.close();
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: BILLING_MESSAGES.receiptOfPayment, code: 'RECEIPT_OF_PAYMENT' });
    expect(await documentStatus(payment.documentId)).toBe('aceptado');
  });

  it('a receipt, its payment and their audit are never deleted, in SQL either: DELETE and TRUNCATE are refused (migration 0117)', async () => {
    const payment = await paidShipment();
    const refusedAsKept = (err: unknown) => {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause ?? (err as { code?: string; message?: string });
      return cause.code === 'TR409' && (cause.message ?? '').startsWith('tramo.kept_row_deleted:');
    };
    const attempts = [
      sql`delete from documents where id = ${payment.documentId}`,
      sql`delete from payments where id = ${payment.id}`,
      sql`delete from audit_log where entity = 'payment' and entity_id = ${String(payment.id)}`,
      sql`truncate documents cascade`,
      sql`truncate payments cascade`,
      sql`truncate audit_log`,
    ];
    const kept = sql`select (select count(*) from documents where id = ${payment.documentId}) + (select count(*) from payments where id = ${payment.id})
      + (select count(*) from audit_log where entity = 'payment' and entity_id = ${String(payment.id)}) as n`;
    const before = await count(kept);
    expect(before).toBeGreaterThanOrEqual(4); // the receipt, the payment, its creation and its confirmation
    for (const attempt of attempts) await expect(t.database.db.execute(attempt)).rejects.toSatisfy(refusedAsKept);
    // A delete that matches nothing is no error (the guard is per row), and nothing was removed.
    await t.database.db.execute(sql`delete from documents where id = -1`);
    expect(await count(kept)).toBe(before);
    expect(await paymentStatus(payment.id)).toBe('paid');
    expect(await documentStatus(payment.documentId)).toBe('aceptado');
  });
});

/** A boleta SUNAT has not accepted yet (not in a daily summary) is voided the same day through the summary (estado 3). */
describe.each(engines)('void of a pending boleta (%s)', (engine) => {
  const BOLETA_DELAY_MS = 60_000;
  let t: TestContext;
  let agent: string;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;

  beforeAll(async () => {
    billing = await sandboxBilling('billing-pending-void', { boletaDelayMs: BOLETA_DELAY_MS });
    t = await startTestApp(engine, { providers: { billing: billing.provider } });
    billing.followClock(t.clock.now);
    agent = await t.login('AGENTE1');
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  it("is accepted as 'anulación pendiente' and read 'anulado' once the summary is answered", async () => {
    const issued = await t.call('POST', '/api/billing/create-emit', { token: agent, body: boleta({ serie: 'B701' }) });
    expect(issued.statusCode, issued.body).toBe(201);
    expect(issued.json().status).toBe('pendiente');
    const id = issued.json().id as number;

    const res = await t.call('POST', '/api/billing/void', { token: agent, body: { id, motivo: 'Error en el nombre del cliente' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, status: 'anulación pendiente' });
    const again = await t.call('POST', '/api/billing/void', { token: agent, body: { id, motivo: 'Otra vez' } });
    expect(again.statusCode).toBe(409);
    expect((await t.call('GET', `/api/billing/void-status/${id}`, { token: agent })).json().status).toBe('anulación pendiente');

    t.clock.advance(BOLETA_DELAY_MS);
    expect((await t.call('GET', `/api/billing/void-status/${id}`, { token: agent })).json().status).toBe('anulado');
    const detail = (await t.call('GET', `/api/billing/lookup/${id}`, { token: agent })).json();
    expect(detail.status).toBe('anulado');
    const kinds = detail.history.map((h: { kind: string }) => h.kind);
    expect(kinds.slice(0, 3)).toEqual(['emitido', 'consultado', 'anulación solicitada']);
    expect(kinds.at(-1)).toBe('anulado');
    const summary = detail.providerExchanges.find((e: { operation: string }) => e.operation === 'void');
    // The resumen diario RC-<day>-<n> carries it voided; SUNAT's ticket is a number of its own (issue #32).
    expect(summary.answer).toMatchObject({
      sunat_ticket_numero: expect.stringMatching(/^\d{15}$/),
      resumen: expect.stringMatching(/^RC-\d{8}-\d+$/),
      estado_en_resumen: '3',
    });
    expect(detail.voidSummary).toMatchObject({ kind: 'RC', id: summary.answer.resumen });
  });

  it('still refuses a pending factura: it is voided once SUNAT accepted it', async () => {
    billing.failures.emit.push('timeout');
    const issued = await t.call('POST', '/api/billing/create-emit', {
      token: agent,
      body: {
        type: '01',
        serie: 'F701',
        issueDate: today,
        items: [{ description: 'Servicio de transporte de carga', unit: 'ZZ', quantity: 1, unitValue: '50', igvType: '10' }],
        customer: { doc_type: 6, doc_number: '20100070970', name: 'SUPERMERCADOS PERUANOS S.A.', address: 'Lima' },
      },
    });
    expect(issued.json().status).toBe('pendiente');
    const res = await t.call('POST', '/api/billing/void', { token: agent, body: { id: issued.json().id, motivo: 'Error' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe(BILLING_MESSAGES.notAccepted);
  });
});
