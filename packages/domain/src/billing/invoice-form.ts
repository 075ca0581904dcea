import Big from 'big.js';
import { centsToString, toCents, type Cents } from '../money.ts';
import { bigToCents, decimalPlaces, documentTotals, igvOf, lineAmounts, parseDecimal, type DocumentTotals } from './amounts.ts';
import { IGV_PERCENT, isIgvType, type IgvType, type InvoiceDocumentType, type ModifiableDocumentType, type PaymentForm } from './catalogs.ts';
import { DETRACTION_FREIGHT, detractionAmountCents, detractionApplies } from './detraction.ts';
import { shipmentLineDescription, type DocumentDetail, type UnbilledShipment } from './documents.ts';
import { documentError, isDocType, rucError } from '../customers.ts';
import { INVOICE_MESSAGES, type BillingCustomer, type InvoicePayloadInput } from './invoice.ts';
import { FREIGHT_TRIP_MESSAGES, FREIGHT_TRIP_TEXT_MAX } from './freight-trip.ts';
import { INSTALMENT_MESSAGES } from './instalments.ts';
import { isContingency, seriesProblems, suggestedSeries } from './series.ts';

/*
 * The issuing form of /billing/preview as plain values (every field text, as inputs hold it), the
 * payload it sends, and the three ways it is pre-filled: empty, from a customer's shipments, and as
 * a credit note of an issued document. The web renders these values; the rules stay in
 * `checkInvoice`, which the form runs on the payload before sending it.
 */

export interface InvoiceFormItem {
  /** The seller's item code: a billed shipment's TMT-000123. */
  code: string;
  description: string;
  unit: string;
  quantity: string;
  unitValue: string;
  igvType: string;
  discount: string;
}

export interface InvoiceFormValues {
  type: InvoiceDocumentType;
  serie: string;
  issueDate: string;
  paymentType: PaymentForm;
  /** A registered customer; when set, `customer` holds their data (read-only in the form). */
  customerId: number | null;
  customer: { docType: string; docNumber: string; name: string; address: string; email: string };
  items: InvoiceFormItem[];
  guides: { type: string; serie: string; numero: string }[];
  creditNote: { modifiedType: string; modifiedSeries: string; modifiedNumber: string; reason: string };
  detraction: { enabled: boolean; percent: string; amount: string; bankAccount: string; paymentMeans: string; trip: InvoiceFormTrip };
  instalments: { dueDate: string; amount: string }[];
  /** Shipments this document bills (one line each). */
  shipmentIds: number[];
  observations: string;
}

/** The trip of a freight detracción factura, as the form holds it (SUNAT.md "Detracción"). */
export interface InvoiceFormTrip {
  originUbigeo: string;
  originAddress: string;
  destinationUbigeo: string;
  destinationAddress: string;
  detail: string;
  serviceReference: string;
  effectiveLoadReference: string;
  nominalLoadReference: string;
}

export const emptyInvoiceTrip = (): InvoiceFormTrip => ({
  originUbigeo: '',
  originAddress: '',
  destinationUbigeo: '',
  destinationAddress: '',
  detail: '',
  serviceReference: '',
  effectiveLoadReference: '',
  nominalLoadReference: '',
});

export const emptyInvoiceItem = (): InvoiceFormItem => ({
  code: '',
  description: '',
  unit: 'ZZ',
  quantity: '1',
  unitValue: '',
  igvType: '10',
  discount: '',
});

/** A new boleta dated today, series BBB1, one empty line. */
export function emptyInvoiceForm(today: string): InvoiceFormValues {
  return {
    type: '03',
    serie: suggestedSeries('03', { contingency: false }),
    issueDate: today,
    paymentType: 'contado',
    customerId: null,
    customer: { docType: '1', docNumber: '', name: '', address: '', email: '' },
    items: [emptyInvoiceItem()],
    guides: [],
    creditNote: { modifiedType: '', modifiedSeries: '', modifiedNumber: '', reason: '' },
    detraction: { enabled: false, percent: '', amount: '', bankAccount: '', paymentMeans: '', trip: emptyInvoiceTrip() },
    instalments: [],
    shipmentIds: [],
    observations: '',
  };
}

