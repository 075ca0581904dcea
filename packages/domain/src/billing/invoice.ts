import Big from 'big.js';
import { z } from 'zod';
import { CUSTOMER_MESSAGES, documentError, rucError } from '../customers.ts';
import { isIsoDay } from '../dates.ts';
import { optionalText as cleanOptionalText } from '../primitives.ts';
import { centsToString, sumCents, type Cents } from '../money.ts';
import {
  bigToCents,
  decimalPlaces,
  documentTotals,
  inclusiveLineAmounts,
  lineAmounts,
  parseDecimal,
  QUANTITY_DECIMALS,
  UNIT_VALUE_DECIMALS,
  type DocumentTotals,
  type LineAmounts,
} from './amounts.ts';
import {
  IGV_PERCENT,
  INSTALMENT_ADJUSTMENT_REASON,
  isBillingDocType,
  isCreditNoteReason,
  isDetractionPaymentMeans,
  isGuideReferenceType,
  isIgvType,
  isInvoiceUnit,
  OPERATION_TYPES,
  type BillingDocType,
  type CreditNoteReason,
  type DetractionPaymentMeans,
  type GuideReferenceType,
  type InvoiceDocumentType,
  type InvoiceUnit,
  type ModifiableDocumentType,
  type OperationType,
  type PaymentForm,
} from './catalogs.ts';
import { DETRACTION_FREIGHT, detractionAmountCents, detractionBaseCents } from './detraction.ts';
import { INSTALMENT_MESSAGES, instalmentProblems, lastDueDate, pendingAmountCents, type Instalment } from './instalments.ts';
import { isContingency, seriesProblems, suggestedSeries } from './series.ts';
import type { ComponentItem } from './component-items.ts';
import { checkFreightTrip, FREIGHT_TRIP_MESSAGES, freightTripSchema, type FreightTrip } from './freight-trip.ts';

/*
 * The invoice payload of spec section 3 (factura 01, boleta 03, nota de crédito 07) and every rule
 * of spec section 5 for it. The schema only checks the shape (so a half-filled form still parses);
 * `checkInvoice` then lists every broken rule as the Spanish lines of the form's 'Corrige:' list,
 * and the API refuses with the very same list.
 */

export const ITEM_DESCRIPTION_MAX_LENGTH = 250;
/** Spec section 9: the receipt of a payment bills this item. */
export const RECEIPT_ITEM_DESCRIPTION = 'Servicio de envío';
/** A boleta to a customer without a document ("varios") may not exceed S/ 700 (SUNAT.md). */
export const BOLETA_WITHOUT_DOCUMENT_LIMIT_CENTS = 70_000;
/** Above this a line or document is a typing error, and it keeps every sum inside numeric(12,2). */
export const MAX_AMOUNT_CENTS = 9_999_999_999;

const MONEY_DECIMALS = 2;

