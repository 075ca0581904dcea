import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { execFileSync } from 'node:child_process';
import { addDays, COLLECTION_MESSAGES, CREDIT_MESSAGES, limaDay, parseCsv } from '@tramo/domain';
import { seedLimaPrices, shipmentBody, FREIGHT_TRIP as TRIP } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, statusCounts, type TestContext } from './harness.ts';

/*
 * Issue 35: a corporate customer on credit. Its facturas al crédito are issued through the
 * register as the counter issues them; the account, cobranza, detracción deposits, the estado de
 * cuenta and the ageing are read back through HTTP, and the database refuses what no endpoint may do.
 */

const RUC = '20100070970';
/** A PDF's text as poppler's pdftotext reads it (Debian's poppler-utils, installed by .ci/run). */
const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
const CUSTOMER = { doc_type: 6, doc_number: RUC, firstName: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' };

describe.each(engines)('credit accounts (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let customerId: number;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;

  beforeAll(async () => {
    billing = await sandboxBilling('credit-api');
    t = await startTestApp(engine, {
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '10.00']] }),
      providers: { billing: billing.provider },
    });
    billing.followClock(t.clock.now);
    [admin, agent] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1')]);
    const created = await t.call('POST', '/api/customers', { token: admin, body: CUSTOMER });
    expect(created.statusCode, created.body).toBe(201);
    customerId = created.json().id;
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  const today = () => limaDay(t.clock.now());
  const scalar = async (query: ReturnType<typeof sql>) => Number(((await t.database.db.execute(query)).rows[0] as { n: unknown }).n);
  const account = async () => {
    const res = await t.call('GET', `/api/credit/accounts/${customerId}`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** A factura al crédito of `base` + IGV to the customer, due in `days` (one instalment of the net payable). */
  const invoice = async (series: string, base: string, net: string, days: number, extras: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/api/billing/create-emit', {
      token: agent,
      body: {
        type: '01',
        serie: series,
        issueDate: today(),
        items: [{ description: 'Servicio de transporte de carga Lima - Arequipa', unit: 'ZZ', quantity: 1, unitValue: base, igvType: '10' }],
        customer: { doc_type: 6, doc_number: RUC, name: CUSTOMER.firstName, address: CUSTOMER.address },
        payment: { type: 'credito', installments: [{ fecha_de_pago: addDays(today(), days), importe: net }] },
        extras,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; numero: number };
  };
  const collect = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.call('POST', '/api/credit/collections', {
      token: admin,
      headers,
      body: { customerId, receivedOn: today(), method: 'transferencia', bank: 'BCP', operationNumber: `OP-${Math.random()}`, ...body },
    });

  it('opens an account for a RUC customer only, with Spanish refusals, admins only, audited', async () => {
    const body = { limit: '1500', termsDays: 30, period: 'mensual', contactName: 'Rosa Díaz', contactEmail: 'cobranzas@spsa.pe' };
    expect((await t.call('PUT', `/api/credit/accounts/${customerId}`, { token: agent, body })).statusCode).toBe(403);
    const bad = await t.call('PUT', `/api/credit/accounts/${customerId}`, { token: admin, body: { ...body, termsDays: 0, contactEmail: null } });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('Plazo inválido: de 1 a 180 días.');
    const dni = await t.call('POST', '/api/customers', {
      token: admin,
      body: { doc_type: 1, doc_number: '45879612', firstName: 'María', lastName: 'Flores' },
    });
    const refused = await t.call('PUT', `/api/credit/accounts/${dni.json().id}`, { token: admin, body });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toBe(CREDIT_MESSAGES.rucOnly);

    const res = await t.call('PUT', `/api/credit/accounts/${customerId}`, { token: admin, body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ customerId, limit: 1500, termsDays: 30, status: 'activa', balance: 0, available: 1500, overdue: false });
    expect(await scalar(sql`select count(*) as n from audit_log where entity = 'credit_account' and entity_id = ${String(customerId)}`)).toBe(1);
  });

  let older: { id: number; numero: number };
  let newer: { id: number; numero: number };
  let withDetraction: { id: number; numero: number };

  it('sums its facturas al crédito into the balance and applies a collection oldest first, in part', async () => {
    older = await invoice('F351', '300', '354.00', 10); // S/ 354.00, due in 10 days
    newer = await invoice('F351', '600', '708.00', 30); // S/ 708.00, due in 30 days
    expect(await account()).toMatchObject({ balance: 1062, available: 438 });

    const res = await collect({ amount: '500' });
    expect(res.statusCode, res.body).toBe(201);
    const after = res.json().account;
    expect(after.invoices.map((i: { id: number; collected: number; open: number }) => [i.id, i.collected, i.open])).toEqual([
      [older.id, 354, 0],
      [newer.id, 146, 562],
    ]);
    expect(after).toMatchObject({ balance: 562, unapplied: 0 });
  });

  it('keeps an overpayment as a credit balance and refuses an allocation above what a factura owes', async () => {
    const over = await collect({ amount: '600', allocations: [{ documentId: newer.id, amount: '563' }] });
    expect(over.statusCode).toBe(422);
    expect(over.json().error).toBe(`F351-${newer.numero}: se puede aplicar hasta S/ 562.00.`);
    const res = await collect({ amount: '600' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().account).toMatchObject({ balance: -38, unapplied: 38 });
    expect(res.json().account.invoices.every((i: { open: number }) => i.open === 0)).toBe(true);
    // Void it: the 562.00 it paid of the newer factura is owed again, and the credit balance is gone.
    const voided = await t.call('POST', `/api/credit/collections/${res.json().id}/void`, {
      token: admin,
      body: { reason: 'Transferencia devuelta por el banco' },
    });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json()).toMatchObject({ balance: 562, unapplied: 0 });
    const again = await t.call('POST', `/api/credit/collections/${res.json().id}/void`, {
      token: admin,
      body: { reason: 'Transferencia devuelta por el banco' },
    });
    expect(again.statusCode).toBe(409);
  });

  it('one Idempotency-Key sent 20 times at once takes the money once', async () => {
    const before = await scalar(sql`select count(*) as n from credit_collections`);
    const key = `cobro-${engine}-1`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => collect({ amount: '10', operationNumber: 'OP-IDEM' }, { 'idempotency-key': key })),
    );
    expect(statusCounts(results.map((r) => r.statusCode))).toEqual({ 201: 20 });
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
    expect(await scalar(sql`select count(*) as n from credit_collections`)).toBe(before + 1);
    const reused = await collect({ amount: '11' }, { 'idempotency-key': key });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error).toBe(COLLECTION_MESSAGES.keyReused);
  });

  it('10 collections racing for one factura never pay it beyond its balance', async () => {
    const { invoices } = await account();
    const open = invoices.find((i: { id: number }) => i.id === newer.id).open as number; // 552.00
    const results = await Promise.all(
      Array.from({ length: 10 }, () => collect({ amount: '100', allocations: [{ documentId: newer.id, amount: '100' }] })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(Math.floor(open / 100));
    expect(results.filter((r) => r.statusCode !== 201).every((r) => r.statusCode === 422)).toBe(true);
    const paid = await scalar(sql`select coalesce(sum(amount), 0) as n from credit_allocations where document_id = ${newer.id} and live`);
    expect(paid).toBeLessThanOrEqual(708);
  });

  it('a detracción counts in the debt until its deposit is recorded, once', async () => {
    // S/ 950.00 + IGV = 1,121.00; 4 % of it is 44.84, deposited in whole soles: S/ 45.00. The
    // instalment is the net payable, 1,076.00.
    withDetraction = await invoice('F352', '950', '1076.00', 45, {
      detraccion: true,
      detraccion_porcentaje: 4,
      detraccion_total: 45,
      cuenta_detraccion: '00-005-123456',
      medio_de_pago_detraccion: 1,
      viaje: TRIP,
    });
    const before = (await account()).invoices.find((i: { id: number }) => i.id === withDetraction.id);
    expect(before).toMatchObject({ total: 1121, detraction: 45, detractionStatus: 'pendiente', open: 1121 });
    const deposit = (body: Record<string, unknown>) =>
      t.call('POST', `/api/credit/invoices/${withDetraction.id}/detraction-deposit`, { token: admin, body });
    expect((await deposit({ constancia: '12', depositedOn: today() })).statusCode).toBe(400);
    const res = await deposit({ constancia: '0015-77889', depositedOn: today() });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ amount: 45 });
    expect((await deposit({ constancia: '0015-77890', depositedOn: today() })).statusCode).toBe(409);
    const after = (await account()).invoices.find((i: { id: number }) => i.id === withDetraction.id);
    expect(after).toMatchObject({ detractionStatus: 'depositada', constancia: '0015-77889', open: 1076 });
  });

  it('the estado de cuenta closes at the account balance, and the ageing buckets it', async () => {
    const acc = await account();
    const from = `${today().slice(0, 8)}01`;
    const res = await t.call('GET', `/api/credit/accounts/${customerId}/statement?from=${from}&to=${today()}`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json();
    expect(s.opening).toBe(0);
    expect(s.closing).toBe(acc.balance);
    expect(s.rows.at(-1).balance).toBe(acc.balance);
    expect(s.rows.filter((r: { kind: string }) => r.kind === 'anulacion')).toHaveLength(1);
    expect(s.due.map((d: { reference: string }) => d.reference)).toEqual([`F351-${newer.numero}`, `F352-${withDetraction.numero}`]);

    // The same statement as a CSV that parses back to the same closing, and as an A4 PDF with its text.
    const csv = await t.call('GET', `/api/credit/accounts/${customerId}/statement.csv?from=${from}&to=${today()}`, { token: admin });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain(`estado-de-cuenta-${RUC}-${from}-${today()}.csv`);
    const cells = parseCsv(csv.body);
    const closing = cells.find((r) => r[1] === 'Saldo final')!;
    expect(closing[5]).toBe(s.closing.toFixed(2));
    expect(cells.filter((r) => r[1] === 'Cobro')).toHaveLength(s.rows.filter((r: { kind: string }) => r.kind === 'cobro').length);
    const pdf = await fetch(`${t.baseUrl}/api/credit/accounts/${customerId}/statement.pdf?from=${from}&to=${today()}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(pdf.status).toBe(200);
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('ESTADO DE CUENTA');
    expect(text).toContain(`RUC: ${RUC}`);
    expect(text).toContain(`S/ ${s.closing.toLocaleString('en-US', { minimumFractionDigits: 2 })}`);

    // 40 days later: the F351 factura due in 30 days is 10 days overdue, the F352 one still por vencer.
    t.clock.advance(40 * 86_400_000);
    try {
      const later = await t.login('ADMIN'); // the session of 40 days ago has expired
      const ageingRes = await t.call('GET', '/api/credit/ageing', { token: later });
      expect(ageingRes.statusCode, ageingRes.body).toBe(200);
      const ageing = ageingRes.json();
      const row = ageing.items.find((i: { customerId: number }) => i.customerId === customerId);
      const newerOpen = acc.invoices.find((i: { id: number }) => i.id === newer.id).open;
      expect(row).toMatchObject({ d1a30: newerOpen, porVencer: 1076, mas90: 0 });
      expect(ageing.totals.total).toBe(row.total);
      expect((await t.call('GET', `/api/credit/accounts/${customerId}`, { token: later })).json().overdue).toBe(true);
    } finally {
      t.clock.advance(-40 * 86_400_000);
    }
  });

  it('the database refuses an over-payment, a rewrite and money on a factura of another customer, whatever the path', async () => {
    const [collection] = (await t.database.db.execute(sql`select id from credit_collections where status = 'vigente' order by id limit 1`)).rows as {
      id: number;
    }[];
    const refused = async (query: ReturnType<typeof sql>, rule: string) => {
      const err = await t.database.db.execute(query).then(
        () => null,
        (e: { message: string; cause?: { message: string } }) => e,
      );
      expect(err?.cause?.message ?? err?.message).toContain(rule);
    };
    await refused(
      sql`insert into credit_allocations (collection_id, document_id, amount) values (${collection!.id}, ${withDetraction.id}, 99999)`,
      'tramo.allocation_over',
    );
    await refused(sql`update credit_collections set amount = amount + 1 where id = ${collection!.id}`, 'tramo.collection_rewrite');
    const other = await t.call('POST', '/api/billing/create-emit', {
      token: agent,
      body: {
        type: '03',
        serie: 'B351',
        issueDate: today(),
        items: [{ description: 'Servicio de envío', unit: 'ZZ', quantity: 1, unitValue: '10', igvType: '10' }],
        customer: { doc_type: 1, doc_number: '45879612', name: 'María Flores' },
      },
    });
    expect(other.statusCode, other.body).toBe(201);
    await refused(
      sql`insert into credit_allocations (collection_id, document_id, amount) values (${collection!.id}, ${other.json().id}, 1)`,
      'tramo.allocation_to_foreign_invoice',
    );
  });

  it('registers credit shipments only within the account: the limit holds under a burst, an admin overrides with a reason', async () => {
    const route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! };
    const other = await t.call('POST', '/api/customers', {
      token: admin,
      body: { doc_type: 6, doc_number: '20131312955', firstName: 'TRANSPORTES ICA S.A.C.', address: 'Av. San Martín 120, Ica' },
    });
    const icaId = other.json().id as number;
    const onCredit = (token: string, over: Record<string, unknown> = {}) =>
      t.call('POST', '/api/shipments', {
        token,
        body: shipmentBody(route, { senderCustomerId: icaId, payer: 'remitente', paymentMoment: 'credito', ...over }),
      });

    const none = await onCredit(agent);
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({
      error: 'El cliente no tiene una cuenta de crédito activa.',
      fields: { paymentMoment: 'El cliente no tiene una cuenta de crédito activa.' },
    });

    const opened = await t.call('PUT', `/api/credit/accounts/${icaId}`, {
      token: admin,
      body: { limit: '100', termsDays: 15, period: 'semanal', contactName: 'Luis Ramos', contactPhone: '987654321' },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const first = await onCredit(agent);
    expect(first.statusCode, first.body).toBe(201);
    const priceCents = Math.round(first.json().quotedPrice * 100);
    const room = Math.floor((10_000 - priceCents) / priceCents);

    // Ten at once for what is left: the account is locked per decision, so exactly `room` go.
    const burst = await Promise.all(Array.from({ length: 10 }, () => onCredit(agent)));
    expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(room);
    const refused = burst.filter((r) => r.statusCode === 422);
    expect(refused).toHaveLength(10 - room);
    expect(refused[0]!.json()).toMatchObject({ code: 'CREDIT_LIMIT' });
    expect(refused[0]!.json().error).toMatch(/^Línea de crédito excedida: disponible S\/ \d+\.\d\d\.$/);
    const acc = (await t.call('GET', `/api/credit/accounts/${icaId}`, { token: admin })).json();
    expect(acc.uninvoiced * 100).toBe(priceCents * (room + 1));
    expect(acc.balance).toBeLessThanOrEqual(100);

    // An agent's reason changes nothing; an admin's short one is refused; a real one lets it through, audited.
    expect((await onCredit(agent, { creditOverrideReason: 'Autorizado por gerencia comercial' })).json().code).toBe('CREDIT_LIMIT');
    expect((await onCredit(admin, { creditOverrideReason: 'corto' })).json().fields).toEqual({
      creditOverrideReason: CREDIT_MESSAGES.overrideReason,
    });
    const overridden = await onCredit(admin, { creditOverrideReason: 'Autorizado por gerencia comercial' });
    expect(overridden.statusCode, overridden.body).toBe(201);
    expect(
      await scalar(sql`select count(*) as n from audit_log where action = 'credit-override' and entity_id = ${String(overridden.json().id)}`),
    ).toBe(1);
    // Credit shipments are not collected at the counter.
    const pay = await t.call('POST', '/api/payments/manual', {
      token: agent,
      body: {
        shipmentId: first.json().id,
        customerName: 'TRANSPORTES ICA S.A.C.',
        customerDocNumber: '20131312955',
        amount: first.json().quotedPrice,
        currency: 'PEN',
        methodCode: 'cash',
      },
    });
    expect(pay.statusCode).toBe(422);
    // Owed through the account, not as unpaid shipments: Cuentas por cobrar's table leaves them out
    // (they would stay there for ever, with no payment to end them); the ageing has the account.
    const owed = (await t.call('GET', '/api/receivables/customers', { token: admin })).json() as { items: { customer_doc: string | null }[] };
    expect(owed.items.map((c) => c.customer_doc)).not.toContain('20131312955');
    expect(await scalar(sql`select count(*) as n from receivable_items where shipment_id = ${first.json().id as number}`)).toBe(0);
  });

  it("'Facturar periodo' issues a closed period's credit shipments once: 20 requests at once answer one factura al crédito", async () => {
    const ica = ((await t.call('GET', '/api/credit/accounts', { token: admin })).json() as { customerId: number; docNumber: string }[]).find(
      (a) => a.docNumber === '20131312955',
    )!;
    const day = today();
    const open = (await t.call('GET', `/api/credit/accounts/${ica.customerId}/invoice-period?from=${day}&to=${day}`, { token: admin })).json();
    expect(open.error).toBe('El periodo aún no termina: factura periodos cerrados.');
    t.clock.advance(86_400_000);
    try {
      const later = await t.login('ADMIN');
      const before = (await t.call('GET', `/api/credit/accounts/${ica.customerId}`, { token: later })).json();
      const preview = await t.call('GET', `/api/credit/accounts/${ica.customerId}/invoice-period?from=${day}&to=${day}`, { token: later });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json().shipments).toHaveLength(before.shipments.length);
      expect(preview.json()).toMatchObject({ total: before.uninvoiced, detraction: null, dueDate: addDays(today(), 15), payable: before.uninvoiced });

      const body = { from: day, to: day, grouping: 'ruta' };
      const results = await Promise.all(
        Array.from({ length: 20 }, () => t.call('POST', `/api/credit/accounts/${ica.customerId}/invoice-period`, { token: later, body })),
      );
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
      expect(statusCounts(results.map((r) => r.statusCode))).toEqual({ 200: 19, 201: 1 });
      expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
      expect(await scalar(sql`select count(*) as n from documents where customer_doc_number = '20131312955' and type = '01'`)).toBe(1);

      const after = (await t.call('GET', `/api/credit/accounts/${ica.customerId}`, { token: later })).json();
      expect(after).toMatchObject({ uninvoiced: 0, shipments: [] });
      expect(after.invoices).toHaveLength(1);
      expect(after.invoices[0]).toMatchObject({ dueDate: addDays(today(), 15), open: after.invoices[0].total });
      expect(Math.abs(after.balance - before.balance)).toBeLessThanOrEqual(0.02); // IGV rounding of the grouped line
      const statement = (await t.call('GET', `/api/credit/accounts/${ica.customerId}/statement?from=${day}&to=${today()}`, { token: later })).json();
      expect(statement.closing).toBe(after.balance);
      const again = await t.call('GET', `/api/credit/accounts/${ica.customerId}/invoice-period?from=${day}&to=${day}`, { token: later });
      expect(again.json().error).toBe('No hay envíos a crédito por facturar en el periodo.');
    } finally {
      t.clock.advance(-86_400_000);
    }
  });

  it('the ledger check reads 0 after all this, and reports each credit invariant broken in SQL', async () => {
    const check = async () => {
      const res = await t.call('GET', '/api/reconciliation', { token: admin });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { ok: boolean; checks: { check: string; count: number; violations: { table: string; id: string }[] }[] };
    };
    expect(await check()).toMatchObject({ ok: true });
    const reported = async (name: string) => (await check()).checks.find((c) => c.check === name)!;
    const exec = (q: ReturnType<typeof sql>) => t.database.db.execute(q);

    await exec(sql`alter table credit_allocations disable trigger credit_allocations_guard`);
    const [c] = (await exec(sql`select id from credit_collections where status = 'vigente' order by id limit 1`)).rows as { id: number }[];
    await exec(sql`insert into credit_allocations (collection_id, document_id, amount) values (${c!.id}, ${withDetraction.id}, 5000)`);
    expect((await reported('credit_invoice_balance')).violations).toContainEqual(
      expect.objectContaining({ table: 'documents', id: String(withDetraction.id) }),
    );
    expect((await reported('credit_collection_applied')).violations).toContainEqual(
      expect.objectContaining({ table: 'credit_collections', id: String(c!.id) }),
    );
    await exec(sql`delete from credit_allocations where collection_id = ${c!.id} and document_id = ${withDetraction.id}`);
    await exec(sql`alter table credit_allocations enable trigger credit_allocations_guard`);

    await exec(sql`alter table credit_collections disable trigger credit_collections_void`);
    await exec(sql`update credit_collections set status = 'anulado', void_reason = 'roto a mano' where id = ${c!.id}`);
    expect((await reported('credit_collection_applied')).violations).toContainEqual(expect.objectContaining({ id: String(c!.id) }));
    await exec(sql`update credit_collections set status = 'vigente', void_reason = null where id = ${c!.id}`);
    await exec(sql`alter table credit_collections enable trigger credit_collections_void`);

    const shipment = await t.call('POST', '/api/shipments', {
      token: agent,
      body: shipmentBody({ originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! }),
    });
    expect(shipment.statusCode, shipment.body).toBe(201);
    await exec(sql`drop index document_shipments_live_uq`);
    await exec(
      sql`insert into document_shipments (document_id, shipment_id) values (${older.id}, ${shipment.json().id}), (${newer.id}, ${shipment.json().id})`,
    );
    expect((await reported('shipment_billed_once')).violations).toContainEqual(
      expect.objectContaining({ table: 'shipments', id: String(shipment.json().id) }),
    );
    await exec(sql`delete from document_shipments where shipment_id = ${shipment.json().id}`);
    await exec(sql`create unique index document_shipments_live_uq on document_shipments (shipment_id) where live and role = 'comprobante'`);
    expect(await check()).toMatchObject({ ok: true });
  });
});