/** The series the form proposes for its type, date and (credit note) modified document. */
export function formSeries(values: Pick<InvoiceFormValues, 'type' | 'issueDate' | 'creditNote'>, today: string): string {
  const modified = values.creditNote.modifiedType;
  return suggestedSeries(values.type, {
    contingency: /^\d{4}-\d{2}-\d{2}$/.test(values.issueDate) && isContingency(values.issueDate, today),
    modifiedType: modified === '01' || modified === '03' ? modified : null,
  });
}

/** The customer as a document carries it, from the form's fields (what `checkInvoice` compares with). */
export function formCustomer(values: Pick<InvoiceFormValues, 'customer'>): BillingCustomer {
  const c = values.customer;
  return {
    docType: Number(c.docType) as BillingCustomer['docType'],
    docNumber: c.docNumber.trim(),
    name: c.name.trim(),
    address: c.address.trim() || null,
    email: c.email.trim() || null,
  };
}

const blankToNull = (v: string) => (v.trim() === '' ? null : v.trim());

/** What 'Crear Documento' sends to POST /billing/create-emit. */
export function invoicePayloadFromForm(values: InvoiceFormValues, uniqueCode: string | null = null): InvoicePayloadInput & { shipmentIds: number[] } {
  const creditNote = values.type === '07';
  const d = values.detraction;
  const credit = values.paymentType === 'credito';
  return {
    type: values.type,
    issueDate: values.issueDate,
    currency: 'PEN',
    serie: values.serie,
    items: values.items.map((item) => ({
      code: blankToNull(item.code),
      description: item.description,
      unit: item.unit,
      quantity: item.quantity.trim(),
      unitValue: item.unitValue.trim(),
      igvType: item.igvType,
      discount: blankToNull(item.discount),
    })),
    customerId: values.customerId,
    customer: values.customerId
      ? null
      : {
          doc_type: values.customer.docType,
          doc_number: values.customer.docNumber,
          name: values.customer.name,
          address: blankToNull(values.customer.address),
          email: blankToNull(values.customer.email),
        },
    extras: {
      documento_que_se_modifica_tipo: creditNote ? blankToNull(values.creditNote.modifiedType) : null,
      documento_que_se_modifica_serie: creditNote ? blankToNull(values.creditNote.modifiedSeries) : null,
      documento_que_se_modifica_numero: creditNote ? blankToNull(values.creditNote.modifiedNumber) : null,
      tipo_de_nota_de_credito: creditNote ? blankToNull(values.creditNote.reason) : null,
      guias: values.guides.map((g) => ({ guia_tipo: g.type, serie: g.serie, numero: g.numero })),
      detraccion: d.enabled,
      ...(d.enabled
        ? {
            detraccion_tipo: DETRACTION_FREIGHT.serviceCode,
            detraccion_porcentaje: blankToNull(d.percent),
            detraccion_total: blankToNull(d.amount),
            medio_de_pago_detraccion: blankToNull(d.paymentMeans),
            cuenta_detraccion: blankToNull(d.bankAccount),
            valor_referencial: blankToNull(d.trip.serviceReference),
            viaje: {
              ubigeo_origen: d.trip.originUbigeo,
              direccion_origen: d.trip.originAddress,
              ubigeo_destino: d.trip.destinationUbigeo,
              direccion_destino: d.trip.destinationAddress,
              detalle_viaje: d.trip.detail,
              val_ref_serv_trans: blankToNull(d.trip.serviceReference),
              val_ref_carga_efec: blankToNull(d.trip.effectiveLoadReference),
              val_ref_carga_util: blankToNull(d.trip.nominalLoadReference),
            },
          }
        : {}),
      codigo_unico: uniqueCode,
    },
    payment: {
      type: values.paymentType,
      installments: credit ? values.instalments.map((c, i) => ({ cuota: i + 1, fecha_de_pago: c.dueDate, importe: c.amount.trim() })) : null,
    },
    observaciones: blankToNull(values.observations),
    shipmentIds: values.shipmentIds,
  };
}

/**
 * The totals as the user types: every line that already reads as a valid line counts, the others
 * count as nothing yet. The same function as the API's (`lineAmounts`), so what the form shows is
 * what the document will say, to the céntimo.
 */