export const INVOICE_MESSAGES = {
  /** Spec section 8: the heading of the form's list of problems. */
  heading: 'Corrige:',
  /** Spec section 8: a provider failure. */
  emitFailed: 'Error al emitir',
  httpStatus: (status: number) => `HTTP ${status}`,
  typeInvalid: 'Tipo de comprobante inválido: 01 factura, 03 boleta o 07 nota de crédito.',
  issueDateRequired: 'La fecha de emisión es obligatoria.',
  issueDateInvalid: 'La fecha de emisión no es válida.',
  issueDateFuture: 'La fecha de emisión no puede ser posterior a hoy.',
  contingencyFlag: 'La contingencia corresponde solo a documentos con fecha de emisión pasada.',
  currency: 'Solo se emite en soles (PEN).',
  itemsRequired: 'Agrega al menos un ítem.',
  item: {
    description: (n: number) => `Ítem ${n}: la descripción es obligatoria.`,
    descriptionLong: (n: number) => `Ítem ${n}: la descripción admite hasta ${ITEM_DESCRIPTION_MAX_LENGTH} caracteres.`,
    unit: (n: number) => `Ítem ${n}: unidad inválida (NIU, KGM, TNE, CJ, PAQ o ZZ).`,
    quantity: (n: number) => `Ítem ${n}: la cantidad debe ser un número mayor que 0.`,
    quantityDecimals: (n: number) => `Ítem ${n}: la cantidad admite hasta ${QUANTITY_DECIMALS} decimales.`,
    unitValue: (n: number) => `Ítem ${n}: el valor unitario debe ser un número mayor que 0.`,
    unitValueDecimals: (n: number) => `Ítem ${n}: el valor unitario admite hasta ${UNIT_VALUE_DECIMALS} decimales.`,
    igvType: (n: number) => `Ítem ${n}: tipo de IGV inválido (10 gravado, 20 exonerado o 30 inafecto).`,
    igvPercent: (n: number) => `Ítem ${n}: el IGV de un ítem gravado es 18 %; el de uno exonerado o inafecto, 0 %.`,
    discount: (n: number) => `Ítem ${n}: el descuento debe ser un importe de 0 o más, con hasta 2 decimales.`,
    discountTooBig: (n: number) => `Ítem ${n}: el descuento no puede ser mayor que el valor del ítem.`,
    tooLarge: (n: number) => `Ítem ${n}: el importe supera el máximo permitido.`,
  },
  totalTooLarge: 'El total del documento supera el máximo permitido.',
  customerRequired: 'Cliente: elige un cliente registrado o ingresa tipo de documento, número y nombre.',
  customerNotFound: CUSTOMER_MESSAGES.notFound,
  customerDocType: 'Tipo de documento del cliente inválido (6 RUC, 1 DNI, 4 carné de extranjería, 7 pasaporte o 0 sin documento).',
  customerName: 'El nombre o razón social del cliente es obligatorio.',
  customerEmail: 'El correo del cliente no es válido.',
  facturaNeedsRuc: 'La factura requiere el RUC del cliente (11 dígitos).',
  /** Nubefact answers error 20 to a factura whose cliente_direccion is empty. */
  facturaNeedsAddress: 'La factura requiere la dirección del cliente: búscala por su RUC o escríbela.',
  creditNoteNeedsRuc: 'Una nota de crédito de una factura requiere el RUC del cliente (11 dígitos).',
  boletaWithoutDocument: 'Una boleta de más de S/ 700.00 requiere el documento del cliente.',
  creditNote: {
    reason: 'Nota de crédito: elige el motivo (01 a 10, o 13).',
    /** Reason 13 (SUNAT catalogue 09): an adjustment of a credit factura's instalments, for S/ 0. */
    adjustmentOnlyFactura: 'Nota de crédito 13: solo ajusta las cuotas de una factura al crédito (documento 01).',
    adjustmentZero: (n: number) => `Nota de crédito 13: el ítem ${n} debe ir con valor 0 (la nota solo corrige montos y fechas de pago).`,
    adjustmentInstalments: 'Nota de crédito 13: indica las nuevas cuotas con su fecha de pago (forma de pago crédito).',
    modifiedType: 'Nota de crédito: el documento que se modifica debe ser una factura (01) o una boleta (03).',
    modifiedSeries: 'Nota de crédito: indica la serie del documento que se modifica.',
    modifiedNumber: 'Nota de crédito: el número del documento que se modifica debe ser mayor que 0.',
    onlyOnCreditNote: 'Solo una nota de crédito lleva documento modificado y motivo.',
  },
  guide: {
    type: (n: number) => `Guía ${n}: el tipo debe ser 1 (remitente) o 2 (transportista).`,
    series: (n: number) => `Guía ${n}: la serie debe tener de 3 a 4 letras o números.`,
    number: (n: number) => `Guía ${n}: el número debe ser numérico.`,
  },
  detraction: {
    onlyFactura: 'La detracción solo se aplica a facturas.',
    threshold: 'La detracción del transporte de carga se aplica a operaciones de más de S/ 400.00.',
    serviceCode: 'Detracción: el código del servicio de transporte de carga es 027.',
    bankAccount: 'Detracción: ingresa la cuenta de detracciones del Banco de la Nación (solo dígitos).',
    percent: 'Detracción: el porcentaje debe ser mayor que 0.',
    percentFreight: 'Detracción: el servicio de transporte de carga (027) detrae el 4 %.',
    amount: 'Detracción: el monto debe ser mayor que 0.',
    amountExpected: (expected: string) => `Detracción: el monto debe ser S/ ${expected} (4 % redondeado a soles).`,
    paymentMeans: 'Detracción: elige el medio de pago (1, 2, 8 o 9).',
    referenceValue: 'Detracción: el valor referencial debe ser un importe de 0 o más, con hasta 2 decimales.',
  },
  paymentForm: 'Forma de pago inválida: contado o crédito.',
  unsupported: (label: string) => `${label}: Tramo aún no lo admite; déjalo en 0.`,
} as const;

