import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  CREDIT_NOTE_MESSAGES,
  FREIGHT_TRIP_MESSAGES,
  INSTALMENT_MESSAGES,
  INVOICE_MESSAGES,
  SERIES_MESSAGES,
  invoiceFromShipments,
  invoicePayloadFromForm,
  limaDay,
  type UnbilledShipment,
} from '@tramo/domain';
import { seedLimaPrices, shipmentBody, FREIGHT_TRIP as TRIP } from './fixtures.ts';
import { validateUbl } from './support/ubl-xsd.ts';
import { DEMO_ISSUER } from '../src/providers/billing/index.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/*
 * The rows of issue #32's table that SUNAT or Nubefact refuse and the sandbox used to accept, each
 * sent through HTTP as the counter sends it: refused in Spanish with nothing numbered, or completed
 * as SUNAT expects. docs/sunat-rules.md names each test below by its title.
 */

const today = limaDay(new Date());
const dayAfter = (day: string, days: number) => new Date(Date.parse(`${day}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const COMPANY = { doc_type: 6, doc_number: '20100070970', name: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' };
const OTHER_COMPANY = { doc_type: 6, doc_number: '20131312955', name: 'TRANSPORTES ICA S.A.C.', address: 'Av. San Martín 120, Ica' };

/** A factura of S/ 708.00: 500.00 + 100.00 gravado, IGV 108.00 (SUNAT.md's example). */
const factura = (over: Record<string, unknown> = {}) => ({
  type: '01',
  serie: 'FFF1',
  issueDate: today,
  items: [
    { description: 'Servicio de transporte de carga Lima - Arequipa', unit: 'ZZ', quantity: 1, unitValue: '500', igvType: '10' },
    { description: 'Servicio de embalaje', unit: 'ZZ', quantity: 1, unitValue: '100', igvType: '10' },
  ],
  customer: COMPANY,
  ...over,
});

/** A credit note of `unitValue` + IGV against factura `serie`-`numero`. */
const creditNote = (serie: string, numero: number, unitValue: string, over: Record<string, unknown> = {}) => ({
  type: '07',
  serie: 'FFF1',
  issueDate: today,
  items: [{ description: 'Anulación de la operación', unit: 'ZZ', quantity: 1, unitValue, igvType: '10' }],
  customer: COMPANY,
  extras: {
    documento_que_se_modifica_tipo: '01',
    documento_que_se_modifica_serie: serie,
    documento_que_se_modifica_numero: numero,
    tipo_de_nota_de_credito: '01',
  },
  ...over,
});

describe.each(engines)('SUNAT rules at issue (%s)', (engine) => {
  let t: TestContext;
  let agent: string;
  let admin: string;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;

  beforeAll(async () => {
    billing = await sandboxBilling('sunat-rules');
    t = await startTestApp(engine, {
      providers: { billing: billing.provider },
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '150']] }),
    });
    billing.followClock(t.clock.now);
    [agent, admin] = await Promise.all([t.login('AGENTE1'), t.login('ADMIN')]);
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  const scalar = async (query: ReturnType<typeof sql>) => Number(((await t.database.db.execute(query)).rows[0] as { n: unknown }).n);
  const emit = (body: unknown) => t.call('POST', '/api/billing/create-emit', { token: agent, body });
  const lastNumber = (series: string) => scalar(sql`select coalesce(max(last_number), 0) as n from document_series where series = ${series}`);

  /** Sends `body`, expects a 422 whose problems include `problem`, and that the series took no number. */
  async function expectRefused(body: { serie: string }, problem: string) {
    const before = await lastNumber(body.serie);
    const res = await emit(body);
    expect(res.statusCode).toBe(422);
    expect(res.json().problems).toContain(problem);
    expect(res.json().error).toMatch(/^Corrige: /);
    expect(await lastNumber(body.serie)).toBe(before);
  }

  describe('row 2: a credit note is checked against the document it modifies', () => {
    it('2119: a note against a document not in the register is refused', async () => {
      await expectRefused(creditNote('FFF9', 999, '100'), CREDIT_NOTE_MESSAGES.notFound('FFF9-00000999'));
    });

    it('2120: a note against a voided factura is refused', async () => {
      const original = (await emit(factura({ serie: 'F720' }))).json();
      const voided = await t.call('POST', '/api/billing/void', { token: agent, body: { id: original.id, motivo: 'ERROR DEL SISTEMA' } });
      expect(voided.statusCode).toBe(200);
      await expectRefused(
        creditNote('F720', original.numero, '100'),
        CREDIT_NOTE_MESSAGES.voided(`F720-${String(original.numero).padStart(8, '0')}`),
      );
    });

    it('2121: a note against a factura SUNAT rejected is refused', async () => {
      billing.failures.emit.push('sunat-rejects');
      const original = (await emit(factura({ serie: 'F724' }))).json();
      expect(original.status).toBe('rechazado');
      await expectRefused(
        creditNote('F724', original.numero, '100'),
        CREDIT_NOTE_MESSAGES.rejected(`F724-${String(original.numero).padStart(8, '0')}`),
      );
    });

    it('a note to another customer than the factura is refused', async () => {
      const original = (await emit(factura({ serie: 'F721' }))).json();
      await expectRefused(
        creditNote('F721', original.numero, '100', { customer: OTHER_COMPANY }),
        CREDIT_NOTE_MESSAGES.otherCustomer(`F721-${String(original.numero).padStart(8, '0')}`),
      );
    });

    it('a note for S/ 5,900.00 on a S/ 708.00 factura is refused; one for what is left is issued', async () => {
      const original = (await emit(factura({ serie: 'F722' }))).json();
      expect(original.status).toBe('aceptado');
      const number = `F722-${String(original.numero).padStart(8, '0')}`;
      await expectRefused(creditNote('F722', original.numero, '5000'), CREDIT_NOTE_MESSAGES.exceeds(number, '708.00'));
      const first = await emit(creditNote('F722', original.numero, '100'));
      expect(first.statusCode).toBe(201);
      await expectRefused(creditNote('F722', original.numero, '500.01'), CREDIT_NOTE_MESSAGES.exceeds(number, '590.00'));
      const rest = await emit(creditNote('F722', original.numero, '500'));
      expect(rest.statusCode).toBe(201);
      await expectRefused(creditNote('F722', original.numero, '0.01'), CREDIT_NOTE_MESSAGES.exceeds(number, '0.00'));
    });

    it('of 10 notes of S/ 236.00 sent at once against a S/ 708.00 factura exactly 3 are issued (the factura is locked)', async () => {
      const original = (await emit(factura({ serie: 'F723' }))).json();
      const results = await Promise.all(Array.from({ length: 10 }, () => emit(creditNote('F723', original.numero, '200'))));
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(3);
      expect(results.filter((r) => r.statusCode === 422)).toHaveLength(7);
      expect(
        await scalar(sql`select count(*) as n from documents where type = '07' and modifies = ${`F723-${String(original.numero).padStart(8, '0')}`}`),
      ).toBe(3);
    });
  });

  describe('reason 13: a note that adjusts the instalments of a credit factura', () => {
    const adjustment = (serie: string, numero: number, installments: { fecha_de_pago: string; importe: string }[], unitValue = '0') =>
      creditNote(serie, numero, unitValue, {
        items: [{ description: 'Ajuste de cuotas y fechas de pago', unit: 'ZZ', quantity: 1, unitValue, igvType: '10' }],
        extras: {
          documento_que_se_modifica_tipo: '01',
          documento_que_se_modifica_serie: serie,
          documento_que_se_modifica_numero: numero,
          tipo_de_nota_de_credito: '13',
        },
        payment: { type: 'credito', installments },
      });

    it('13: a note for S/ 0 with the new instalments of what the factura owes is issued; other amounts and contado facturas are refused', async () => {
      const original = await emit(
        factura({ serie: 'F735', payment: { type: 'credito', installments: [{ fecha_de_pago: dayAfter(today, 30), importe: '708.00' }] } }),
      );
      expect(original.statusCode).toBe(201);
      const numero = original.json().numero as number;
      const split = [
        { fecha_de_pago: dayAfter(today, 45), importe: '354.00' },
        { fecha_de_pago: dayAfter(today, 75), importe: '354.00' },
      ];
      await expectRefused(adjustment('F735', numero, split, '100'), INVOICE_MESSAGES.creditNote.adjustmentZero(1));
      await expectRefused(
        adjustment('F735', numero, [{ fecha_de_pago: dayAfter(today, 45), importe: '700.00' }]),
        CREDIT_NOTE_MESSAGES.adjustmentSum('700.00', '708.00', `F735-${String(numero).padStart(8, '0')}`),
      );
      const cash = (await emit(factura({ serie: 'F736' }))).json();
      await expectRefused(
        adjustment('F736', cash.numero, split),
        CREDIT_NOTE_MESSAGES.adjustmentNotCredit(`F736-${String(cash.numero).padStart(8, '0')}`),
      );

      const res = await emit(adjustment('F735', numero, split));
      expect(res.statusCode).toBe(201);
      const xml = (await t.call('GET', `/api/billing/documents/${res.json().id}/xml`, { token: agent })).body;
      expect(xml).toContain('<cbc:ResponseCode>13</cbc:ResponseCode>');
      expect(xml).toContain('<cbc:PayableAmount currencyID="PEN">0.00</cbc:PayableAmount>');
      expect(xml).toContain('<cbc:PaymentMeansID>Credito</cbc:PaymentMeansID><cbc:Amount currencyID="PEN">708.00</cbc:Amount>');
      expect(xml.match(/<cbc:PaymentMeansID>Cuota00\d<\/cbc:PaymentMeansID>/g)).toHaveLength(2);
      expect(validateUbl(xml)).toMatchObject({ valid: true, errors: [] });
    });

    it("the credit-note form's picker lists the customer's accepted documents with what is left to credit", async () => {
      const original = (await emit(factura({ serie: 'F737' }))).json();
      expect((await emit(creditNote('F737', original.numero, '100'))).statusCode).toBe(201);
      const picked = await t.call('GET', `/api/billing/creditable?customerDocNumber=${COMPANY.doc_number}&q=F737-${original.numero}`, {
        token: agent,
      });
      expect(picked.statusCode).toBe(200);
      expect(picked.json()).toEqual([
        expect.objectContaining({ id: original.id, type: '01', series: 'F737', total: 708, creditable: 590, paymentForm: 'contado' }),
      ]);
      const all = (await t.call('GET', `/api/billing/creditable?customerDocNumber=${COMPANY.doc_number}`, { token: agent })).json() as {
        series: string;
      }[];
      // Neither the voided F720 nor the rejected F724 is offered.
      expect(all.map((d) => d.series)).toEqual(expect.arrayContaining(['F737', 'F735']));
      expect(all.map((d) => d.series)).not.toContain('F720');
      expect(all.map((d) => d.series)).not.toContain('F724');
      expect((await t.call('GET', '/api/billing/creditable?q=SUPERMERCADOS', { token: agent })).json().length).toBeGreaterThan(0);
    });
  });

  describe('rows 3 and 4: instalments', () => {
    const credit = (installments: { fecha_de_pago: string; importe: string }[]) =>
      factura({ serie: 'F730', payment: { type: 'credito', installments } });

    it('3265: instalments adding up to the total + 0.01 are refused; exactly the total is issued with Credito 708.00', async () => {
      const due = dayAfter(today, 30);
      await expectRefused(
        credit([
          { fecha_de_pago: due, importe: '400.00' },
          { fecha_de_pago: dayAfter(today, 60), importe: '308.01' },
        ]),
        INSTALMENT_MESSAGES.sum('708.01', '708.00'),
      );
      const res = await emit(
        credit([
          { fecha_de_pago: due, importe: '400.00' },
          { fecha_de_pago: dayAfter(today, 60), importe: '308.00' },
        ]),
      );
      expect(res.statusCode).toBe(201);
      const xml = (await t.call('GET', `/api/billing/documents/${res.json().id}/xml`, { token: agent })).body;
      expect(xml).toMatch(/<cbc:PaymentMeansID>Credito<\/cbc:PaymentMeansID>\s*<cbc:Amount currencyID="PEN">708.00<\/cbc:Amount>/);
      expect(xml).toContain('<cbc:PayableAmount currencyID="PEN">708.00</cbc:PayableAmount>');
    });

    it('3267: an instalment due on the issue date is refused', async () => {
      await expectRefused(credit([{ fecha_de_pago: today, importe: '708.00' }]), INSTALMENT_MESSAGES.dueDateBeforeIssue(1));
    });
  });

  it('row 5, 1001: a 2-character series F1 is refused and takes no number', async () => {
    await expectRefused(factura({ serie: 'F1' }), SERIES_MESSAGES.length);
    expect(await scalar(sql`select count(*) as n from document_series where series = 'F1'`)).toBe(0);
  });

  it('row 6, 1036: the XML file is named with the number as in cbc:ID, unpadded', async () => {
    const res = (await emit(factura({ serie: 'F760' }))).json();
    const xml = await t.call('GET', `/api/billing/documents/${res.id}/xml`, { token: agent });
    expect(xml.body).toContain(`<cbc:ID>F760-${res.numero}</cbc:ID>`);
    expect(xml.headers.get('content-disposition')).toBe(`attachment; filename="${DEMO_ISSUER.ruc}-01-F760-${res.numero}.xml"`);
  });

  describe('row 1: a freight detracción factura carries its trip', () => {
    const detraccion = (viaje: Record<string, unknown>) =>
      factura({
        serie: 'F710',
        extras: {
          detraccion: true,
          detraccion_porcentaje: 4,
          detraccion_total: 38,
          cuenta_detraccion: '00-005-123456',
          medio_de_pago_detraccion: 1,
          viaje,
        },
      });

    it('3116, 3124-3126: a trip without origin or reference values is refused, naming each', async () => {
      const res = await emit(detraccion({ ...TRIP, ubigeo_origen: '', val_ref_carga_util: '' }));
      expect(res.statusCode).toBe(422);
      expect(res.json().problems).toEqual(expect.arrayContaining([FREIGHT_TRIP_MESSAGES.originUbigeo, FREIGHT_TRIP_MESSAGES.nominalLoadReference]));
      expect(res.json().problems).not.toContain(FREIGHT_TRIP_MESSAGES.destinationUbigeo);
    });

    it('3116, 3124-3126: a detracción factura without any trip is refused, naming all eight parts', async () => {
      await expectRefused(detraccion(null as unknown as Record<string, unknown>), FREIGHT_TRIP_MESSAGES.originUbigeo);
      const res = await emit({ ...detraccion({}), serie: 'F711' });
      expect(res.statusCode).toBe(422);
      expect(res.json().problems).toEqual(
        expect.arrayContaining([
          FREIGHT_TRIP_MESSAGES.originUbigeo,
          FREIGHT_TRIP_MESSAGES.originAddress,
          FREIGHT_TRIP_MESSAGES.destinationUbigeo,
          FREIGHT_TRIP_MESSAGES.destinationAddress,
          FREIGHT_TRIP_MESSAGES.detail,
          FREIGHT_TRIP_MESSAGES.serviceReference,
          FREIGHT_TRIP_MESSAGES.effectiveLoadReference,
          FREIGHT_TRIP_MESSAGES.nominalLoadReference,
        ]),
      );
    });

    it("'Facturar envíos' fills the trip from the shipments' branches and the route's reference values, and the factura is issued", async () => {
      const lima = t.branchIds.get('Lima')!;
      const arequipa = t.branchIds.get('Arequipa')!;
      const route = { originBranchId: lima, destinationBranchId: arequipa };
      const values = { ...route, servicePerTm: '111.10', effectiveLoadTm: 5, nominalLoadTm: '8' };
      expect((await t.call('PUT', '/api/pricing/reference-values', { token: agent, body: values })).statusCode).toBe(403);
      const bad = await t.call('PUT', '/api/pricing/reference-values', { token: admin, body: { ...values, effectiveLoadTm: 9 } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error).toContain('La carga efectiva no puede superar la carga útil nominal');
      const put = await t.call('PUT', '/api/pricing/reference-values', { token: admin, body: values });
      expect(put.statusCode).toBe(200);
      expect(put.json()).toMatchObject({ originName: 'Lima', destinationName: 'Arequipa', service: 888.8, effectiveLoad: 555.5, nominalLoad: 888.8 });
      expect((await t.call('GET', '/api/pricing/reference-values', { token: agent })).json()).toHaveLength(1);

      const customer = await t.call('POST', '/api/customers', {
        token: agent,
        body: { doc_type: 6, doc_number: '20601030013', firstName: 'AGROINDUSTRIAS DEL SUR S.A.C.', address: 'Av. Los Incas 250, Arequipa' },
      });
      expect(customer.statusCode).toBe(201);
      for (let i = 0; i < 2; i++) {
        const s = await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route, { senderCustomerId: customer.json().id }) });
        expect(s.statusCode).toBe(201);
      }
      const unbilled = (
        await t.call('GET', `/api/billing/unbilled-shipments?customerId=${customer.json().id}`, { token: agent })
      ).json() as UnbilledShipment[];
      expect(unbilled[0]).toMatchObject({ originUbigeo: '150101', destinationUbigeo: '040101', reference: { service: 888.8 } });
      const c = customer.json();
      const form = invoiceFromShipments(
        { id: c.id, doc_type: 6, doc_number: c.doc_number, name: 'AGROINDUSTRIAS DEL SUR S.A.C.', address: c.address },
        unbilled,
        today,
      );
      expect(form.detraction.trip).toMatchObject({ originUbigeo: '150101', serviceReference: '888.80', effectiveLoadReference: '555.50' });
      form.detraction = { ...form.detraction, bankAccount: '00-051-123456', paymentMeans: '1' };
      const res = await emit(invoicePayloadFromForm(form));
      expect(res.statusCode).toBe(201);
      const xml = (await t.call('GET', `/api/billing/documents/${res.json().id}/xml`, { token: agent })).body;
      expect(xml).toContain('listID="1004"');
      expect(xml).toContain('<cac:DeliveryTerms><cbc:ID>01</cbc:ID><cbc:Amount currencyID="PEN">888.80</cbc:Amount>');
      // 4 % of the reference value (S/ 888.80 > the S/ 750.00 charged), in whole soles.
      expect(xml).toMatch(/<cbc:PaymentPercent>4(\.00)?<\/cbc:PaymentPercent><cbc:Amount currencyID="PEN">36.00<\/cbc:Amount>/);
    });

    it("the detracción factura's XML and its credit note's validate against the UBL 2.1 XSD, with cac:Delivery and three cac:DeliveryTerms per line", async () => {
      const res = await emit({ ...detraccion(TRIP), serie: 'F712' });
      expect(res.statusCode).toBe(201);
      const xml = (await t.call('GET', `/api/billing/documents/${res.json().id}/xml`, { token: agent })).body;
      expect(validateUbl(xml)).toMatchObject({ valid: true, errors: [], schema: '2.1/maindoc/UBL-Invoice-2.1.xsd' });
      for (const line of xml.split('<cac:InvoiceLine>').slice(1)) {
        expect(line.match(/<cac:Delivery>/g)).toHaveLength(1);
        expect(line.match(/<cac:DeliveryTerms>/g)).toHaveLength(3);
      }
      const note = await emit(creditNote('F712', res.json().numero, '100'));
      expect(note.statusCode).toBe(201);
      const noteXml = (await t.call('GET', `/api/billing/documents/${note.json().id}/xml`, { token: agent })).body;
      expect(validateUbl(noteXml)).toMatchObject({ valid: true, errors: [], schema: '2.1/maindoc/UBL-CreditNote-2.1.xsd' });
    });

    it('operation 1004 with cac:Delivery and three cac:DeliveryTerms on every line', async () => {
      const res = await emit(detraccion(TRIP));
      expect(res.statusCode).toBe(201);
      const xml = (await t.call('GET', `/api/billing/documents/${res.json().id}/xml`, { token: agent })).body;
      expect(xml).toContain('listID="1004"');
      const lines = xml.split('<cac:InvoiceLine>').slice(1);
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        expect(line.match(/<cac:Delivery>/g)).toHaveLength(1);
        expect(line).toContain('<cac:DespatchAddress><cbc:ID schemeAgencyName="PE:INEI" schemeName="Ubigeos">150101</cbc:ID>');
        expect(line).toContain('<cbc:Instructions>Carga consolidada Lima - Arequipa</cbc:Instructions>');
        expect(
          [...line.matchAll(/<cac:DeliveryTerms><cbc:ID>(\d\d)<\/cbc:ID><cbc:Amount currencyID="PEN">([\d.]+)<\/cbc:Amount>/g)].map(
            (m) => `${m[1]} ${m[2]}`,
          ),
        ).toEqual(['01 950.00', '02 820.50', '03 1200.00']);
      }
    });
  });

  describe('row 7: a factura needs the customer address', () => {
    it('a factura to a RUC with no address typed and none found by its RUC is refused, naming the address', async () => {
      const { address: _none, ...withoutAddress } = OTHER_COMPANY;
      await expectRefused(factura({ serie: 'F770', customer: withoutAddress }), INVOICE_MESSAGES.facturaNeedsAddress);
      await expectRefused(factura({ serie: 'F770', customer: { ...OTHER_COMPANY, address: '   ' } }), INVOICE_MESSAGES.facturaNeedsAddress);
    });

    it('a factura to a RUC without a typed address takes the address its RUC lookup answers', async () => {
      const registered = await t.call('POST', '/api/customers', {
        token: agent,
        body: { doc_type: 6, doc_number: COMPANY.doc_number, firstName: COMPANY.name, address: COMPANY.address },
      });
      expect(registered.statusCode).toBe(201);
      const { address: _none, ...withoutAddress } = COMPANY;
      const res = await emit(factura({ serie: 'F771', customer: withoutAddress }));
      expect(res.statusCode).toBe(201);
      const detail = (await t.call('GET', `/api/billing/lookup/${res.json().id}`, { token: agent })).json();
      expect(detail.customerAddress).toBe(COMPANY.address);
    });
  });
});
