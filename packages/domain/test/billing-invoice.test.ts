import { describe, expect, it } from 'vitest';
import {
  checkInvoice,
  CUSTOMER_MESSAGES,
  INSTALMENT_MESSAGES,
  INVOICE_MESSAGES,
  invoiceProblems,
  paymentReceiptDraft,
  SERIES_MESSAGES,
  type BillingCustomer,
  type InvoiceContext,
  type InvoicePayloadInput,
} from '../src/index.ts';

const TODAY = '2026-05-15';
const ctx: InvoiceContext = { today: TODAY };
const RUC = '20100070970';

type Payload = InvoicePayloadInput & { extras?: Record<string, unknown>; customer?: Record<string, unknown> | null };

function factura(over: Partial<Payload> = {}): Payload {
  return {
    type: '01',
    issueDate: TODAY,
    serie: 'FFF1',
    items: [{ description: 'Servicio de transporte de carga TMT-000123 Lima → Arequipa', unit: 'ZZ', quantity: 1, unitValue: 100, igvType: '10' }],
    customer: { doc_type: 6, doc_number: RUC, name: 'Supermercados Peruanos S.A.', address: 'Av. Morro Solar 1130, Surco' },
    ...over,
  };
}

const boleta = (over: Partial<Payload> = {}): Payload =>
  factura({ type: '03', serie: 'BBB1', customer: { doc_type: 1, doc_number: '70606878', name: 'Ana Quispe' }, ...over });

const creditNote = (extras: Record<string, unknown> = {}, over: Partial<Payload> = {}): Payload =>
  factura({
    type: '07',
    serie: 'FFF1',
    extras: {
      documento_que_se_modifica_tipo: '01',
      documento_que_se_modifica_serie: 'FFF1',
      documento_que_se_modifica_numero: 12,
      tipo_de_nota_de_credito: '01',
      ...extras,
    },
    ...over,
  });

/** A trip whose service reference value (S/ 300.00) stays below the facturas' totals here. */
const TRIP = {
  ubigeo_origen: '150101',
  direccion_origen: 'Av. Javier Prado Este 1450, San Isidro',
  ubigeo_destino: '040101',
  direccion_destino: 'Av. Ejército 710, Cayma',
  detalle_viaje: 'Transporte de carga por carretera: Lima → Arequipa',
  val_ref_serv_trans: '300.00',
  val_ref_carga_efec: '250.00',
  val_ref_carga_util: '300.00',
};

/** A factura of 1,000.00 + IGV = 1,180.00 with its detracción of 47.00. */
const withDetraction = (extras: Record<string, unknown> = {}, over: Partial<Payload> = {}): Payload =>
  factura({
    items: [{ description: 'Flete Lima → Arequipa', unit: 'ZZ', quantity: 1, unitValue: 1000, igvType: '10' }],
    extras: {
      detraccion: true,
      detraccion_porcentaje: 4,
      detraccion_total: 47,
      cuenta_detraccion: '00-101-123456',
      medio_de_pago_detraccion: 1,
      viaje: TRIP,
      ...extras,
    },
    ...over,
  });

const problems = (payload: unknown, c: InvoiceContext = ctx) => invoiceProblems(payload, c);

describe('a valid document', () => {
  it('factura, boleta and credit note pass and come back computed', () => {
    expect(problems(factura())).toEqual([]);
    expect(problems(boleta())).toEqual([]);
    expect(problems(creditNote())).toEqual([]);
    const check = checkInvoice(factura(), ctx);
    expect(check.ok && check.draft).toMatchObject({
      type: '01',
      series: 'FFF1',
      contingency: false,
      operationType: '0101',
      totals: { gravadaCents: 10_000, igvCents: 1_800, totalCents: 11_800 },
      payment: { form: 'contado', instalments: [] },
      customer: { docType: 6, docNumber: RUC },
    });
  });

  it('reads the spec field names as the form sends them (numbers as text, type as a number)', () => {
    const check = checkInvoice(
      { ...factura(), type: 1, serie: 'fff1', items: [{ description: 'Flete', quantity: '2', unitValue: '50.00', igvType: 10, discount: '' }] },
      ctx,
    );
    expect(check.ok && check.draft.totals.totalCents).toBe(11_800);
  });

  it('takes a registered customer from the context', () => {
    const customer: BillingCustomer = {
      docType: 6,
      docNumber: RUC,
      name: 'Supermercados Peruanos S.A.',
      address: 'Av. Morro Solar 1130, Surco',
      email: null,
    };
    const check = checkInvoice({ ...factura(), customer: null, customerId: 5 }, { today: TODAY, customer });
    expect(check.ok && check.draft.customerId).toBe(5);
    expect(problems({ ...factura(), customer: null, customerId: 5 })).toEqual([INVOICE_MESSAGES.customerNotFound]);
  });
});