const decimalField = z.union([z.number(), z.string()]);
const optionalDecimal = decimalField.nullish();
/** Free text of a document: trimmed, blank → null, no control characters (they would break the signed XML). */
const optionalText = cleanOptionalText(500);
/** A catalogue code the form may send as text ('06') or as a number (6). */
const optionalCode = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .nullish();

const itemSchema = z.object({
  /** 'servicio' (freight, the default) or 'bien' (goods such as packaging). */
  itemType: z.enum(['servicio', 'bien']).default('servicio'),
  /** The seller's item code (a shipment's TMT-000123 when billing shipments). */
  code: optionalText,
  description: z.string().trim().default(''),
  unit: z.string().trim().toUpperCase().default('ZZ'),
  quantity: decimalField,
  unitValue: decimalField,
  igvType: z.union([z.string(), z.number()]).transform(String).default('10'),
  igvPercent: z.number().nullish(),
  discount: optionalDecimal,
});

const customerSchema = z.object({
  doc_type: z.union([z.number(), z.string()]).transform((v) => (typeof v === 'string' && v.trim() === '' ? Number.NaN : Number(v))),
  doc_number: z.string().trim().default(''),
  name: z.string().trim().default(''),
  address: optionalText,
  email: optionalText,
});

const instalmentSchema = z.object({
  cuota: z.number().int().optional(),
  fecha_de_pago: z.string().trim().default(''),
  importe: decimalField,
});

const guideSchema = z.object({
  guia_tipo: z.union([z.number(), z.string()]).transform(Number),
  serie: z.string().trim().toUpperCase().default(''),
  numero: z.union([z.number(), z.string()]).transform(String),
});

const extrasSchema = z.object({
  documento_que_se_modifica_tipo: optionalCode,
  documento_que_se_modifica_serie: z.string().trim().toUpperCase().nullish(),
  documento_que_se_modifica_numero: z.union([z.number(), z.string()]).nullish(),
  tipo_de_nota_de_credito: optionalCode,
  descuento_global: optionalDecimal,
  total_otros_cargos: optionalDecimal,
  total_anticipo: optionalDecimal,
  total_impuestos_bolsas: optionalDecimal,
  redondeo: optionalDecimal,
  guias: z.array(guideSchema).default([]),
  detraccion: z.boolean().default(false),
  detraccion_tipo: optionalCode,
  detraccion_porcentaje: optionalDecimal,
  detraccion_total: optionalDecimal,
  medio_de_pago_detraccion: z.union([z.number(), z.string()]).nullish(),
  cuenta_detraccion: optionalText,
  valor_referencial: optionalDecimal,
  /** The freight trip of a detracción factura (Nubefact's eight fields): see freight-trip.ts. */
  viaje: freightTripSchema.nullish(),
  generado_por_contingencia: z.boolean().nullish(),
  /** The client's idempotency key (Nubefact's codigo_unico). */
  codigo_unico: z.string().trim().max(20).nullish(),
});

export const invoicePayloadSchema = z.object({
  type: z.union([z.string(), z.number()]).transform((v) => String(v).padStart(2, '0')),
  issueDate: z.string().trim().default(''),
  currency: z.string().trim().toUpperCase().default('PEN'),
  serie: z.string().trim().toUpperCase().default(''),
  items: z.array(itemSchema).default([]),
  customerId: z.number().int().positive().nullish(),
  customer: customerSchema.nullish(),
  extras: extrasSchema.prefault({}),
  payment: z
    .object({
      type: z.string().trim().toLowerCase().default('contado'),
      condiciones: optionalText,
      installments: z.array(instalmentSchema).nullish(),
    })
    .prefault({}),
  /** Spec section 3 also names these at the top level; `payment.condiciones`/`installments` win when both come. */
  condiciones_de_pago: optionalText,
  venta_al_credito: z.array(instalmentSchema).nullish(),
  observaciones: z.string().trim().max(500).nullish(),
});

export type InvoicePayloadInput = z.input<typeof invoicePayloadSchema>;
export type InvoicePayload = z.output<typeof invoicePayloadSchema>;

/** The customer on a document. */
export interface BillingCustomer {
  docType: BillingDocType;
  /** '-' for a customer without a document. */
  docNumber: string;
  name: string;
  address: string | null;
  email: string | null;
}

export interface InvoiceLine extends LineAmounts {
  itemType: 'servicio' | 'bien';
  code: string | null;
  description: string;
  unit: InvoiceUnit;
}

