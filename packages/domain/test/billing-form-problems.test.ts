import { describe, expect, it } from 'vitest';
import {
  checkRetention,
  emptyInvoiceForm,
  formCustomer,
  INVOICE_MESSAGES,
  invoiceFormProblems,
  invoicePayloadFromForm,
  invoiceProblems,
  SERIES_MESSAGES,
  VOUCHER_MESSAGES,
  voucherFormProblems,
  type InvoiceFormValues,
} from '../src/index.ts';

/* Issue 38: the billing forms say each rule's message on the field that breaks it. */

const TODAY = '2026-05-15';

const place = (values: InvoiceFormValues) => {
  const found = invoiceProblems(invoicePayloadFromForm(values), { today: TODAY, customer: values.customerId ? formCustomer(values) : null });
  return { found, ...invoiceFormProblems(values, found, TODAY) };
};

describe('invoiceFormProblems', () => {
  it('puts every problem of an empty boleta on a field, none left for "Corrige:"', () => {
    const { found, fields, rest } = place(emptyInvoiceForm(TODAY));
    expect(found.length).toBeGreaterThan(0);
    expect(rest).toEqual([]);
    expect(fields['items.0.description']).toBe(INVOICE_MESSAGES.item.description(1));
    expect(fields['items.0.unitValue']).toBe(INVOICE_MESSAGES.item.unitValue(1));
    expect(fields['customer.name']).toBe(INVOICE_MESSAGES.customerRequired);
  });

  it('the second line, the series, and a factura without RUC or address', () => {
    const base = emptyInvoiceForm(TODAY);
    const values: InvoiceFormValues = {
      ...base,
      type: '01',
      serie: 'B1',
      customer: { docType: '1', docNumber: '45678912', name: 'Rosa Quispe', address: '', email: 'no-es-correo' },
      items: [
        { ...base.items[0]!, description: 'Flete', unitValue: '100' },
        { ...base.items[0]!, description: 'Embalaje', quantity: '0', unitValue: '5', discount: '9' },
      ],
    };
    const { fields, rest } = place(values);
    expect(fields['serie']).toBe(SERIES_MESSAGES.length);
    expect(fields['items.1.quantity']).toBe(INVOICE_MESSAGES.item.quantity(2));
    expect(fields['items.0.quantity']).toBeUndefined();
    expect(fields['customer.docType']).toBe(INVOICE_MESSAGES.facturaNeedsRuc);
    expect(fields['customer.address']).toBe(INVOICE_MESSAGES.facturaNeedsAddress);
    expect(fields['customer.email']).toBe(INVOICE_MESSAGES.customerEmail);
    expect(rest).toEqual([]);
  });

  it('a problem no field holds stays for "Corrige:", never lost', () => {
    const { fields, rest } = invoiceFormProblems(emptyInvoiceForm(TODAY), [INVOICE_MESSAGES.currency, INVOICE_MESSAGES.itemsRequired], TODAY);
    expect(fields).toEqual({});
    expect(rest).toEqual([INVOICE_MESSAGES.currency, INVOICE_MESSAGES.itemsRequired]);
  });
});

describe('voucherFormProblems', () => {
  it('a retention with a bad subject and line: each on its field', () => {
    const values = {
      serie: 'RRR1',
      fecha_de_emision: TODAY,
      porcentaje: '3.00',
      proveedor: { numero_de_documento: '123', denominacion: '', direccion: null },
      moneda: 1,
      documentos_relacionados: [{ tipo: '01', serie: '', numero: '1', total: 'abc', moneda: 1 }],
    };
    const check = checkRetention(values, { today: TODAY });
    const found = check.ok ? [] : check.problems;
    const { fields, rest } = voucherFormProblems('20', values, found, TODAY);
    expect(fields['sujeto.numero_de_documento']).toBe(VOUCHER_MESSAGES.subjectDocument('Proveedor'));
    expect(fields['sujeto.denominacion']).toBe(VOUCHER_MESSAGES.subjectName('Proveedor'));
    expect(fields['documentos_relacionados.0.serie']).toBe(VOUCHER_MESSAGES.related.series(1));
    expect(fields['documentos_relacionados.0.total']).toBe(VOUCHER_MESSAGES.related.total(1));
    expect(rest).toEqual([]);
  });
});
