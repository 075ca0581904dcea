import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  addDays,
  creditNoteFrom,
  invoicePayloadFromForm,
  limaDay,
  PERIOD_INVOICE_MESSAGES,
  periodContaining,
  type DocumentDetail,
  type DuePeriod,
  type PeriodBatchAnswer,
} from '@tramo/domain';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, statusCounts, type TestContext } from './harness.ts';

/*
 * Issue 35, the invoicing half: 'Facturar periodos vencidos' over every active account, a period
 * factura with the freight detracción, a third party's credit shipments billed to its own account,
 * and a credit note that credits a factura whole sending its shipments back to be invoiced again.
 */

const DAY = 86_400_000;
const ACCOUNT = { limit: '100000', termsDays: 30, period: 'semanal', contactName: 'Cobranzas', contactEmail: 'cobranzas@example.pe' };
const CUSTOMERS = {
  heavy: { doc_type: 6, doc_number: '20100070970', firstName: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' },
  light: { doc_type: 6, doc_number: '20131312955', firstName: 'TRANSPORTES ICA S.A.C.', address: 'Av. San Martín 120, Ica' },
  payer: { doc_type: 6, doc_number: '20100128056', firstName: 'MINERA ANDINA S.A.', address: 'Jr. Huallaga 320, Lima' },
  batchHeavy: { doc_type: 6, doc_number: '20601030013', firstName: 'AGROINDUSTRIAS DEL SUR S.A.C.', address: 'Av. Los Incas 250, Arequipa' },
} as const;
type Who = keyof typeof CUSTOMERS;

describe.each(engines)('credit period invoicing (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;
  const ids = {} as Record<Who, number>;
  /** The Lima day of the first shipments, and of the second week's. */
  let day0: string;
  let day7: string;
  let thirdPartyShipment: number;

  const today = () => limaDay(t.clock.now());
  const scalar = async (query: ReturnType<typeof sql>) => Number(((await t.database.db.execute(query)).rows[0] as { n: unknown }).n);
  const week = (day: string) => periodContaining('semanal', day);
  const get = async (url: string) => {
    const res = await t.call('GET', url, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const ledger = async () => (await get('/api/reconciliation')) as { ok: boolean; checks: { check: string; count: number }[] };
  const facturasOf = (who: Who) =>
    scalar(sql`select count(*) as n from documents where type = '01' and customer_doc_number = ${CUSTOMERS[who].doc_number}`);
  const linked = (documentId: number) =>
    t.database.db
      .execute(sql`select shipment_id, live from document_shipments where document_id = ${documentId} order by shipment_id`)
      .then((r) => (r.rows as { shipment_id: number; live: boolean }[]).map((x) => [Number(x.shipment_id), x.live]));

  beforeAll(async () => {
    billing = await sandboxBilling('credit-period');
    t = await startTestApp(engine, {
      seed: (db, branchIds) => seedLimaPrices(db, branchIds, ['Arequipa'], { liviano: [[1, 1000, '10.00']] }),
      providers: { billing: billing.provider },
    });
    billing.followClock(t.clock.now);
    admin = await t.login('ADMIN');
    const route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! };
    // The route's reference values: a factura over S/ 400 gets its detracción with the trip filled in.
    const values = { ...route, servicePerTm: '111.10', effectiveLoadTm: 5, nominalLoadTm: '8' };
    expect((await t.call('PUT', '/api/pricing/reference-values', { token: admin, body: values })).statusCode).toBe(200);
    for (const who of Object.keys(CUSTOMERS) as Who[]) {
      const created = await t.call('POST', '/api/customers', { token: admin, body: CUSTOMERS[who] });
      expect(created.statusCode, created.body).toBe(201);
      ids[who] = created.json().id;
      const opened = await t.call('PUT', `/api/credit/accounts/${ids[who]}`, { token: admin, body: ACCOUNT });
      expect(opened.statusCode, opened.body).toBe(200);
    }
    const ship = async (who: Who, weightKg: number, over: Record<string, unknown> = {}) => {
      const res = await t.call('POST', '/api/shipments', {
        token: admin,
        body: shipmentBody(route, { senderCustomerId: ids[who], paymentMoment: 'credito', lines: [{ productType: 'liviano', weightKg }], ...over }),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: number; quotedPrice: number };
    };
    day0 = today();
    expect((await ship('heavy', 50)).quotedPrice).toBe(500);
    await ship('heavy', 50);
    await ship('batchHeavy', 50);
    await ship('light', 3);
    await ship('light', 3);
    // Sent by the light customer, paid on credit by a third party with its own account.
    thirdPartyShipment = (
      await ship('light', 3, {
        payer: 'tercero',
        payerDocType: 6,
        payerDocNumber: CUSTOMERS.payer.doc_number,
        payerName: CUSTOMERS.payer.firstName,
        payerCustomerId: ids.payer,
      })
    ).id;
    await ship('payer', 3);
    t.clock.advance(7 * DAY);
    admin = await t.login('ADMIN'); // the week-old session has expired
    day7 = today();
    await ship('light', 3);
    // Both weeks have ended.
    t.clock.advance(8 * DAY);
    admin = await t.login('ADMIN');
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  it("a third party's credit shipment goes to the payer's period factura, not the sender's", async () => {
    const { from, to } = week(day0);
    const payer = await get(`/api/credit/accounts/${ids.payer}/invoice-period?from=${from}&to=${to}`);
    expect(payer.shipments.map((s: { id: number }) => s.id)).toContain(thirdPartyShipment);
    expect(payer.shipments).toHaveLength(2);
    const sender = await get(`/api/credit/accounts/${ids.light}/invoice-period?from=${from}&to=${to}`);
    expect(sender.shipments.map((s: { id: number }) => s.id)).not.toContain(thirdPartyShipment);
    expect(sender.shipments).toHaveLength(2);
  });

  it('a period factura with detracción: the instalment is the total less it, the deposit closes it, the ledger reads 0', async () => {
    const { from, to } = week(day0);
    const url = `/api/credit/accounts/${ids.heavy}/invoice-period`;
    // 2 × S/ 500.00 = S/ 1,000.00 over the route's reference value (111.10 × 8 t = S/ 888.80): 4 % = S/ 40.00.
    const preview = await get(`${url}?from=${from}&to=${to}`);
    expect(preview).toMatchObject({ total: 1000, detraction: 40, payable: 960, needsDetractionAccount: true, dueDate: addDays(today(), 30) });
    expect(preview.trip).toMatchObject({ originUbigeo: '150101', destinationUbigeo: '040101', serviceReference: '888.80' });
    const refused = await t.call('POST', url, { token: admin, body: { from, to } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().problems).toEqual([PERIOD_INVOICE_MESSAGES.account]);

    const res = await t.call('POST', url, { token: admin, body: { from, to, detractionAccount: '00-005-123456' } });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as number;
    const [doc] = (await t.database.db.execute(sql`select document from documents where id = ${id}`)).rows as { document: unknown }[];
    const stored = (typeof doc!.document === 'string' ? JSON.parse(doc!.document) : doc!.document) as {
      detraction: { amountCents: number; bankAccount: string };
      payment: { form: string; instalments: { importeCents: number }[] };
    };
    expect(stored.detraction).toMatchObject({ amountCents: 4000, bankAccount: '00005123456' }); // digits only, as SUNAT takes it
    expect(stored.payment).toMatchObject({ form: 'credito', instalments: [{ importeCents: 96000 }] });

    const invoiceOf = async () => (await get(`/api/credit/accounts/${ids.heavy}`)).invoices.find((i: { id: number }) => i.id === id);
    expect(await invoiceOf()).toMatchObject({ total: 1000, detraction: 40, detractionStatus: 'pendiente', open: 1000 });
    const statement = await get(`/api/credit/accounts/${ids.heavy}/statement?from=${day0}&to=${today()}`);
    expect(statement.closing).toBe(1000);
    expect(statement.rows.find((r: { kind: string }) => r.kind === 'factura')).toMatchObject({ document: 1000 });

    const deposit = await t.call('POST', `/api/credit/invoices/${id}/detraction-deposit`, {
      token: admin,
      body: { constancia: '0015-99001', depositedOn: today() },
    });
    expect(deposit.statusCode, deposit.body).toBe(201);
    expect(deposit.json()).toMatchObject({ amount: 40 });
    expect(await invoiceOf()).toMatchObject({ detractionStatus: 'depositada', open: 960 });
    const after = await get(`/api/credit/accounts/${ids.heavy}/statement?from=${day0}&to=${today()}`);
    expect(after.closing).toBe(960);
    expect(after.rows.filter((r: { kind: string }) => r.kind === 'detraccion')).toHaveLength(1);
    expect(await ledger()).toMatchObject({ ok: true });
  });

  let due: DuePeriod[];

  it("'Facturar periodos vencidos' previews every active account's ended periods with uninvoiced credit shipments", async () => {
    const preview = await get('/api/credit/period-invoices/due');
    due = preview.items;
    const rows = due.map((d) => [d.customerId, d.from, d.shipments, d.detraction]);
    expect(rows).toEqual(
      expect.arrayContaining([
        [ids.batchHeavy, week(day0).from, 1, 36], // 4 % of the reference value S/ 888.80 > S/ 500.00
        [ids.light, week(day0).from, 2, null],
        [ids.light, week(day7).from, 1, null],
        [ids.payer, week(day0).from, 2, null],
      ]),
    );
    expect(due).toHaveLength(4); // the heavy customer's week is invoiced already
    expect(preview.needsDetractionAccount).toBe(true);
    expect(preview.total).toBe(500 + 30 * 5);
  });

  it('one account refused does not stop the others; two runs at once issue one factura per period; a rerun answers the same', async () => {
    const periods = due.map((d) => ({ customerId: d.customerId, from: d.from, to: d.to }));
    const run = (body: Record<string, unknown>, key: string) =>
      t.call('POST', '/api/credit/period-invoices', { token: admin, body, headers: { 'idempotency-key': key } });
    // Without the detracciones account the detracción factura is refused, the light week is issued.
    const first = await run({ periods: periods.filter((p) => p.customerId !== ids.payer && p.from === week(day0).from) }, `lote-${engine}-1`);
    expect(first.statusCode, first.body).toBe(200);
    const answer = first.json() as PeriodBatchAnswer;
    expect(answer).toMatchObject({ issued: 1, refused: 1 });
    expect(answer.items.find((i) => i.customerId === ids.batchHeavy)).toMatchObject({ outcome: 'rechazada', documentId: null });
    expect(answer.items.find((i) => i.customerId === ids.batchHeavy)!.message).toContain(PERIOD_INVOICE_MESSAGES.account);

    const body = { periods, detractionAccount: '00-005-123456' };
    const [a, b] = await Promise.all([run(body, `lote-${engine}-2`), run(body, `lote-${engine}-3`)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const runs = [a.json(), b.json()] as PeriodBatchAnswer[];
    for (const i of periods.keys()) {
      const outcomes = runs.map((r) => r.items[i]!);
      expect(
        outcomes.every((o) => o.documentId !== null && o.documentId === outcomes[0]!.documentId),
        JSON.stringify(outcomes),
      ).toBe(true);
    }
    expect(runs[0]!.issued + runs[1]!.issued).toBe(3); // the light customer's first week was issued by the first run
    expect(await facturasOf('light')).toBe(2);
    expect(await facturasOf('batchHeavy')).toBe(1);
    expect(await facturasOf('payer')).toBe(1);
    const payerFactura = runs[0]!.items.find((i) => i.customerId === ids.payer)!.documentId!;
    expect((await linked(payerFactura)).map(([id]) => id)).toContain(thirdPartyShipment);

    const again = (await run(body, `lote-${engine}-2`)).json() as PeriodBatchAnswer;
    expect(again).toMatchObject({ issued: 0, already: 4, refused: 0 });
    expect(again.items.map((i) => i.documentId)).toEqual(runs[0]!.items.map((i) => i.documentId));
    expect((await get('/api/credit/period-invoices/due')).items).toEqual([]);
    const bad = await t.call('POST', '/api/credit/period-invoices', { token: admin, body: { periods: [] } });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('Elige al menos un periodo por facturar.');
    expect(await scalar(sql`select count(*) as n from audit_log where entity = 'credit_period_batch'`)).toBe(4);
  });

  /** An anulación crediting all of `documentId`'s lines, or a 'disminución en el valor' of `unitValue` + IGV. */
  const creditNote = async (documentId: number, unitValue?: string) => {
    const doc = (await get(`/api/billing/lookup/${documentId}`)) as DocumentDetail;
    const form = creditNoteFrom(doc, today())!;
    form.creditNote.reason = unitValue ? '09' : '01';
    if (unitValue) form.items = [{ ...form.items[0]!, unitValue, description: 'Disminución en el valor' }];
    const { shipmentIds: _none, ...payload } = invoicePayloadFromForm(form);
    return t.call('POST', '/api/billing/create-emit', { token: admin, body: payload });
  };

  it('a credit note that credits a factura whole reopens its shipments for a new period factura; a partial one does not', async () => {
    const { from, to } = week(day0);
    const facturaOf = async (who: Who) =>
      Number(
        (
          (
            await t.database.db.execute(
              sql`select min(id) as id from documents where type = '01' and customer_doc_number = ${CUSTOMERS[who].doc_number}`,
            )
          ).rows[0] as { id: unknown }
        ).id,
      );
    const original = await facturaOf('light'); // its first week's
    const before = await linked(original);
    expect(before.every(([, live]) => live)).toBe(true);

    // A partial note (a discount) leaves the shipments on the factura.
    const payerFactura = await facturaOf('payer');
    const partial = await creditNote(payerFactura, '1.00');
    expect(partial.statusCode, partial.body).toBe(201);
    expect((await linked(payerFactura)).every(([, live]) => live)).toBe(true);

    const note = await creditNote(original);
    expect(note.statusCode, note.body).toBe(201);
    expect((await linked(original)).every(([, live]) => !live)).toBe(true);
    expect(await scalar(sql`select count(*) as n from audit_log where action = 'credit-note-reopen' and entity_id = ${String(original)}`)).toBe(1);
    const account = await get(`/api/credit/accounts/${ids.light}`);
    expect(account.shipments.map((s: { id: number }) => s.id).sort()).toEqual(before.map(([id]) => id).sort());
    const statement = await get(`/api/credit/accounts/${ids.light}/statement?from=${day0}&to=${today()}`);
    expect(statement.closing).toBe(account.balance);
    expect(statement.rows.filter((r: { kind: string }) => r.kind === 'reapertura')).toHaveLength(1);

    // The period is due again, and 'Facturar periodo' takes the same shipments into a new factura.
    expect((await get('/api/credit/period-invoices/due')).items).toEqual([expect.objectContaining({ customerId: ids.light, from, shipments: 2 })]);
    // Five at once under the period's next key: one factura.
    const racing = await Promise.all(
      Array.from({ length: 5 }, () => t.call('POST', `/api/credit/accounts/${ids.light}/invoice-period`, { token: admin, body: { from, to } })),
    );
    expect(statusCounts(racing.map((r) => r.statusCode))).toEqual({ 200: 4, 201: 1 });
    expect(new Set(racing.map((r) => r.json().id)).size).toBe(1);
    const again = racing.find((r) => r.statusCode === 201)!;
    expect(again.json().id).not.toBe(original);
    expect((await linked(again.json().id)).map(([id]) => id)).toEqual(before.map(([id]) => id));
    const repeat = await t.call('POST', `/api/credit/accounts/${ids.light}/invoice-period`, { token: admin, body: { from, to } });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json().id).toBe(again.json().id);
    const after = await get(`/api/credit/accounts/${ids.light}`);
    expect(after.shipments).toEqual([]);
    expect((await get(`/api/credit/accounts/${ids.light}/statement?from=${day0}&to=${today()}`)).closing).toBe(after.balance);
    const check = await ledger();
    expect(check.checks.find((c) => c.check === 'shipment_billed_once')).toMatchObject({ count: 0 });
    expect(check).toMatchObject({ ok: true });
  });

  it('a crediting note rejected afterwards gives the shipments back to the factura it credited', async () => {
    const factura = Number(
      (
        (
          await t.database.db.execute(
            sql`select min(id) as id from documents where type = '01' and customer_doc_number = ${CUSTOMERS.batchHeavy.doc_number}`,
          )
        ).rows[0] as { id: unknown }
      ).id,
    );
    const note = await creditNote(factura);
    expect(note.statusCode, note.body).toBe(201);
    expect((await linked(factura)).every(([, live]) => !live)).toBe(true);
    // SUNAT's rejection, as the provider's answer records it (lifecycle.ts updates the status).
    await t.database.db.execute(sql`update documents set status = 'rechazado' where id = ${note.json().id}`);
    expect((await linked(factura)).every(([, live]) => live)).toBe(true);
    expect(await scalar(sql`select count(*) as n from audit_log where action = 'credit-note-relink' and entity_id = ${String(factura)}`)).toBe(1);
    expect((await get('/api/credit/period-invoices/due')).items).toEqual([]);
    expect(await ledger()).toMatchObject({ ok: true });
  });
});