export interface DetractionData {
  serviceCode: typeof DETRACTION_FREIGHT.serviceCode;
  percent: number;
  baseCents: Cents;
  referenceValueCents: Cents | null;
  amountCents: Cents;
  bankAccount: string;
  paymentMeans: DetractionPaymentMeans;
  /** The freight trip (operation 1004), written on every UBL line and in Nubefact's eight fields. */
  trip: FreightTrip | null;
}

export interface CreditNoteData {
  modifiedType: ModifiableDocumentType;
  modifiedSeries: string;
  modifiedNumber: number;
  reason: CreditNoteReason;
}

export interface GuideReference {
  type: GuideReferenceType;
  series: string;
  number: number;
}

/**
 * A document ready to be numbered and issued: every amount computed, every rule passed. The API
 * stores it, takes the next number of its series and hands both to the billing provider.
 */
export interface InvoiceDraft {
  type: InvoiceDocumentType;
  series: string;
  issueDate: string;
  currency: 'PEN';
  contingency: boolean;
  operationType: OperationType;
  customerId: number | null;
  customer: BillingCustomer;
  lines: InvoiceLine[];
  totals: DocumentTotals;
  payment: { form: PaymentForm; conditions: string | null; instalments: Instalment[]; dueDate: string | null };
  detraction: DetractionData | null;
  creditNote: CreditNoteData | null;
  guides: GuideReference[];
  uniqueCode: string | null;
  observations: string | null;
  /** The company's liability clause as it stood at issue (a shipment's counter receipt, issue 34): printed, not sent to SUNAT. */
  liabilityClause?: string | null;
}

export interface InvoiceContext {
  /** Today in Lima (YYYY-MM-DD): decides contingency and refuses future dates. */
  today: string;
  /** The registered customer of `customerId`, as the API found it (null/absent: not found). */
  customer?: BillingCustomer | null;
}

export type InvoiceCheck = { ok: true; draft: InvoiceDraft } | { ok: false; problems: string[] };

/** A decimal with at most `decimals` places that is > 0 (or ≥ 0 when `allowZero`), else null. */
function amountField(value: string | number | null | undefined, decimals: number, allowZero: boolean): Big | null {
  if (value === null || value === undefined || value === '') return allowZero ? new Big(0) : null;
  const parsed = parseDecimal(value);
  if (!parsed || decimalPlaces(parsed) > decimals) return null;
  return allowZero || parsed.gt(0) ? parsed : null;
}

function checkLine(item: InvoicePayload['items'][number], n: number, problems: string[], adjustment = false): InvoiceLine | null {
  const before = problems.length;
  if (item.description === '') problems.push(INVOICE_MESSAGES.item.description(n));
  else if (item.description.length > ITEM_DESCRIPTION_MAX_LENGTH) problems.push(INVOICE_MESSAGES.item.descriptionLong(n));
  if (!isInvoiceUnit(item.unit)) problems.push(INVOICE_MESSAGES.item.unit(n));
  const quantity = parseDecimal(item.quantity);
  if (!quantity || !quantity.gt(0)) problems.push(INVOICE_MESSAGES.item.quantity(n));
  else if (decimalPlaces(quantity) > QUANTITY_DECIMALS) problems.push(INVOICE_MESSAGES.item.quantityDecimals(n));
  const unitValue = parseDecimal(item.unitValue);
  // A reason-13 note carries its lines at 0: it changes the instalments, not the amounts.
  if (adjustment) {
    if (!unitValue || !unitValue.eq(0)) problems.push(INVOICE_MESSAGES.creditNote.adjustmentZero(n));
  } else if (!unitValue || !unitValue.gt(0)) problems.push(INVOICE_MESSAGES.item.unitValue(n));
  else if (decimalPlaces(unitValue) > UNIT_VALUE_DECIMALS) problems.push(INVOICE_MESSAGES.item.unitValueDecimals(n));
  const igvType = item.igvType;
  if (!isIgvType(igvType)) problems.push(INVOICE_MESSAGES.item.igvType(n));
  else if (item.igvPercent !== null && item.igvPercent !== undefined && item.igvPercent !== (igvType === '10' ? IGV_PERCENT : 0)) {
    problems.push(INVOICE_MESSAGES.item.igvPercent(n));
  }
  const discount = amountField(item.discount, MONEY_DECIMALS, true);
  if (!discount) problems.push(INVOICE_MESSAGES.item.discount(n));
  if (problems.length > before || !quantity || !unitValue || !discount || !isIgvType(igvType) || !isInvoiceUnit(item.unit)) return null;
  if (discount.gt(quantity.times(unitValue))) {
    problems.push(INVOICE_MESSAGES.item.discountTooBig(n));
    return null;
  }
  const amounts = lineAmounts({ quantity: quantity.toFixed(), unitValue: unitValue.toFixed(), discount: discount.toFixed(), igvType });
  if (amounts.totalCents > MAX_AMOUNT_CENTS) {
    problems.push(INVOICE_MESSAGES.item.tooLarge(n));
    return null;
  }
  return { ...amounts, itemType: item.itemType, code: item.code || null, description: item.description, unit: item.unit };
}

