/**
 * The documents register's wire contract: what the billing API answers and what its filters take.
 * Both sides infer their types from these schemas (the API declares them as response schemas, the
 * web reads them), so a field exists in one place. Money crosses the wire as a number of soles with
 * at most 2 decimals (see money.ts); dates are Lima calendar days (YYYY-MM-DD), instants ISO strings.
 */
import { z } from 'zod';
import { keysetPageFields } from '../answers.ts';
import { INVALID_DAY_MESSAGE, isIsoDay } from '../dates.ts';
import { NUMBERED_PAGE_ROWS, recordId, recordIdFilter } from '../primitives.ts';
import { DOCUMENT_STATUSES, PAYMENT_FORMS, SUNAT_DOCUMENT_TYPES, VOID_REASON_MAX_LENGTH } from './catalogs.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const money = z.number();

/** What `POST /billing/create-emit` and `POST /billing/emit` answer (spec: Issue result, plus the status). */
export const issueResultSchema = z.object({
  ok: z.boolean(),
  /** Spanish message of a refusal or a provider failure; null when ok. */
  error: z.string().nullable(),
  /** The document's id in the register (also when the provider failed: the document stays 'pendiente'). */
  id: z.number().int().nullable(),
  enlace_del_pdf: z.string().nullable(),
  serie: z.string().nullable(),
  numero: z.number().int().nullable(),
  status: z.enum(DOCUMENT_STATUSES).nullable(),
  /** The rule problems listed under 'Corrige:' when the payload was refused (422). */
  problems: z.array(z.string()).optional(),
});
export type IssueResult = z.infer<typeof issueResultSchema>;

/** One row of the documents register (`GET /billing/documents`): invoices, guides and vouchers alike. */
export const documentRowSchema = z.object({
  id: z.number().int(),
  type: z.enum(SUNAT_DOCUMENT_TYPES),
  series: z.string(),
  number: z.number().int(),
  /** 'F001-00000123' */
  fullNumber: z.string(),
  issueDate: isoDate,
  contingency: z.boolean(),
  status: z.enum(DOCUMENT_STATUSES),
  customerId: z.number().int().nullable(),
  customerDocType: z.string(),
  customerDocNumber: z.string(),
  customerName: z.string(),
  currency: z.literal('PEN'),
  total: money,
  /** The issuing branch (null when an administrator without a branch issued it). */
  branchId: z.number().int().nullable(),
  branchName: z.string().nullable(),
  issuedByName: z.string(),
  createdAt: z.string(),
  /** The document this credit note modifies ('F001-00000007'), else null. */
  modifies: z.string().nullable(),
});
export type DocumentRow = z.infer<typeof documentRowSchema>;

export const documentTotalsSchema = z.object({
  gravada: money,
  exonerada: money,
  inafecta: money,
  igv: money,
  total: money,
});
export type DocumentTotalsAnswer = z.infer<typeof documentTotalsSchema>;

/**
 * A page of the register with the totals of the whole filtered set (voided documents excluded).
 * A customer filter matching more than NUMBERED_PAGE_ROWS documents answers `totalCapped` and no
 * totals (null): they would mean little for so broad a search, and cost a read of every match.
 */