describe("every rule of spec section 5 and its 'Corrige:' line", () => {
  it('document type is 01, 03 or 07', () => {
    expect(problems(factura({ type: '09' }))).toContain(INVOICE_MESSAGES.typeInvalid);
  });

  it('currency is PEN', () => {
    expect(problems(factura({ currency: 'USD' }))).toEqual([INVOICE_MESSAGES.currency]);
  });

  it('issue date is required, valid and not in the future', () => {
    expect(problems(factura({ issueDate: '' }))).toEqual([INVOICE_MESSAGES.issueDateRequired]);
    expect(problems(factura({ issueDate: '2026-02-30' }))).toEqual([INVOICE_MESSAGES.issueDateInvalid]);
    expect(problems(factura({ issueDate: '2026-05-16' }))).toEqual([INVOICE_MESSAGES.issueDateFuture]);
  });

  it('a past issue date is contingency, with a series starting with 0', () => {
    expect(problems(factura({ issueDate: '2026-05-14' }))).toEqual([SERIES_MESSAGES.contingency]);
    const check = checkInvoice(factura({ issueDate: '2026-05-14', serie: '0001' }), ctx);
    expect(check.ok && check.draft.contingency).toBe(true);
    expect(problems(factura({ extras: { generado_por_contingencia: true } }))).toEqual([INVOICE_MESSAGES.contingencyFlag]);
  });

  it('series rules', () => {
    expect(problems(factura({ serie: '' }))).toEqual([SERIES_MESSAGES.required]);
    expect(problems(factura({ serie: 'F0001' }))).toEqual([SERIES_MESSAGES.length]);
    expect(problems(factura({ serie: 'BBB1' }))).toEqual(['La serie de una factura debe empezar con F.']);
    expect(problems(boleta({ serie: 'FFF1' }))).toEqual(['La serie de una boleta debe empezar con B.']);
    expect(problems(creditNote({}, { serie: 'BBB1' }))).toEqual(['La serie de una nota de crédito que modifica una factura es FFF1.']);
    expect(
      problems(
        creditNote({ documento_que_se_modifica_tipo: '03' }, { serie: 'FFF1', customer: { doc_type: 1, doc_number: '70606878', name: 'Ana' } }),
      ),
    ).toEqual(['La serie de una nota de crédito que modifica una boleta es BBB1.']);
  });

  it('at least one item', () => {
    expect(problems(factura({ items: [] }))).toEqual([INVOICE_MESSAGES.itemsRequired]);
  });

  it('each item: description, unit, quantity, unit value, IGV type, discount', () => {
    const item = { description: 'Flete', unit: 'ZZ', quantity: 1, unitValue: 100, igvType: '10' };
    const one = (over: Record<string, unknown>) => problems(factura({ items: [item, { ...item, ...over }] }));
    expect(one({ description: '' })).toEqual([INVOICE_MESSAGES.item.description(2)]);
    expect(one({ description: 'x'.repeat(251) })).toEqual([INVOICE_MESSAGES.item.descriptionLong(2)]);
    expect(one({ unit: 'KG' })).toEqual([INVOICE_MESSAGES.item.unit(2)]);
    expect(one({ quantity: 0 })).toEqual([INVOICE_MESSAGES.item.quantity(2)]);
    expect(one({ quantity: 'dos' })).toEqual([INVOICE_MESSAGES.item.quantity(2)]);
    expect(one({ quantity: '1.00000000001' })).toEqual([INVOICE_MESSAGES.item.quantityDecimals(2)]);
    expect(one({ unitValue: -5 })).toEqual([INVOICE_MESSAGES.item.unitValue(2)]);
    expect(one({ unitValue: '0.00000000001' })).toEqual([INVOICE_MESSAGES.item.unitValueDecimals(2)]);
    expect(one({ igvType: '40' })).toEqual([INVOICE_MESSAGES.item.igvType(2)]);
    expect(one({ igvPercent: 10 })).toEqual([INVOICE_MESSAGES.item.igvPercent(2)]);
    expect(one({ igvType: '20', igvPercent: 18 })).toEqual([INVOICE_MESSAGES.item.igvPercent(2)]);
    expect(one({ igvType: '20', igvPercent: 0 })).toEqual([]);
    expect(one({ discount: '0.001' })).toEqual([INVOICE_MESSAGES.item.discount(2)]);
    expect(one({ discount: -1 })).toEqual([INVOICE_MESSAGES.item.discount(2)]);
    expect(one({ discount: '100.01' })).toEqual([INVOICE_MESSAGES.item.discountTooBig(2)]);
    expect(one({ quantity: 1, unitValue: 100_000_000 })).toEqual([INVOICE_MESSAGES.item.tooLarge(2)]);
  });

  it('the whole document stays below the maximum', () => {
    const item = { description: 'Flete', unit: 'ZZ', quantity: 1, unitValue: 50_000_000, igvType: '20' };
    expect(problems(factura({ items: [item, item] }))).toEqual([INVOICE_MESSAGES.totalTooLarge]);
  });

  it('customer: an id, or document type, number and name', () => {
    expect(problems(factura({ customer: null }))).toEqual([INVOICE_MESSAGES.customerRequired]);
    expect(problems(factura({ customer: { doc_type: 6, doc_number: '', name: 'X' } }))).toEqual([INVOICE_MESSAGES.customerRequired]);
    expect(problems(factura({ customer: { doc_type: '', doc_number: RUC, name: 'X' } }))).toEqual([INVOICE_MESSAGES.customerDocType]);
    expect(problems(factura({ customer: { doc_type: 9, doc_number: RUC, name: 'X' } }))).toEqual([INVOICE_MESSAGES.customerDocType]);
    expect(problems(factura({ customer: { doc_type: 6, doc_number: RUC, name: '', address: 'Lima' } }))).toEqual([INVOICE_MESSAGES.customerName]);
    expect(problems(factura({ customer: { doc_type: 6, doc_number: RUC, name: 'X', email: 'no-es-correo', address: 'Lima' } }))).toEqual([
      INVOICE_MESSAGES.customerEmail,
    ]);
  });

  it('a factura needs an 11-digit RUC with a valid check digit', () => {
    expect(problems(factura({ customer: { doc_type: 1, doc_number: '70606878', name: 'Ana', address: 'Lima' } }))).toEqual([
      INVOICE_MESSAGES.facturaNeedsRuc,
    ]);
    expect(problems(factura({ customer: { doc_type: 6, doc_number: '2010007097', name: 'X', address: 'Lima' } }))).toEqual([
      CUSTOMER_MESSAGES.rucLength,
    ]);
    expect(problems(factura({ customer: { doc_type: 6, doc_number: '20100070971', name: 'X', address: 'Lima' } }))).toEqual([
      CUSTOMER_MESSAGES.rucCheckDigit,
    ]);
    expect(problems(factura({ customer: { doc_type: 6, doc_number: '30100070970', name: 'X', address: 'Lima' } }))).toEqual([
      CUSTOMER_MESSAGES.rucPrefix,
    ]);
  });

  it("a factura needs the customer's address (Nubefact error 20 for an empty cliente_direccion)", () => {
    expect(problems(factura({ customer: { doc_type: 6, doc_number: RUC, name: 'X' } }))).toEqual([INVOICE_MESSAGES.facturaNeedsAddress]);
    expect(problems(factura({ customer: { doc_type: 6, doc_number: RUC, name: 'X', address: '  ' } }))).toEqual([
      INVOICE_MESSAGES.facturaNeedsAddress,
    ]);
    expect(problems(factura({ customer: { doc_type: 6, doc_number: RUC, name: 'X', address: 'Av. Arequipa 100, Lima' } }))).toEqual([]);
  });

  it("a boleta checks the customer's document, and needs one above S/ 700", () => {
    expect(problems(boleta({ customer: { doc_type: 1, doc_number: '7060687', name: 'Ana' } }))).toEqual([CUSTOMER_MESSAGES.dniLength]);
    expect(problems(boleta({ customer: { doc_type: 0, doc_number: '', name: 'Clientes varios' } }))).toEqual([]);
    // 600.00 + IGV = 708.00 > 700.00
    const big = [{ description: 'Flete', unit: 'ZZ', quantity: 1, unitValue: 600, igvType: '10' }];
    expect(problems(boleta({ items: big, customer: { doc_type: 0, doc_number: '', name: 'Clientes varios' } }))).toEqual([
      INVOICE_MESSAGES.boletaWithoutDocument,
    ]);
    expect(problems(boleta({ items: big }))).toEqual([]);
  });

  it('credit note: reason 01–10 or 13, modified type 01 or 03, series, number > 0 unless reason 10', () => {
    expect(problems(creditNote({ tipo_de_nota_de_credito: '' }))).toEqual([INVOICE_MESSAGES.creditNote.reason]);
    expect(problems(creditNote({ tipo_de_nota_de_credito: '14' }))).toEqual([INVOICE_MESSAGES.creditNote.reason]);
    expect(problems(creditNote({ documento_que_se_modifica_tipo: '07' }))).toEqual([INVOICE_MESSAGES.creditNote.modifiedType]);
    expect(problems(creditNote({ documento_que_se_modifica_serie: '' }))).toEqual([INVOICE_MESSAGES.creditNote.modifiedSeries]);
    expect(problems(creditNote({ documento_que_se_modifica_numero: 0 }))).toEqual([INVOICE_MESSAGES.creditNote.modifiedNumber]);
    expect(problems(creditNote({ documento_que_se_modifica_numero: '' }))).toEqual([INVOICE_MESSAGES.creditNote.modifiedNumber]);
    expect(problems(creditNote({ documento_que_se_modifica_numero: 0, tipo_de_nota_de_credito: '10' }))).toEqual([]);
    const check = checkInvoice(creditNote({ tipo_de_nota_de_credito: 6 }), ctx);
    expect(check.ok && check.draft.creditNote).toEqual({ modifiedType: '01', modifiedSeries: 'FFF1', modifiedNumber: 12, reason: '06' });
  });

  it('reason 13 adjusts a credit factura: S/ 0 lines and new instalments due after the issue date', () => {
    const zero = [{ description: 'Ajuste de cuotas', unit: 'ZZ', quantity: 1, unitValue: 0, igvType: '10' }];
    const cuotas = { type: 'credito', installments: [{ fecha_de_pago: '2026-07-15', importe: '500.00' }] };
    const adjustment = (extras: Record<string, unknown> = {}, over: Partial<Payload> = {}) =>
      creditNote({ tipo_de_nota_de_credito: '13', ...extras }, { items: zero, payment: cuotas, ...over });
    expect(problems(adjustment())).toEqual([]);
    const check = checkInvoice(adjustment(), ctx);
    expect(check.ok && [check.draft.totals.totalCents, check.draft.payment.instalments.length]).toEqual([0, 1]);
    expect(problems(adjustment({}, { items: [{ ...zero[0]!, unitValue: 10 }] }))).toEqual([INVOICE_MESSAGES.creditNote.adjustmentZero(1)]);
    expect(problems(adjustment({}, { payment: { type: 'contado' } }))).toEqual([INVOICE_MESSAGES.creditNote.adjustmentInstalments]);
    expect(
      problems(
        adjustment(
          { documento_que_se_modifica_tipo: '03', documento_que_se_modifica_serie: 'BBB1' },
          { serie: 'BBB1', customer: { doc_type: 1, doc_number: '70606878', name: 'Ana' } },
        ),
      ),
    ).toEqual([INVOICE_MESSAGES.creditNote.adjustmentOnlyFactura]);
    expect(problems(adjustment({}, { payment: { type: 'credito', installments: [{ fecha_de_pago: TODAY, importe: 500 }] } }))).toEqual([
      INSTALMENT_MESSAGES.dueDateBeforeIssue(1),
    ]);
  });

  it('a credit note of a factura needs the RUC; other documents take no credit-note fields', () => {
    expect(problems(creditNote({}, { customer: { doc_type: 1, doc_number: '70606878', name: 'Ana' } }))).toEqual([
      INVOICE_MESSAGES.creditNoteNeedsRuc,
    ]);
    expect(problems(factura({ extras: { tipo_de_nota_de_credito: '01' } }))).toEqual([INVOICE_MESSAGES.creditNote.onlyOnCreditNote]);
  });

  it('referenced guides: type 1 or 2, series of 3–4 alphanumerics, numeric number', () => {
    const guide = (g: Record<string, unknown>) => problems(factura({ extras: { guias: [{ guia_tipo: 2, serie: 'V001', numero: '15', ...g }] } }));
    expect(guide({})).toEqual([]);
    expect(guide({ serie: 'T01' })).toEqual([]);
    expect(guide({ guia_tipo: 3 })).toEqual([INVOICE_MESSAGES.guide.type(1)]);
    expect(guide({ serie: 'V1' })).toEqual([INVOICE_MESSAGES.guide.series(1)]);
    expect(guide({ serie: 'V0001' })).toEqual([INVOICE_MESSAGES.guide.series(1)]);
    expect(guide({ numero: '15A' })).toEqual([INVOICE_MESSAGES.guide.number(1)]);
    const check = checkInvoice(factura({ extras: { guias: [{ guia_tipo: 1, serie: 'ttt1', numero: 7 }] } }), ctx);
    expect(check.ok && check.draft.guides).toEqual([{ type: 1, series: 'TTT1', number: 7 }]);
  });

  it('detracción: bank account, percent, amount, payment means, code 027, facturas above S/ 400', () => {
    expect(problems(withDetraction())).toEqual([]);
    const check = checkInvoice(withDetraction(), ctx);
    expect(check.ok && check.draft).toMatchObject({
      operationType: '1004',
      detraction: { serviceCode: '027', percent: 4, amountCents: 4_700, bankAccount: '00101123456', paymentMeans: 1 },
    });
    expect(problems(withDetraction({ cuenta_detraccion: '' }))).toEqual([INVOICE_MESSAGES.detraction.bankAccount]);
    expect(problems(withDetraction({ detraccion_porcentaje: 0 }))).toEqual([INVOICE_MESSAGES.detraction.percent]);
    expect(problems(withDetraction({ detraccion_porcentaje: 10 }))).toEqual([INVOICE_MESSAGES.detraction.percentFreight]);
    expect(problems(withDetraction({ detraccion_total: 0 }))).toEqual([INVOICE_MESSAGES.detraction.amount]);
    expect(problems(withDetraction({ detraccion_total: '47.20' }))).toEqual([INVOICE_MESSAGES.detraction.amountExpected('47.00')]);
    expect(problems(withDetraction({ medio_de_pago_detraccion: 3 }))).toEqual([INVOICE_MESSAGES.detraction.paymentMeans]);
    expect(problems(withDetraction({ medio_de_pago_detraccion: null }))).toEqual([INVOICE_MESSAGES.detraction.paymentMeans]);
    expect(problems(withDetraction({ detraccion_tipo: '037' }))).toEqual([INVOICE_MESSAGES.detraction.serviceCode]);
    expect(problems(withDetraction({ valor_referencial: -1 }))).toEqual([INVOICE_MESSAGES.detraction.referenceValue]);
    // reference value 1,500.00 > total 1,180.00 → 4 % = 60.00
    expect(problems(withDetraction({ valor_referencial: 1500, detraccion_total: 60, viaje: { ...TRIP, val_ref_serv_trans: 1500 } }))).toEqual([]);
    expect(problems(withDetraction({}, { items: [{ description: 'Flete', unit: 'ZZ', quantity: 1, unitValue: 300, igvType: '10' }] }))).toEqual([
      INVOICE_MESSAGES.detraction.threshold,
      INVOICE_MESSAGES.detraction.amountExpected('14.00'),
    ]);
    expect(problems(withDetraction({}, { type: '03', serie: 'BBB1' }))).toEqual([INVOICE_MESSAGES.detraction.onlyFactura]);
  });

  it('credit sale: instalments summing to the pending amount, due dates after the issue date', () => {
    const credit = (installments: { fecha_de_pago: string; importe: number | string }[]) => factura({ payment: { type: 'credito', installments } });
    expect(problems(credit([{ fecha_de_pago: '2026-06-15', importe: 118 }]))).toEqual([]);
    expect(problems(credit([]))).toEqual([INSTALMENT_MESSAGES.required]);
    expect(problems(credit([{ fecha_de_pago: '2026-06-15', importe: '117.98' }]))).toEqual([INSTALMENT_MESSAGES.sum('117.98', '118.00')]);
    expect(problems(credit([{ fecha_de_pago: '2026-06-15', importe: '118.01' }]))).toEqual([INSTALMENT_MESSAGES.sum('118.01', '118.00')]);
    expect(problems(credit([{ fecha_de_pago: '', importe: 118 }]))).toEqual([INSTALMENT_MESSAGES.dueDateRequired(1)]);
    expect(problems(credit([{ fecha_de_pago: '2026-05-14', importe: 118 }]))).toEqual([INSTALMENT_MESSAGES.dueDateBeforeIssue(1)]);
    expect(problems(credit([{ fecha_de_pago: '2026-06-15', importe: 0 }]))).toEqual([
      INSTALMENT_MESSAGES.amountPositive(1),
      INSTALMENT_MESSAGES.sum('0.00', '118.00'),
    ]);
    // venta_al_credito (spec section 3) is read when payment.installments is absent
    const check = checkInvoice(
      { ...factura({ payment: { type: 'credito' } }), venta_al_credito: [{ cuota: 1, fecha_de_pago: '2026-06-15', importe: 118 }] },
      ctx,
    );
    expect(check.ok && check.draft.payment).toEqual({
      form: 'credito',
      conditions: null,
      instalments: [{ cuota: 1, fecha_de_pago: '2026-06-15', importeCents: 11_800 }],
      dueDate: '2026-06-15',
    });
    expect(problems(factura({ payment: { type: 'contado', installments: [{ fecha_de_pago: '2026-06-15', importe: 118 }] } }))).toEqual([
      INSTALMENT_MESSAGES.contadoWithInstalments,
    ]);
    expect(problems(factura({ payment: { type: 'tarjeta' } }))).toEqual([INVOICE_MESSAGES.paymentForm]);
  });

  it('a credit sale with detracción owes the total less the detracción', () => {
    const payment = { type: 'credito', installments: [{ fecha_de_pago: '2026-06-15', importe: 1133 }] };
    expect(problems(withDetraction({}, { payment }))).toEqual([]);
    const whole = { type: 'credito', installments: [{ fecha_de_pago: '2026-06-15', importe: 1180 }] };
    expect(problems(withDetraction({}, { payment: whole }))).toEqual([INSTALMENT_MESSAGES.sum('1180.00', '1133.00')]);
  });

  it('global discount, other charges, advances, bag tax and rounding are refused unless 0', () => {
    expect(problems(factura({ extras: { descuento_global: 0, redondeo: '0.00' } }))).toEqual([]);
    expect(problems(factura({ extras: { descuento_global: 5 } }))).toEqual([INVOICE_MESSAGES.unsupported('Descuento global')]);
    expect(problems(factura({ extras: { total_impuestos_bolsas: '0.50' } }))).toEqual([
      INVOICE_MESSAGES.unsupported('Impuesto a las bolsas plásticas'),
    ]);
  });

  it('lists every problem at once', () => {
    const list = problems({ type: '01', items: [{ quantity: 0, unitValue: 0 }], payment: { type: 'credito' } });
    expect(list).toEqual([
      INVOICE_MESSAGES.issueDateRequired,
      SERIES_MESSAGES.required,
      INVOICE_MESSAGES.item.description(1),
      INVOICE_MESSAGES.item.quantity(1),
      INVOICE_MESSAGES.item.unitValue(1),
      INVOICE_MESSAGES.customerRequired,
    ]);
  });

  it('a payload of the wrong shape is refused in Spanish', () => {
    const list = problems({ type: '01', items: 'muchos' });
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(/^items: /);
    expect(list[0]).toMatch(/esperaba/);
  });
});