function checkCustomer(p: InvoicePayload, ctx: InvoiceContext, totalCents: Cents | null, problems: string[]): BillingCustomer | null {
  let customer: BillingCustomer;
  if (p.customerId) {
    if (!ctx.customer) {
      problems.push(INVOICE_MESSAGES.customerNotFound);
      return null;
    }
    customer = ctx.customer;
  } else if (p.customer) {
    const c = p.customer;
    if (!isBillingDocType(c.doc_type)) {
      problems.push(INVOICE_MESSAGES.customerDocType);
      return null;
    }
    const withoutDocument = c.doc_type === 0;
    if (!withoutDocument && c.doc_number === '') {
      problems.push(INVOICE_MESSAGES.customerRequired);
      return null;
    }
    customer = {
      docType: c.doc_type,
      docNumber: withoutDocument ? c.doc_number || '-' : c.doc_number,
      name: c.name,
      address: c.address || null,
      email: c.email || null,
    };
    if (c.name === '') problems.push(INVOICE_MESSAGES.customerName);
    if (customer.email && !z.email().safeParse(customer.email).success) problems.push(INVOICE_MESSAGES.customerEmail);
  } else {
    problems.push(INVOICE_MESSAGES.customerRequired);
    return null;
  }

  const needsRuc = p.type === '01' || (p.type === '07' && p.extras.documento_que_se_modifica_tipo === '01');
  if (needsRuc) {
    if (customer.docType !== 6) problems.push(p.type === '01' ? INVOICE_MESSAGES.facturaNeedsRuc : INVOICE_MESSAGES.creditNoteNeedsRuc);
    else {
      const error = rucError(customer.docNumber);
      if (error) problems.push(error);
    }
    if (p.type === '01' && !customer.address?.trim()) problems.push(INVOICE_MESSAGES.facturaNeedsAddress);
  } else if (customer.docType === 0) {
    if (totalCents !== null && totalCents > BOLETA_WITHOUT_DOCUMENT_LIMIT_CENTS) problems.push(INVOICE_MESSAGES.boletaWithoutDocument);
  } else {
    const error = documentError(customer.docType, customer.docNumber);
    if (error) problems.push(error);
  }
  return customer;
}

function checkCreditNote(p: InvoicePayload, problems: string[]): CreditNoteData | null {
  const x = p.extras;
  if (p.type !== '07') {
    if (x.documento_que_se_modifica_tipo || x.documento_que_se_modifica_serie || x.tipo_de_nota_de_credito) {
      problems.push(INVOICE_MESSAGES.creditNote.onlyOnCreditNote);
    }
    return null;
  }
  const before = problems.length;
  const reason = x.tipo_de_nota_de_credito ? x.tipo_de_nota_de_credito.padStart(2, '0') : '';
  if (!isCreditNoteReason(reason)) problems.push(INVOICE_MESSAGES.creditNote.reason);
  const modifiedType = x.documento_que_se_modifica_tipo?.padStart(2, '0');
  if (modifiedType !== '01' && modifiedType !== '03') problems.push(INVOICE_MESSAGES.creditNote.modifiedType);
  else if (reason === INSTALMENT_ADJUSTMENT_REASON && modifiedType !== '01') problems.push(INVOICE_MESSAGES.creditNote.adjustmentOnlyFactura);
  if (reason === INSTALMENT_ADJUSTMENT_REASON && p.payment.type !== 'credito') problems.push(INVOICE_MESSAGES.creditNote.adjustmentInstalments);
  const modifiedSeries = x.documento_que_se_modifica_serie ?? '';
  if (modifiedSeries === '') problems.push(INVOICE_MESSAGES.creditNote.modifiedSeries);
  const raw = x.documento_que_se_modifica_numero;
  const modifiedNumber = raw === null || raw === undefined || raw === '' ? Number.NaN : Number(raw);
  const numberOk = Number.isInteger(modifiedNumber) && (modifiedNumber > 0 || (reason === '10' && modifiedNumber === 0));
  if (!numberOk) problems.push(INVOICE_MESSAGES.creditNote.modifiedNumber);
  if (problems.length > before || !isCreditNoteReason(reason) || (modifiedType !== '01' && modifiedType !== '03')) return null;
  return { modifiedType, modifiedSeries, modifiedNumber, reason };
}