export function previewTotals(items: readonly Pick<InvoiceFormItem, 'quantity' | 'unitValue' | 'discount' | 'igvType'>[]): DocumentTotals {
  const lines = items.flatMap((item) => {
    const quantity = parseDecimal(item.quantity.trim());
    const unitValue = parseDecimal(item.unitValue.trim());
    const discount = item.discount.trim() === '' ? new Big(0) : parseDecimal(item.discount.trim());
    if (!quantity || !unitValue || !discount || !isIgvType(item.igvType)) return [];
    if (!quantity.gt(0) || !unitValue.gt(0) || discount.lt(0) || discount.gt(quantity.times(unitValue))) return [];
    if (decimalPlaces(discount) > 2) return [];
    return [lineAmounts({ quantity: quantity.toFixed(), unitValue: unitValue.toFixed(), discount: discount.toFixed(), igvType: item.igvType })];
  });
  return documentTotals(lines);
}

/**
 * The valor unitario (without IGV) of a one-unit gravado line whose total is the price, IGV included.
 * IGV is 18 % of the rounded subtotal, so not every price is reachable to the céntimo: the net closest
 * to price / 1.18 whose line totals the price exactly is taken when there is one (most prices), else
 * the one whose total misses it by the least (one céntimo; S/ 39.50 has no exact net).
 */
export function unitValueOfPrice(priceCents: Cents): string {
  const approx = Math.floor((priceCents * 100) / (100 + IGV_PERCENT));
  const candidates = [approx - 1, approx, approx + 1, approx + 2].filter((n) => n > 0);
  const miss = (net: Cents) => Math.abs(net + igvOf(net) - priceCents);
  const best = candidates.reduce((a, b) => (miss(b) < miss(a) ? b : a), candidates[0] ?? 1);
  return new Big(best).div(100).toFixed();
}

/**
 * The detracción block a factura of this total needs, pre-filled (SPOT 027, 4 %, the amount in
 * whole soles on the greater of the total and the trip's service reference value); the user adds
 * the bank account and the payment means. Null when none applies.
 */
export function detractionPrefill(
  type: InvoiceDocumentType,
  totalCents: Cents,
  trip: InvoiceFormTrip = emptyInvoiceTrip(),
): InvoiceFormValues['detraction'] | null {
  if (!detractionApplies(type, totalCents)) return null;
  return {
    enabled: true,
    percent: String(DETRACTION_FREIGHT.percent),
    amount: centsToString(detractionAmountCents(totalCents, typedCents(trip.serviceReference))),
    bankAccount: '',
    paymentMeans: '',
    trip,
  };
}

/** Nubefact limits the trip's addresses and detail to 100 characters. */
const clip = (text: string) => (text.length <= FREIGHT_TRIP_TEXT_MAX ? text : `${text.slice(0, FREIGHT_TRIP_TEXT_MAX - 1)}…`);

/**
 * The trip of a factura billing these shipments: origin and destination from the first shipment's
 * branches (ubigeo and address), the detail naming every route, and the reference values of the
 * routes (each route's once: one truck trip per route), left blank when a route has none configured.
 */
export function tripFromShipments(shipments: readonly UnbilledShipment[]): InvoiceFormTrip {
  const first = shipments[0];
  if (!first) return emptyInvoiceTrip();
  const routes = new Map<string, { count: number; shipment: UnbilledShipment }>();
  for (const s of shipments) {
    const key = `${s.originName} → ${s.destinationName}`;
    const seen = routes.get(key);
    routes.set(key, { count: (seen?.count ?? 0) + 1, shipment: seen?.shipment ?? s });
  }
  const detail = [...routes].map(([route, { count }]) => `${route} (${count === 1 ? '1 envío' : `${count} envíos`})`).join('; ');
  const references = [...routes.values()].map((r) => r.shipment.reference ?? null);
  const sum = (pick: (r: NonNullable<UnbilledShipment['reference']>) => number) =>
    references.every((r) => r !== null) ? centsToString(references.reduce((acc, r) => acc + toCents(pick(r!)), 0)) : '';
  return {
    originUbigeo: first.originUbigeo ?? '',
    originAddress: clip(first.originAddress ?? ''),
    destinationUbigeo: first.destinationUbigeo ?? '',
    destinationAddress: clip(first.destinationAddress ?? ''),
    detail: clip(`Transporte de carga por carretera: ${detail}`),
    serviceReference: sum((r) => r.service),
    effectiveLoadReference: sum((r) => r.effectiveLoad),
    nominalLoadReference: sum((r) => r.nominalLoad),
  };
}

/** A registered customer, as the form needs them to bill. */
export interface FormCustomerSource {
  id: number;
  doc_type: number;
  doc_number: string;
  name: string;
  address?: string | null;
  email?: string | null;
}