describe('the receipt of a payment', () => {
  const ana: BillingCustomer = { docType: 1, docNumber: '70606878', name: 'Ana Quispe', address: null, email: null };

  it('is a boleta for a DNI that totals the amount collected', () => {
    const check = paymentReceiptDraft({ amountCents: 6_370, customer: ana, issueDate: TODAY, code: 'TMT-000004' }, ctx);
    expect(check.ok && check.draft).toMatchObject({
      type: '03',
      series: 'BBB1',
      lines: [{ description: 'Servicio de envío', code: 'TMT-000004', subtotalCents: 5_398, igvCents: 972, totalCents: 6_370 }],
      totals: { gravadaCents: 5_398, igvCents: 972, totalCents: 6_370 },
    });
  });

  it('is a factura for a RUC, and follows the same rules', () => {
    const company: BillingCustomer = {
      docType: 6,
      docNumber: RUC,
      name: 'Supermercados Peruanos S.A.',
      address: 'Av. Morro Solar 1130, Surco',
      email: null,
    };
    const check = paymentReceiptDraft({ amountCents: 11_800, customer: company, issueDate: TODAY }, ctx);
    expect(check.ok && check.draft.type).toBe('01');
    const bad = paymentReceiptDraft({ amountCents: 11_800, customer: { ...company, docNumber: '20100070971' }, issueDate: TODAY }, ctx);
    expect(bad).toEqual({ ok: false, problems: [CUSTOMER_MESSAGES.rucCheckDigit] });
  });
});