function checkGuides(p: InvoicePayload, problems: string[]): GuideReference[] {
  const guides: GuideReference[] = [];
  p.extras.guias.forEach((g, i) => {
    const n = i + 1;
    const before = problems.length;
    if (!isGuideReferenceType(g.guia_tipo)) problems.push(INVOICE_MESSAGES.guide.type(n));
    if (!/^[A-Z0-9]{3,4}$/.test(g.serie)) problems.push(INVOICE_MESSAGES.guide.series(n));
    if (!/^\d{1,8}$/.test(g.numero.trim())) problems.push(INVOICE_MESSAGES.guide.number(n));
    if (problems.length === before && isGuideReferenceType(g.guia_tipo))
      guides.push({ type: g.guia_tipo, series: g.serie, number: Number(g.numero) });
  });
  return guides;
}

function checkDetraction(p: InvoicePayload, totalCents: Cents | null, problems: string[]): DetractionData | null {
  const x = p.extras;
  if (!x.detraccion) return null;
  if (p.type !== '01') {
    problems.push(INVOICE_MESSAGES.detraction.onlyFactura);
    return null;
  }
  const before = problems.length;
  if (totalCents !== null && totalCents <= DETRACTION_FREIGHT.thresholdCents) problems.push(INVOICE_MESSAGES.detraction.threshold);
  if (x.detraccion_tipo && x.detraccion_tipo.padStart(3, '0') !== DETRACTION_FREIGHT.serviceCode)
    problems.push(INVOICE_MESSAGES.detraction.serviceCode);
  const bankAccount = (x.cuenta_detraccion ?? '').replace(/[\s-]/g, '');
  if (!/^\d{6,20}$/.test(bankAccount)) problems.push(INVOICE_MESSAGES.detraction.bankAccount);
  const percent = amountField(x.detraccion_porcentaje, 2, false);
  if (!percent) problems.push(INVOICE_MESSAGES.detraction.percent);
  else if (!percent.eq(DETRACTION_FREIGHT.percent)) problems.push(INVOICE_MESSAGES.detraction.percentFreight);
  const trip = checkFreightTrip(x.viaje, problems);
  const reference = amountField(x.valor_referencial, MONEY_DECIMALS, true);
  if (!reference) problems.push(INVOICE_MESSAGES.detraction.referenceValue);
  const amount = amountField(x.detraccion_total, MONEY_DECIMALS, false);
  if (!amount) problems.push(INVOICE_MESSAGES.detraction.amount);
  const typedReferenceCents = reference && reference.gt(0) ? bigToCents(reference) : null;
  // The detracción's reference value is the trip's reference value of the transport service.
  if (trip && typedReferenceCents !== null && typedReferenceCents !== trip.serviceReferenceCents) {
    problems.push(FREIGHT_TRIP_MESSAGES.referenceValueMismatch(centsToString(trip.serviceReferenceCents)));
  }
  const referenceValueCents = trip ? trip.serviceReferenceCents : typedReferenceCents;
  if (amount && reference && totalCents !== null) {
    const expected = detractionAmountCents(totalCents, referenceValueCents);
    if (bigToCents(amount) !== expected) problems.push(INVOICE_MESSAGES.detraction.amountExpected(centsToString(expected)));
  }
  const means = Number(x.medio_de_pago_detraccion);
  if (!isDetractionPaymentMeans(means)) problems.push(INVOICE_MESSAGES.detraction.paymentMeans);
  if (problems.length > before || totalCents === null || !amount || !isDetractionPaymentMeans(means)) return null;
  return {
    serviceCode: DETRACTION_FREIGHT.serviceCode,
    percent: DETRACTION_FREIGHT.percent,
    baseCents: detractionBaseCents(totalCents, referenceValueCents),
    referenceValueCents,
    amountCents: bigToCents(amount),
    bankAccount,
    paymentMeans: means,
    trip,
  };
}

