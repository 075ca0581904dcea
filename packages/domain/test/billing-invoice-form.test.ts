import { describe, expect, it } from 'vitest';
import {
  checkInvoice,
  FREIGHT_TRIP_MESSAGES,
  invoiceProblems,
  tripFromShipments,
  creditNoteFrom,
  emptyInvoiceForm,
  formCustomer,
  formSeries,
  invoiceFromShipments,
  invoicePayloadFromForm,
  previewTotals,
  unitValueOfPrice,
  type DocumentDetail,
  type UnbilledShipment,
} from '../src/index.ts';

const TODAY = '2026-05-15';
const RUC = '20100070970';
const corporate = { id: 7, doc_type: 6, doc_number: RUC, name: 'Textiles Andinos SAC', address: 'Av. Argentina 100', email: null };
const person = { id: 8, doc_type: 1, doc_number: '45678912', name: 'Rosa Quispe' };

const shipment = (id: number, price: number, code = `TMT-${String(id).padStart(6, '0')}`): UnbilledShipment => ({
  id,
  code,
  createdAt: '2026-05-10T15:00:00.000Z',
  originName: 'Lima',
  destinationName: 'Arequipa',
  status: 'Creado',
  price,
  originUbigeo: '150101',
  originAddress: 'Av. Javier Prado Este 1450, San Isidro',
  destinationUbigeo: '040101',
  destinationAddress: 'Av. Ejército 710, Cayma',
  reference: { service: 888.8, effectiveLoad: 555.5, nominalLoad: 888.8 },
});

describe('the issuing form', () => {
  it('starts as a boleta BBB1 dated today and sends a payload the rules accept once filled', () => {
    const v = emptyInvoiceForm(TODAY);
    expect([v.type, v.serie, v.issueDate]).toEqual(['03', 'BBB1', TODAY]);
    v.customer = { docType: '1', docNumber: '45678912', name: 'Rosa Quispe', address: '', email: '' };
    v.items = [{ code: '', description: 'Embalaje', unit: 'NIU', quantity: '2', unitValue: '10', igvType: '10', discount: '' }];
    const check = checkInvoice(invoicePayloadFromForm(v, 'abc'), { today: TODAY });
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.draft.totals.totalCents).toBe(2360);
  });

  it('proposes the series of its type, the credit note of a factura, and 0001 in contingency', () => {
    const v = emptyInvoiceForm(TODAY);
    expect(formSeries({ ...v, type: '01' }, TODAY)).toBe('FFF1');
    expect(formSeries({ ...v, type: '07', creditNote: { ...v.creditNote, modifiedType: '03' } }, TODAY)).toBe('BBB1');
    expect(formSeries({ ...v, type: '07', creditNote: { ...v.creditNote, modifiedType: '01' } }, TODAY)).toBe('FFF1');
    expect(formSeries({ ...v, issueDate: '2026-05-14' }, TODAY)).toBe('0001');
  });

  it('totals what already reads as a line and ignores the rest while the user types', () => {
    const t = previewTotals([
      { quantity: '1', unitValue: '100', discount: '', igvType: '10' },
      { quantity: '3', unitValue: '', discount: '', igvType: '10' },
      { quantity: '2', unitValue: '5.50', discount: '1', igvType: '20' },
      { quantity: '1', unitValue: '20', discount: '', igvType: '30' },
      { quantity: 'x', unitValue: '20', discount: '', igvType: '30' },
      { quantity: '1', unitValue: '20', discount: '25', igvType: '10' },
    ]);
    expect(t).toMatchObject({ gravadaCents: 10000, exoneradaCents: 1000, inafectaCents: 2000, igvCents: 1800, totalCents: 14800 });
  });

  it('sends the customer either by id or by its fields, never both', () => {
    const v = { ...emptyInvoiceForm(TODAY), customerId: 7 };
    expect(invoicePayloadFromForm(v).customer).toBeNull();
    expect(invoicePayloadFromForm({ ...v, customerId: null }).customerId).toBeNull();
    expect(formCustomer({ customer: { docType: '6', docNumber: ` ${RUC} `, name: 'X', address: '', email: '' } })).toEqual({
      docType: 6,
      docNumber: RUC,
      name: 'X',
      address: null,
      email: null,
    });
  });
});