/** The customer block filled from a registered customer. */
export function customerFields(c: FormCustomerSource): Pick<InvoiceFormValues, 'customerId' | 'customer'> {
  return {
    customerId: c.id,
    customer: { docType: String(c.doc_type), docNumber: c.doc_number, name: c.name, address: c.address ?? '', email: c.email ?? '' },
  };
}

/**
 * Billing a sender's shipments: a factura for a RUC, else a boleta; one line per shipment
 * ('Servicio de transporte de carga TMT-000123 Lima → Arequipa', unit ZZ, gravado) whose price,
 * IGV included, is the shipment's; the detracción block pre-filled when the factura exceeds S/ 400.
 */
export function invoiceFromShipments(customer: FormCustomerSource, shipments: readonly UnbilledShipment[], today: string): InvoiceFormValues {
  const type: InvoiceDocumentType = customer.doc_type === 6 ? '01' : '03';
  const items = shipments.map((s) => ({
    code: s.code,
    description: shipmentLineDescription(s),
    unit: 'ZZ',
    quantity: '1',
    unitValue: unitValueOfPrice(toCents(s.price)),
    igvType: '10' as IgvType,
    discount: '',
  }));
  const base = emptyInvoiceForm(today);
  const totals = previewTotals(items);
  return {
    ...base,
    ...customerFields(customer),
    type,
    serie: suggestedSeries(type, { contingency: false }),
    items,
    detraction: detractionPrefill(type, totals.totalCents, tripFromShipments(shipments)) ?? base.detraction,
    shipmentIds: shipments.map((s) => s.id),
  };
}

/**
 * 'Emitir nota de crédito' from an issued factura or boleta: its customer and lines, the related
 * document, the forced series (FFF1 for a factura, BBB1 for a boleta), reason left to choose.
 */
export function creditNoteFrom(doc: DocumentDetail, today: string): InvoiceFormValues | null {
  if (doc.type !== '01' && doc.type !== '03') return null;
  const modifiedType: ModifiableDocumentType = doc.type;
  const base = emptyInvoiceForm(today);
  return {
    ...base,
    type: '07',
    serie: suggestedSeries('07', { contingency: false, modifiedType }),
    customerId: doc.customerId,
    customer: {
      docType: doc.customerDocType,
      docNumber: doc.customerDocNumber,
      name: doc.customerName,
      address: doc.customerAddress ?? '',
      email: doc.customerEmail ?? '',
    },
    creditNote: { modifiedType, modifiedSeries: doc.series, modifiedNumber: String(doc.number), reason: '' },
    items: doc.lines.map((l) => ({
      code: '',
      description: l.description,
      unit: l.unit,
      quantity: l.quantity,
      unitValue: l.unitValue,
      igvType: l.igvType,
      discount: l.discount > 0 ? l.discount.toFixed(2) : '',
    })),
  };
}

/** Céntimos of a typed amount, or null when it is not an amount with at most 2 decimals. */
export function typedCents(text: string): Cents | null {
  const parsed = parseDecimal(text.trim());
  if (!parsed || decimalPlaces(parsed) > 2) return null;
  return bigToCents(parsed);
}

/** Where a problem of `checkInvoice` belongs in the form: a field path ('items.0.quantity'), when it has one. */
export interface FormProblems {
  /** Field path → its first problem, in the words of 'Corrige:'. */
  fields: Record<string, string>;
  /** The problems no field of the form holds (a rule across the document), still listed under 'Corrige:'. */
  rest: string[];
}

/**
 * Puts each problem of `invoiceProblems` on the field that holds it, so the form can say it where it is
 * broken. The rules stay in `checkInvoice` (one list for the API and the form); this only knows which
 * message is which field's, by its exact words for these values, so a message it does not know stays
 * in `rest` and is never lost.
 */