function checkPayment(p: InvoicePayload, issueDate: string, pendingCents: Cents | null, problems: string[]): InvoiceDraft['payment'] {
  const form = p.payment.type;
  const conditions = p.payment.condiciones || p.condiciones_de_pago || null;
  const raw = p.payment.installments ?? p.venta_al_credito ?? [];
  if (form !== 'contado' && form !== 'credito') {
    problems.push(INVOICE_MESSAGES.paymentForm);
    return { form: 'contado', conditions, instalments: [], dueDate: null };
  }
  if (form === 'contado') {
    if (raw.length > 0) problems.push(INSTALMENT_MESSAGES.contadoWithInstalments);
    return { form, conditions, instalments: [], dueDate: null };
  }
  const instalments: Instalment[] = raw.map((c, i) => {
    const importe = amountField(c.importe, MONEY_DECIMALS, false);
    return { cuota: i + 1, fecha_de_pago: c.fecha_de_pago, importeCents: importe ? bigToCents(importe) : 0 };
  });
  // A reason-13 note's instalments are the modified factura's new ones: their sum is checked against
  // what that factura still owes, which only the register knows (creditNoteAgainstProblems).
  const adjustment = p.type === '07' && p.extras.tipo_de_nota_de_credito?.padStart(2, '0') === INSTALMENT_ADJUSTMENT_REASON;
  const owed = adjustment ? sumCents(instalments.map((c) => c.importeCents)) : pendingCents;
  if (owed !== null) problems.push(...instalmentProblems(instalments, issueDate, owed));
  return { form, conditions, instalments, dueDate: lastDueDate(instalments) };
}

const UNSUPPORTED_EXTRAS = [
  ['descuento_global', 'Descuento global'],
  ['total_otros_cargos', 'Otros cargos'],
  ['total_anticipo', 'Anticipos'],
  ['total_impuestos_bolsas', 'Impuesto a las bolsas plásticas'],
  ['redondeo', 'Redondeo'],
] as const;

/**
 * Every rule of spec section 5 for an invoice, receipt or credit note, in one pass: the list the
 * form shows under 'Corrige:' and the API answers with 422, or the draft ready to number and issue.
 */
export function checkInvoice(input: unknown, ctx: InvoiceContext): InvoiceCheck {
  const parsed = invoicePayloadSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)) };
  }
  const p = parsed.data;
  const problems: string[] = [];

  const type = p.type;
  if (type !== '01' && type !== '03' && type !== '07') problems.push(INVOICE_MESSAGES.typeInvalid);
  if (p.currency !== 'PEN') problems.push(INVOICE_MESSAGES.currency);

  let contingency = false;
  if (p.issueDate === '') problems.push(INVOICE_MESSAGES.issueDateRequired);
  else if (!isIsoDay(p.issueDate)) problems.push(INVOICE_MESSAGES.issueDateInvalid);
  else if (p.issueDate > ctx.today) problems.push(INVOICE_MESSAGES.issueDateFuture);
  else contingency = isContingency(p.issueDate, ctx.today);
  if (p.extras.generado_por_contingencia === true && !contingency && isIsoDay(p.issueDate)) problems.push(INVOICE_MESSAGES.contingencyFlag);

  const creditNote = checkCreditNote(p, problems);
  if (type === '01' || type === '03' || type === '07') {
    const modifiedType = p.extras.documento_que_se_modifica_tipo?.padStart(2, '0');
    problems.push(
      ...seriesProblems(type, p.serie, {
        contingency,
        modifiedType: modifiedType === '01' || modifiedType === '03' ? modifiedType : null,
      }),
    );
  }

  if (p.items.length === 0) problems.push(INVOICE_MESSAGES.itemsRequired);
  const adjustment = type === '07' && p.extras.tipo_de_nota_de_credito?.padStart(2, '0') === INSTALMENT_ADJUSTMENT_REASON;
  const lines = p.items.map((item, i) => checkLine(item, i + 1, problems, adjustment));
  const complete = lines.every((l): l is InvoiceLine => l !== null);
  const totals = complete && lines.length > 0 ? documentTotals(lines) : null;
  if (totals && totals.totalCents > MAX_AMOUNT_CENTS) problems.push(INVOICE_MESSAGES.totalTooLarge);
  const totalCents = totals ? totals.totalCents : null;

  for (const [field, label] of UNSUPPORTED_EXTRAS) {
    const value = p.extras[field];
    const amount = value === null || value === undefined || value === '' ? new Big(0) : parseDecimal(value);
    if (!amount || !amount.eq(0)) problems.push(INVOICE_MESSAGES.unsupported(label));
  }

  const customer = checkCustomer(p, ctx, totalCents, problems);
  const guides = checkGuides(p, problems);
  const detraction = checkDetraction(p, totalCents, problems);
  const pending = totalCents === null ? null : pendingAmountCents(totalCents, detraction?.amountCents ?? 0);
  const payment = checkPayment(p, p.issueDate, pending, problems);

  if (problems.length > 0 || !totals || !customer || (type !== '01' && type !== '03' && type !== '07')) {
    return { ok: false, problems: problems.length > 0 ? problems : [INVOICE_MESSAGES.itemsRequired] };
  }
  return {
    ok: true,
    draft: {
      type,
      series: p.serie,
      issueDate: p.issueDate,
      currency: 'PEN',
      contingency,
      operationType: detraction ? OPERATION_TYPES.detraccionTransporteCarga : OPERATION_TYPES.ventaInterna,
      customerId: p.customerId ?? null,
      customer,
      lines: lines as InvoiceLine[],
      totals,
      payment,
      detraction,
      creditNote,
      guides,
      uniqueCode: p.extras.codigo_unico || null,
      observations: p.observaciones || null,
    },
  };
}