export const documentPageSchema = z.object({
  items: z.array(documentRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  sums: documentTotalsSchema.nullable(),
  ...keysetPageFields,
});
export type DocumentPage = z.infer<typeof documentPageSchema>;

export const DOCUMENT_EVENT_KINDS = ['emitido', 'aceptado', 'rechazado', 'consultado', 'anulación solicitada', 'anulado', 'error'] as const;
export type DocumentEventKind = (typeof DOCUMENT_EVENT_KINDS)[number];

const guidePointSchema = z.object({ ubigeo: z.string(), address: z.string(), establishmentCode: z.string().nullable() });
const guidePartySchema = z.object({ docNumber: z.string(), name: z.string() });

export const guideDetailSchema = z.object({
  mode: z.enum(['remitente', 'transportista']),
  transferDate: isoDate,
  transferReason: z.string(),
  transportType: z.string(),
  /** Decimal text in grossWeightUnit. */
  grossWeight: z.string(),
  grossWeightUnit: z.string(),
  bundles: z.number().int().nullable(),
  origin: guidePointSchema,
  destination: guidePointSchema,
  plate: z.string().nullable(),
  secondaryPlates: z.array(z.string()),
  driver: z.object({ docNumber: z.string(), names: z.string(), surnames: z.string(), licence: z.string() }).nullable(),
  carrier: guidePartySchema.nullable(),
  recipient: guidePartySchema.nullable(),
  items: z.array(
    z.object({ code: z.string().nullable(), description: z.string(), quantity: z.string(), unit: z.string(), weightKg: z.string().nullable() }),
  ),
});

export const voucherDetailSchema = z.object({
  /** '3.00' */
  percent: z.string(),
  baseTotal: money,
  /** Withheld (retention) or perceived (perception). */
  amountTotal: money,
  netTotal: money,
  lines: z.array(
    z.object({
      type: z.string(),
      series: z.string(),
      number: z.string(),
      issueDate: isoDate.nullable(),
      total: money,
      paymentDate: isoDate.nullable(),
      base: money,
      amount: money,
      net: money,
    }),
  ),
});

/** The void's own document: `RA-20261126-1` (comunicación de baja) or `RC-…` (resumen diario), and SUNAT's ticket. */
export const voidSummarySchema = z.object({ kind: z.enum(['RA', 'RC']), id: z.string(), ticket: z.string().nullable() });
export type VoidSummaryInfo = z.infer<typeof voidSummarySchema>;

/** What the register calls each void document. */
export const VOID_SUMMARY_LABELS = { RA: 'Comunicación de baja', RC: 'Resumen diario' } as const;

/** The opened document (`GET /billing/lookup/{id}`): lines, totals, QR, provider answers and history. */
export const documentDetailSchema = documentRowSchema.extend({
  customerAddress: z.string().nullable(),
  customerEmail: z.string().nullable(),
  paymentForm: z.enum(PAYMENT_FORMS),
  instalments: z.array(z.object({ number: z.number().int(), dueDate: isoDate, amount: money })),
  lines: z.array(
    z.object({
      description: z.string(),
      unit: z.string(),
      quantity: z.string(),
      unitValue: z.string(),
      igvType: z.string(),
      discount: money,
      taxable: money,
      igv: money,
      total: money,
    }),
  ),
  totals: documentTotalsSchema,
  detraction: z.object({ code: z.string(), percent: z.number(), amount: money, bankAccount: z.string(), paymentMeans: z.number().int() }).nullable(),
  creditNote: z.object({ reason: z.string(), modifiedType: z.string(), modifiedSeries: z.string(), modifiedNumber: z.number().int() }).nullable(),
  guides: z.array(z.object({ type: z.number().int(), series: z.string(), number: z.string() })),
  /** The SUNAT QR text printed on the PDF. */
  qrText: z.string(),
  hash: z.string().nullable(),
  amountInWords: z.string(),
  voidReason: z.string().nullable(),
  /** The receipt of a payment still pending or paid: it is voided with its payment, from Pagos, never on its own. */
  ofLivePayment: z.boolean(),
  /** The comunicación de baja (RA) or resumen diario (RC) that voided it, when the provider handed its XML. */
  voidSummary: voidSummarySchema.nullable().optional(),
  shipmentIds: z.array(z.number().int()),
  shipmentCodes: z.array(z.string()),
  /** Every request sent to and answer received from the provider, oldest first. */
  providerExchanges: z.array(z.object({ at: z.string(), operation: z.string(), request: z.unknown(), answer: z.unknown() })),
  history: z.array(z.object({ at: z.string(), kind: z.enum(DOCUMENT_EVENT_KINDS), userName: z.string().nullable(), note: z.string().nullable() })),
  /** A dispatch guide (09, 31): what it moves and how; absent on other documents. */
  guide: guideDetailSchema.optional(),
  /** A retention (20) or perception (40) voucher: its percentage and related documents; absent on other documents. */
  voucher: voucherDetailSchema.optional(),
});
export type DocumentDetail = z.infer<typeof documentDetailSchema>;

/** A register bound: a day of the calendar ('2026-13-45' has the shape of one and is not). */
const registerDay = isoDate.refine(isIsoDay, INVALID_DAY_MESSAGE);

/** Filters of the register, as they travel in the address and the query string. */
export const documentFiltersSchema = z.object({
  type: z.enum(SUNAT_DOCUMENT_TYPES).optional(),
  series: z.string().max(4).optional(),
  dateFrom: registerDay.optional(),
  dateTo: registerDay.optional(),
  /** Name or document number of the customer. */
  customer: z.string().max(100).optional(),
  status: z.enum(DOCUMENT_STATUSES).optional(),
  /** The documents a shipment is billed on (its detail page lists them). */
  shipmentId: recordIdFilter(),
});
export type DocumentFilters = z.infer<typeof documentFiltersSchema>;

/** `POST /billing/void` and `GET /billing/void-status/{id}` */
export const voidStatusSchema = z.object({ id: z.number().int(), status: z.enum(DOCUMENT_STATUSES), message: z.string().nullable() });
export type VoidStatus = z.infer<typeof voidStatusSchema>;

/** `GET /billing/unbilled-shipments?customerId=`: a sender's shipments not Anulado and on no live document. */
export const unbilledShipmentSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  createdAt: z.string(),
  originName: z.string(),
  destinationName: z.string(),
  status: z.string(),
  price: money,
  /** The branches' ubigeo and address: the trip of a freight detracción factura (origin, destination). */
  originUbigeo: z.string().nullable().optional(),
  originAddress: z.string().nullable().optional(),
  destinationUbigeo: z.string().nullable().optional(),
  destinationAddress: z.string().nullable().optional(),
  /** The route's reference values (S/), when the route has them configured. */
  reference: z.object({ service: money, effectiveLoad: money, nominalLoad: money }).nullable().optional(),
});
export type UnbilledShipment = z.infer<typeof unbilledShipmentSchema>;