export function invoiceFormProblems(values: InvoiceFormValues, problems: readonly string[], today: string): FormProblems {
  const where = new Map<string, string>();
  const put = (field: string, ...messages: (string | null)[]) => {
    for (const m of messages) if (m !== null && !where.has(m)) where.set(m, field);
  };
  const M = INVOICE_MESSAGES;
  put('issueDate', M.issueDateRequired, M.issueDateInvalid, M.issueDateFuture);
  const serie = values.serie.trim().toUpperCase();
  const modified = values.creditNote.modifiedType;
  const contingency = /^\d{4}-\d{2}-\d{2}$/.test(values.issueDate) && values.issueDate <= today && isContingency(values.issueDate, today);
  put('serie', ...seriesProblems(values.type, serie, { contingency, modifiedType: modified === '01' || modified === '03' ? modified : null }));
  put('creditNote.reason', M.creditNote.reason, M.creditNote.adjustmentOnlyFactura);
  put('creditNote.modifiedType', M.creditNote.modifiedType);
  put('creditNote.modifiedSeries', M.creditNote.modifiedSeries);
  put('creditNote.modifiedNumber', M.creditNote.modifiedNumber);
  values.items.forEach((_, i) => {
    const n = i + 1;
    const at = (field: keyof InvoiceFormItem) => `items.${i}.${field}`;
    put(at('description'), M.item.description(n), M.item.descriptionLong(n));
    put(at('unit'), M.item.unit(n));
    put(at('quantity'), M.item.quantity(n), M.item.quantityDecimals(n));
    put(at('unitValue'), M.item.unitValue(n), M.item.unitValueDecimals(n), M.item.tooLarge(n), M.creditNote.adjustmentZero(n));
    put(at('igvType'), M.item.igvType(n), M.item.igvPercent(n));
    put(at('discount'), M.item.discount(n), M.item.discountTooBig(n));
  });
  const c = values.customer;
  const docType = Number(c.docType);
  put('customer.docNumber', rucError(c.docNumber.trim()), isDocType(docType) ? documentError(docType, c.docNumber.trim()) : null);
  put('customer.docType', M.customerDocType, M.facturaNeedsRuc, M.creditNoteNeedsRuc, M.boletaWithoutDocument);
  put('customer.name', M.customerName, M.customerRequired, M.customerNotFound);
  put('customer.address', M.facturaNeedsAddress);
  put('customer.email', M.customerEmail);
  values.guides.forEach((_, i) => {
    put(`guides.${i}.type`, M.guide.type(i + 1));
    put(`guides.${i}.serie`, M.guide.series(i + 1));
    put(`guides.${i}.numero`, M.guide.number(i + 1));
  });
  const D = M.detraction;
  put('detraction.bankAccount', D.bankAccount);
  put('detraction.percent', D.percent, D.percentFreight);
  put('detraction.amount', D.amount);
  // Two messages name an amount the values decide (the 4 % and the trip's reference): known by their opening words.
  const opening = (message: (x: string) => string) => message('\u0000').split('\u0000')[0] ?? '';
  for (const p of problems) {
    if (p.startsWith(opening(D.amountExpected))) put('detraction.amount', p);
    if (p.startsWith(opening(FREIGHT_TRIP_MESSAGES.referenceValueMismatch))) put('detraction.trip.serviceReference', p);
  }
  put('detraction.paymentMeans', D.paymentMeans);
  const T = FREIGHT_TRIP_MESSAGES;
  put('detraction.trip.originUbigeo', T.originUbigeo);
  put('detraction.trip.originAddress', T.originAddress);
  put('detraction.trip.destinationUbigeo', T.destinationUbigeo);
  put('detraction.trip.destinationAddress', T.destinationAddress);
  put('detraction.trip.detail', T.detail);
  put('detraction.trip.serviceReference', T.serviceReference, D.referenceValue);
  put('detraction.trip.effectiveLoadReference', T.effectiveLoadReference);
  put('detraction.trip.nominalLoadReference', T.nominalLoadReference);
  values.instalments.forEach((_, i) => {
    const n = i + 1;
    put(
      `instalments.${i}.dueDate`,
      INSTALMENT_MESSAGES.dueDateRequired(n),
      INSTALMENT_MESSAGES.dueDateInvalid(n),
      INSTALMENT_MESSAGES.dueDateBeforeIssue(n),
    );
    put(`instalments.${i}.amount`, INSTALMENT_MESSAGES.amountPositive(n));
  });

  return placeProblems(problems, where);
}

/** Each problem on the field `where` names for its exact words (the first per field), the others in `rest`. */
export function placeProblems(problems: readonly string[], where: ReadonlyMap<string, string>): FormProblems {
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const p of problems) {
    const field = where.get(p);
    if (field === undefined) rest.push(p);
    else fields[field] ??= p;
  }
  return { fields, rest };
}