/** The problems alone, for the form's 'Corrige:' list (empty when the document can be issued). */
export function invoiceProblems(input: unknown, ctx: InvoiceContext): string[] {
  const check = checkInvoice(input, ctx);
  return check.ok ? [] : check.problems;
}

export interface PaymentReceiptInput {
  /** What was collected, IGV included. */
  amountCents: Cents;
  customer: BillingCustomer;
  customerId?: number | null;
  issueDate: string;
  /** The shipment code, printed as the item code. */
  code?: string | null;
  description?: string;
  /**
   * One item per price component (issue 34, `receiptItemsFromComponents`), adding up to amountCents;
   * absent, the one item 'Servicio de envío'.
   */
  items?: readonly ComponentItem[] | null;
}

/** A component item as a gravado line of quantity 1: its discount is the line's, net of IGV. */
function componentLine(item: ComponentItem, code: string | null): InvoiceLine {
  return {
    igvType: '10',
    grossCents: item.grossNetCents,
    discountCents: item.grossNetCents - item.netCents,
    subtotalCents: item.netCents,
    igvCents: item.igvCents,
    totalCents: item.amountCents,
    quantity: '1',
    unitValue: new Big(item.grossNetCents).div(100).toFixed(),
    unitPrice: new Big(item.grossCents).div(100).toFixed(),
    itemType: 'servicio',
    code,
    description: item.description,
    unit: 'ZZ',
  };
}

/**
 * The receipt of a manual payment (DESIGN.md section 5): a boleta for a DNI, a factura for a RUC,
 * one item 'Servicio de envío' whose net is amount / 1.18, so it totals exactly what was collected;
 * or, for a shipment priced by components, one such item per component (DESIGN.md 5b).
 */
export function paymentReceiptDraft(input: PaymentReceiptInput, ctx: InvoiceContext): InvoiceCheck {
  const type: InvoiceDocumentType = input.customer.docType === 6 ? '01' : '03';
  const contingency = isContingency(input.issueDate, ctx.today);
  const line: InvoiceLine = {
    ...inclusiveLineAmounts(input.amountCents),
    itemType: 'servicio',
    code: input.code ?? null,
    description: input.description ?? RECEIPT_ITEM_DESCRIPTION,
    unit: 'ZZ',
  };
  const c = input.customer;
  const byComponent =
    input.items?.length && input.items.reduce((sum, i) => sum + i.amountCents, 0) === input.amountCents
      ? input.items.map((i) => componentLine(i, line.code))
      : null;
  const lines = byComponent ?? [line];
  // The same rules as the form: the payload below is what the receipt says, the lines are its exact split.
  const check = checkInvoice(
    {
      type,
      issueDate: input.issueDate,
      serie: suggestedSeries(type, { contingency }),
      items: lines.map((l) => ({
        description: l.description,
        unit: 'ZZ',
        quantity: 1,
        unitValue: l.unitValue,
        ...(l.discountCents > 0 ? { discount: centsToString(l.discountCents) } : {}),
        igvType: '10',
        code: l.code,
      })),
      customerId: input.customerId ?? null,
      customer: input.customerId ? null : { doc_type: c.docType, doc_number: c.docNumber, name: c.name, address: c.address, email: c.email },
    },
    { ...ctx, customer: input.customerId ? c : ctx.customer },
  );
  if (!check.ok) return check;
  return { ok: true, draft: { ...check.draft, lines, totals: documentTotals(lines) } };
}