/** The line a billed shipment becomes: 'Servicio de transporte de carga TMT-000123 Lima → Arequipa'. */
export function shipmentLineDescription(s: { code: string; originName: string; destinationName: string }): string {
  return `Servicio de transporte de carga ${s.code} ${s.originName} → ${s.destinationName}`;
}

/** The register's Spanish answers (API refusals the web shows as they come). */
export const BILLING_MESSAGES = {
  notFound: 'Comprobante no encontrado.',
  forbidden: 'No tienes acceso a este comprobante.',
  customerNotFound: 'El cliente no existe.',
  voidReason: 'Indica el motivo de la anulación.',
  voidReasonLong: `El motivo admite hasta ${VOID_REASON_MAX_LENGTH} caracteres.`,
  alreadyVoided: 'El comprobante ya está anulado.',
  voidPending: 'La anulación de este comprobante ya fue solicitada.',
  notAccepted: 'Solo se puede anular un comprobante aceptado por SUNAT.',
  providerPending: 'El proveedor no respondió; el comprobante quedó pendiente con su número y se completará al consultarlo.',
  xmlMissing: 'El XML de este comprobante aún no está disponible.',
  voidXmlMissing: 'Este comprobante no tiene comunicación de baja ni resumen diario con XML.',
  /** The same codigo_unico sent by the same branch with another payload: nothing of the first document is told. */
  idempotencyKeyReused: 'Esta clave de idempotencia ya se usó para otro comprobante.',
  /** A payment's receipt is voided with its payment (DESIGN.md section 5b), never on its own. */
  receiptOfPayment: 'Este comprobante es de un pago: anula el pago desde Pagos.',
  /** The register's hint where a live payment's receipt would offer 'Anular'. */
  voidThroughPayment: 'Se anula desde Pagos, con su pago.',
  shipmentNotFound: (id: number) => `El envío ${id} no existe.`,
  shipmentForbidden: (code: string) => `No tienes acceso al envío ${code}.`,
  shipmentCancelled: (code: string) => `El envío ${code} está anulado.`,
  shipmentBilled: (code: string, document: string) => `El envío ${code} ya está en el comprobante ${document}.`,
  /** The comprobante that holds it has a credit note SUNAT has not accepted yet (a boleta's waits for the daily summary). */
  shipmentBilledNotePending: (code: string, document: string, note: string) =>
    `El envío ${code} ya está en el comprobante ${document}. Su nota de crédito ${note} espera la aceptación de SUNAT: el envío queda libre cuando SUNAT la acepte.`,
  corrige: (problems: readonly string[]) => `Corrige: ${problems.join(' ')}`,
  /** The register's note where a customer search is too broad for totals (documentPageSchema). */
  totalsTooBroad: `Más de ${NUMBERED_PAGE_ROWS} comprobantes coinciden con el cliente: precisa el nombre o el documento para ver los totales.`,
} as const;

/** A void's reason (SUNAT's motivo de baja): one limit and one message for the form, the route and the service. */
export const voidReasonField = z.string().trim().max(VOID_REASON_MAX_LENGTH, BILLING_MESSAGES.voidReasonLong);

/** `POST /billing/void`: a blank reason passes here and is refused by the service with its own message. */
export const voidRequestSchema = z.object({ id: recordId(), motivo: voidReasonField.default('') });

/** `POST /billing/emit`: the receipt of a payment taken at the counter (DESIGN.md section 5). */
export const receiptRequestSchema = z.object({
  /** What was collected, IGV included, in soles. */
  amount: z.union([z.number(), z.string()]),
  customerId: z.number().int().positive().nullish(),
  customer: z
    .object({
      doc_type: z.union([z.number(), z.string()]).transform(Number),
      doc_number: z.string().trim().max(15),
      name: z.string().trim().max(200),
      address: z.string().trim().max(200).nullish(),
      email: z.string().trim().max(200).nullish(),
    })
    .nullish(),
  shipmentCode: z.string().trim().max(20).nullish(),
  description: z.string().trim().max(250).nullish(),
  codigo_unico: z.string().trim().max(20).nullish(),
});
export type ReceiptRequest = z.infer<typeof receiptRequestSchema>;
