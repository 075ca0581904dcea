import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { addDays, COLLECTION_MESSAGES, CREDIT_NOTE_MESSAGES, limaDay } from '@tramo/domain';
import { registerErrorHandling } from '../src/plugins/errors.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/*
 * A factura's total is shared by the credit notes against it and the collections applied to it
 * (docs/credit-accounts.md, migration 0114): neither may take what the other took, through HTTP,
 * in a burst of both at once, or in SQL past the API.
 */

const RUC = '20100070970';
const CUSTOMER = { doc_type: 6, doc_number: RUC, name: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' };

describe.each(engines)('credit notes and collections share a factura (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let customerId: number;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;

  beforeAll(async () => {
    billing = await sandboxBilling('credit-note-collections');
    t = await startTestApp(engine, { providers: { billing: billing.provider } });
    billing.followClock(t.clock.now);
    [admin, agent] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1')]);
    const created = await t.call('POST', '/api/customers', {
      token: admin,
      body: { doc_type: 6, doc_number: RUC, firstName: CUSTOMER.name, address: CUSTOMER.address },
    });
    expect(created.statusCode, created.body).toBe(201);
    customerId = created.json().id;
    const opened = await t.call('PUT', `/api/credit/accounts/${customerId}`, {
      token: admin,
      body: { limit: '50000', termsDays: 30, period: 'mensual', contactName: 'Rosa Díaz', contactEmail: 'cobranzas@spsa.pe' },
    });
    expect(opened.statusCode, opened.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  const today = () => limaDay(t.clock.now());
  const scalar = async (query: ReturnType<typeof sql>) => Number(((await t.database.db.execute(query)).rows[0] as { n: unknown }).n);
  const emit = (body: unknown) => t.call('POST', '/api/billing/create-emit', { token: agent, body });
  const fullNumber = (series: string, numero: number) => `${series}-${String(numero).padStart(8, '0')}`;

  /** A factura al crédito of S/ 708.00 (600.00 + IGV), one instalment due in 30 days. */
  const factura = async (series: string) => {
    const res = await emit({
      type: '01',
      serie: series,
      issueDate: today(),
      items: [{ description: 'Servicio de transporte de carga Lima - Arequipa', unit: 'ZZ', quantity: 1, unitValue: '600', igvType: '10' }],
      customer: CUSTOMER,
      payment: { type: 'credito', installments: [{ fecha_de_pago: addDays(today(), 30), importe: '708.00' }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { id, numero } = res.json() as { id: number; numero: number };
    return { id, numero, series, number: fullNumber(series, numero) };
  };
  type Factura = Awaited<ReturnType<typeof factura>>;

  /** A 'disminución en el valor' of `unitValue` + IGV against `f`, in series `serie`. */
  const creditNote = (serie: string, f: Factura, unitValue: string) => ({
    type: '07',
    serie,
    issueDate: today(),
    items: [{ description: 'Disminución en el valor', unit: 'ZZ', quantity: 1, unitValue, igvType: '10' }],
    customer: CUSTOMER,
    extras: {
      documento_que_se_modifica_tipo: '01',
      documento_que_se_modifica_serie: f.series,
      documento_que_se_modifica_numero: f.numero,
      tipo_de_nota_de_credito: '09',
    },
  });
  /** Reason 13: S/ 0, the factura's new instalments. */
  const adjustment = (serie: string, f: Factura, importes: string[]) => ({
    type: '07',
    serie,
    issueDate: today(),
    items: [{ description: 'Ajuste de cuotas y fechas de pago', unit: 'ZZ', quantity: 1, unitValue: '0', igvType: '10' }],
    customer: CUSTOMER,
    extras: {
      documento_que_se_modifica_tipo: '01',
      documento_que_se_modifica_serie: f.series,
      documento_que_se_modifica_numero: f.numero,
      tipo_de_nota_de_credito: '13',
    },
    payment: { type: 'credito', installments: importes.map((importe, i) => ({ fecha_de_pago: addDays(today(), 45 + 30 * i), importe })) },
  });
  const collect = (amount: string, allocations: { documentId: number; amount: string }[]) =>
    t.call('POST', '/api/credit/collections', {
      token: admin,
      body: { customerId, receivedOn: today(), method: 'transferencia', bank: 'BCP', operationNumber: `OP-${Math.random()}`, amount, allocations },
    });

  const lastNumber = (series: string) => scalar(sql`select coalesce(max(last_number), 0) as n from document_series where series = ${series}`);
  const notesOn = (f: Factura) => scalar(sql`select count(*) as n from documents where type = '07' and modifies = ${f.number}`);
  const credited = (f: Factura) =>
    scalar(
      sql`select coalesce(sum(total), 0) as n from documents where type = '07' and modifies = ${f.number} and status not in ('anulado', 'rechazado')`,
    );
  const collected = (f: Factura) => scalar(sql`select coalesce(sum(amount), 0) as n from credit_allocations where document_id = ${f.id} and live`);
  const ledger = async () => {
    const res = await t.call('GET', '/api/reconciliation', { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { ok: boolean; checks: { check: string; count: number }[] };
  };

  /** Sends the note, expects a 422 with `problem` under 'Corrige:', and that nothing changed: no note, no number taken. */
  async function expectRefused(body: { serie: string }, f: Factura, problem: string) {
    const [number, notes, audits] = [await lastNumber(body.serie), await notesOn(f), await scalar(sql`select count(*) as n from audit_log`)];
    const res = await emit(body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().problems).toEqual([problem]);
    expect(res.json().error).toMatch(/^Corrige: /);
    expect(await lastNumber(body.serie)).toBe(number);
    expect(await notesOn(f)).toBe(notes);
    expect(await scalar(sql`select count(*) as n from audit_log`)).toBe(audits);
  }

  it('a note over a factura collected in part is refused in Spanish for more than what is left, and issued for exactly that', async () => {
    const f = await factura('F381');
    const paid = await collect('500', [{ documentId: f.id, amount: '500' }]);
    expect(paid.statusCode, paid.body).toBe(201);

    // The credit-note form's picker offers what is left: S/ 708.00 less the 500.00 collected.
    const picked = await t.call('GET', `/api/billing/creditable?q=${f.number}`, { token: admin });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.json()).toEqual([expect.objectContaining({ id: f.id, total: 708, creditable: 208 })]);
    // S/ 708.00 less the 500.00 collected: 208.00 is left. 176.28 + IGV = 208.01.
    await expectRefused(creditNote('FFF1', f, '176.28'), f, CREDIT_NOTE_MESSAGES.exceedsCollected(f.number, '208.00'));
    await expectRefused(creditNote('FFF1', f, '600'), f, CREDIT_NOTE_MESSAGES.exceedsCollected(f.number, '208.00'));
    // Reason 13's new instalments are what the factura still owes: less the collections too.
    await expectRefused(adjustment('FFF1', f, ['708.00']), f, CREDIT_NOTE_MESSAGES.adjustmentSum('708.00', '208.00', f.number));
    const adjusted = await emit(adjustment('FFF1', f, ['108.00', '100.00']));
    expect(adjusted.statusCode, adjusted.body).toBe(201);

    // 176.27 + IGV = 208.00 (31.73 of IGV): exactly what is left.
    const exact = await emit(creditNote('FFF1', f, '176.27'));
    expect(exact.statusCode, exact.body).toBe(201);
    expect(exact.json().status).toBe('aceptado');
    expect([await credited(f), await collected(f)]).toEqual([208, 500]);
    await expectRefused(creditNote('FFF1', f, '0.01'), f, CREDIT_NOTE_MESSAGES.exceedsCollected(f.number, '0.00'));
    const account = (await t.call('GET', `/api/credit/accounts/${customerId}`, { token: admin })).json();
    expect(account.invoices.find((i: { id: number }) => i.id === f.id)).toMatchObject({ total: 708, open: 0 });
    expect(await ledger()).toMatchObject({ ok: true });
  });

  it('a collection on a factura credited in part takes at most the rest', async () => {
    const f = await factura('F382');
    const note = await emit(creditNote('FFF1', f, '100')); // S/ 118.00
    expect(note.statusCode, note.body).toBe(201);
    const before = await scalar(sql`select count(*) as n from credit_collections`);
    const over = await collect('600', [{ documentId: f.id, amount: '590.01' }]);
    expect(over.statusCode).toBe(422);
    expect(over.json().error).toBe(COLLECTION_MESSAGES.allocationOver(`F382-${f.numero}`, 59_000));
    expect(await scalar(sql`select count(*) as n from credit_collections`)).toBe(before);
    const rest = await collect('590', [{ documentId: f.id, amount: '590' }]);
    expect(rest.statusCode, rest.body).toBe(201);
    expect([await credited(f), await collected(f)]).toEqual([118, 590]);
    // Paid whole: no note takes anything of it any more.
    await expectRefused(creditNote('FFF1', f, '0.01'), f, CREDIT_NOTE_MESSAGES.exceedsCollected(f.number, '0.00'));
    expect(await ledger()).toMatchObject({ ok: true });
  });

  it('notes and collections sent at once for one factura: exactly what its total holds lands, one after the other', async () => {
    const f = await factura('F383');
    // Ten requests of S/ 236.00 each (200.00 + IGV) for a S/ 708.00 factura: 5 notes and 5 collections, interleaved.
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? emit(creditNote('FFF1', f, '200')).then((r) => ({ kind: 'note', r }))
          : collect('236', [{ documentId: f.id, amount: '236' }]).then((r) => ({ kind: 'collection', r })),
      ),
    );
    const landed = results.filter(({ r }) => r.statusCode === 201);
    expect(landed, JSON.stringify(results.map(({ kind, r }) => [kind, r.statusCode, r.body.slice(0, 200)]))).toHaveLength(3);
    // A refused note is a 422 before its number; a collection a 422 (the open balance read) or the guard's 409.
    const notes = landed.filter(({ kind }) => kind === 'note').length;
    const full = notes === 3 ? CREDIT_NOTE_MESSAGES.exceeds(f.number, '0.00') : CREDIT_NOTE_MESSAGES.exceedsCollected(f.number, '0.00');
    for (const { kind, r } of results.filter(({ r }) => r.statusCode !== 201)) {
      if (kind === 'note') expect([r.statusCode, r.json().problems]).toEqual([422, [full]]);
      else
        expect([
          [409, COLLECTION_MESSAGES.invoiceChanged],
          [422, COLLECTION_MESSAGES.invoiceNotOpen],
        ]).toContainEqual([r.statusCode, r.json().error]);
    }
    expect(await credited(f)).toBe(236 * notes);
    expect(await collected(f)).toBe(236 * (3 - notes));
    expect(await notesOn(f)).toBe(notes);
    expect(await ledger()).toMatchObject({ ok: true });
  });

  it('the database refuses a note or an allocation past the API that would take more than the factura holds', async () => {
    const refused = async (query: ReturnType<typeof sql>, rule: string) => {
      const err = await t.database.db.execute(query).then(
        () => null,
        (e: { message: string; cause?: { message: string } }) => e,
      );
      expect(err?.cause?.message ?? err?.message ?? 'accepted').toContain(rule);
    };
    // The allocation side: S/ 118.00 credited, so a collection may pay 590.00 and not a céntimo more.
    const f = await factura('F384');
    expect((await emit(creditNote('FFF1', f, '100'))).statusCode).toBe(201);
    const money = await collect('1000', [{ documentId: f.id, amount: '1' }]); // 999.00 left unapplied
    expect(money.statusCode, money.body).toBe(201);
    const collection = money.json().id as number;
    await refused(
      sql`update credit_allocations set amount = 590.01 where collection_id = ${collection} and document_id = ${f.id}`,
      'tramo.allocation_over_invoice',
    );
    await t.database.db.execute(sql`update credit_allocations set amount = 590 where collection_id = ${collection} and document_id = ${f.id}`);
    expect([await credited(f), await collected(f)]).toEqual([118, 590]);

    // The note side: a factura collected 500.00 and credited 118.00 (90.00 left): its note made
    // larger, a note copied in past the register, a voided note revived once collections took its room.
    const g = await factura('F385');
    expect((await collect('500', [{ documentId: g.id, amount: '500' }])).statusCode).toBe(201);
    const note = await emit(creditNote('FFF1', g, '100'));
    expect(note.statusCode, note.body).toBe(201);
    const noteId = note.json().id as number;
    await refused(sql`update documents set total = 208.01 where id = ${noteId}`, 'tramo.credit_note_over_invoice');
    const copy = (total: string) =>
      sql`insert into documents (type, series, number, status, issue_date, customer_doc_type, customer_doc_number, customer_name,
            gravada, exonerada, inafecta, igv, total, document, modifies, user_name)
          select type, series, number + 1000, 'aceptado', issue_date, customer_doc_type, customer_doc_number, customer_name,
            gravada, exonerada, inafecta, igv, ${total}::numeric, document, modifies, user_name from documents where id = ${noteId}`;
    await refused(copy('90.01'), 'tramo.credit_note_over_invoice');
    // A request that raced past the service's check meets the trigger: the error handler answers it in Spanish.
    const app = Fastify();
    registerErrorHandling(app);
    app.post('/note', async () => t.database.db.execute(copy('90.01')));
    const res = await app.inject({ method: 'POST', url: '/note' });
    await app.close();
    expect([res.statusCode, res.json().error]).toEqual([409, CREDIT_NOTE_MESSAGES.invoiceChanged]);
    await t.database.db.execute(sql`update documents set status = 'anulado' where id = ${noteId}`);
    const rest = await collect('208', [{ documentId: g.id, amount: '208' }]);
    expect(rest.statusCode, rest.body).toBe(201);
    await refused(sql`update documents set status = 'aceptado' where id = ${noteId}`, 'tramo.credit_note_over_invoice');
    expect([await credited(g), await collected(g), await notesOn(g)]).toEqual([0, 708, 1]);
  });
});