describe('billing a customer’s shipments', () => {
  it('makes a factura for a RUC with one line per shipment at its price, IGV included', () => {
    const v = invoiceFromShipments(corporate, [shipment(1, 118), shipment(2, 59)], TODAY);
    expect(v.type).toBe('01');
    expect(v.serie).toBe('FFF1');
    expect(v.customerId).toBe(7);
    expect(v.shipmentIds).toEqual([1, 2]);
    expect(v.items[0]).toMatchObject({
      code: 'TMT-000001',
      description: 'Servicio de transporte de carga TMT-000001 Lima → Arequipa',
      unit: 'ZZ',
      unitValue: '100',
    });
    expect(previewTotals(v.items).totalCents).toBe(17700);
    expect(v.detraction.enabled).toBe(false);
  });

  it('makes a boleta for a DNI', () => {
    expect(invoiceFromShipments(person, [shipment(1, 30)], TODAY).type).toBe('03');
  });

  it('pre-fills the freight detracción above S/ 400: 027, 4 %, whole soles; the user adds account and means', () => {
    const v = invoiceFromShipments(corporate, [shipment(1, 236), shipment(2, 236)], TODAY);
    expect(previewTotals(v.items).totalCents).toBe(47200);
    // 4 % of the route's service reference value (S/ 888.80 > 472.00), in whole soles.
    expect(v.detraction).toEqual({
      enabled: true,
      percent: '4',
      amount: '36.00',
      bankAccount: '',
      paymentMeans: '',
      trip: {
        originUbigeo: '150101',
        originAddress: 'Av. Javier Prado Este 1450, San Isidro',
        destinationUbigeo: '040101',
        destinationAddress: 'Av. Ejército 710, Cayma',
        detail: 'Transporte de carga por carretera: Lima → Arequipa (2 envíos)',
        serviceReference: '888.80',
        effectiveLoadReference: '555.50',
        nominalLoadReference: '888.80',
      },
    });
    const incomplete = checkInvoice(invoicePayloadFromForm(v), { today: TODAY, customer: formCustomer(v) });
    expect(incomplete.ok).toBe(false);
    const done = checkInvoice(invoicePayloadFromForm({ ...v, detraction: { ...v.detraction, bankAccount: '00012345678', paymentMeans: '1' } }), {
      today: TODAY,
      customer: formCustomer(v),
    });
    expect(done.ok).toBe(true);
    if (done.ok) expect(done.draft.detraction?.amountCents).toBe(3600);
  });

  it("pre-fills the trip of shipments on two routes: the first one's branches, each route's reference values once", () => {
    const cusco = {
      ...shipment(3, 300),
      destinationName: 'Cusco',
      destinationUbigeo: '080101',
      reference: { service: 100, effectiveLoad: 50, nominalLoad: 100 },
    };
    const trip = tripFromShipments([shipment(1, 236), cusco, shipment(2, 236)]);
    expect(trip).toMatchObject({
      originUbigeo: '150101',
      destinationUbigeo: '040101',
      detail: 'Transporte de carga por carretera: Lima → Arequipa (2 envíos); Lima → Cusco (1 envío)',
      serviceReference: '988.80',
      effectiveLoadReference: '605.50',
      nominalLoadReference: '988.80',
    });
    // A route without configured values leaves them for the user to type.
    expect(tripFromShipments([shipment(1, 236), { ...cusco, reference: null }]).serviceReference).toBe('');
    // Without any trip the factura is refused naming each part (SUNAT 3116, 3124-3126).
    const v = invoiceFromShipments(corporate, [{ ...shipment(1, 500), originUbigeo: null, reference: null }], TODAY);
    const problems = invoiceProblems(
      invoicePayloadFromForm({ ...v, detraction: { ...v.detraction, bankAccount: '00012345678', paymentMeans: '1' } }),
      {
        today: TODAY,
        customer: formCustomer(v),
      },
    );
    expect(problems).toEqual(expect.arrayContaining([FREIGHT_TRIP_MESSAGES.originUbigeo, FREIGHT_TRIP_MESSAGES.serviceReference]));
  });

  it('keeps exactly S/ 400.00 without detracción (the rule is "more than")', () => {
    expect(invoiceFromShipments(corporate, [shipment(1, 400)], TODAY).detraction.enabled).toBe(false);
  });

  it('turns a price into a unit value whose line totals it to the céntimo when SUNAT rounding allows it', () => {
    const total = (cents: number) => previewTotals([{ quantity: '1', unitValue: unitValueOfPrice(cents), discount: '', igvType: '10' }]).totalCents;
    // Every total a one-unit gravado line can reach (net n → n + round(0.18 n)), found by brute force.
    const reachable = new Set(Array.from({ length: 5000 }, (_, n) => n + Math.floor((n * 18 + 50) / 100)));
    for (let cents = 1; cents < 5000; cents++) {
      if (reachable.has(cents)) expect(total(cents)).toBe(cents);
    }
    for (const cents of [2500, 11800]) expect(total(cents)).toBe(cents);
    // No net n has n + round(0.18 n) = 39.50 (3347 → 39.49, 3348 → 39.51): one céntimo off, never more.
    expect(Math.abs(total(3950) - 3950)).toBe(1);
    for (let cents = 1; cents < 5000; cents++) expect(Math.abs(total(cents) - cents)).toBeLessThanOrEqual(1);
    expect(unitValueOfPrice(11800)).toBe('100');
    expect(unitValueOfPrice(2500)).toBe('21.19');
  });
});

describe('a credit note from an issued document', () => {
  const doc = {
    id: 3,
    type: '01',
    series: 'FFF1',
    number: 12,
    customerId: 7,
    customerDocType: '6',
    customerDocNumber: RUC,
    customerName: 'Textiles Andinos SAC',
    customerAddress: null,
    customerEmail: null,
    lines: [{ description: 'Flete', unit: 'ZZ', quantity: '1', unitValue: '100', igvType: '10', discount: 0, taxable: 100, igv: 18, total: 118 }],
  } as unknown as DocumentDetail;

  it('relates the document, forces FFF1 for a factura and copies customer and lines', () => {
    const v = creditNoteFrom(doc, TODAY);
    expect(v).not.toBeNull();
    expect(v!.type).toBe('07');
    expect(v!.serie).toBe('FFF1');
    expect(v!.creditNote).toEqual({ modifiedType: '01', modifiedSeries: 'FFF1', modifiedNumber: '12', reason: '' });
    expect(v!.items).toHaveLength(1);
    const check = checkInvoice(invoicePayloadFromForm({ ...v!, creditNote: { ...v!.creditNote, reason: '01' } }), {
      today: TODAY,
      customer: formCustomer(v!),
    });
    expect(check.ok).toBe(true);
  });

  it('is not offered on a credit note', () => {
    expect(creditNoteFrom({ ...doc, type: '07' }, TODAY)).toBeNull();
  });
});
