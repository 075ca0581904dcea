/**
 * The payments API's answers (the routes declare them; the web infers its types from them). Money is
 * a number of soles with at most 2 decimals; instants ISO strings; days Lima calendar days.
 */
import { z } from 'zod';
import { DOCUMENT_STATUSES } from '../billing/catalogs.ts';
import { keysetPageFields } from '../answers.ts';
import { issueResultSchema } from '../billing/documents.ts';
import { MOVEMENT_KINDS, PAYMENT_METHODS, PAYMENT_STATUSES } from './methods.ts';
import { PAYERS, PAYMENT_MOMENTS } from '../who-pays.ts';

const money = z.number();
const methodCode = z.enum(PAYMENT_METHODS);
const status = z.enum(PAYMENT_STATUSES);

/** `GET /payments/methods` */
export const paymentMethodSchema = z.object({ code: methodCode, name: z.string() });

/** A manual payment (spec section 3, plus what /pagos shows of it). */
export const manualPaymentSchema = z.object({
  id: z.number(),
  shipment_id: z.number(),
  shipmentCode: z.string(),
  status,
  statusLabel: z.string(),
  method_code: methodCode,
  methodName: z.string(),
  amount: money,
  /** An admin's discount on what the shipment owed (0 when none): amount = owed − discount. */
  discount: money,
  discountReason: z.string().nullable(),
  currency: z.literal('PEN'),
  customer_id: z.number().nullable(),
  customer_name: z.string(),
  customerDocType: z.number(),
  customerDocNumber: z.string(),
  providerTxId: z.string().nullable(),
  received_at: z.string(),
  paidAt: z.string().nullable(),
  canceledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
  branchId: z.number().nullable(),
  branchName: z.string().nullable(),
  collectedByUserId: z.number(),
  collectedByName: z.string(),
  cashSessionId: z.number(),
  documentId: z.number().nullable(),
  /** 'B001-00000012' */
  documentNumber: z.string().nullable(),
  documentStatus: z.enum(DOCUMENT_STATUSES).nullable(),
  /** The receipt's PDF (A4); `?format=ticket` gives the 80 mm ticket. */
  pdfUrl: z.string().nullable(),
  /** The last refusal of the receipt while pending (provider's message or 'No se pudo registrar el pago.'). */
  lastError: z.string().nullable(),
});
export type ManualPayment = z.infer<typeof manualPaymentSchema>;

export const manualPaymentPageSchema = z.object({
  items: z.array(manualPaymentSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  ...keysetPageFields,
});

/**
 * `POST /payments/manual` and `/confirm`: 201 paid, 202 pending (the receipt failed: `error` says why,
 * `/confirm` retries). `warning` when only the confirmation failed or the PDF link is missing.
 */
export const manualPaymentResultSchema = z.object({
  ok: z.boolean(),
  payment: manualPaymentSchema,
  receipt: issueResultSchema.nullable(),
  error: z.string().nullable(),
  warning: z.string().nullable(),
  /** True when the payment opened the collector's cash session (float S/ 0.00). */
  cashSessionOpened: z.boolean(),
});
export type ManualPaymentResult = z.infer<typeof manualPaymentResultSchema>;

/** `GET /payments/receivables`: a shipment to collect today (spec: Shipment as used for payment). */
export const collectShipmentSchema = z.object({
  id: z.number(),
  code: z.string(),
  status: z.string(),
  senderName: z.string(),
  senderCustomerId: z.number().nullable(),
  senderDocType: z.number().nullable(),
  senderDoc: z.string().nullable(),
  recipientName: z.string(),
  recipientDoc: z.string(),
  originBranchId: z.number(),
  destinationBranchId: z.number(),
  originBranch: z.object({ name: z.string() }),
  destinationBranch: z.object({ name: z.string() }),
  createdAt: z.string(),
  quotedPrice: money,
  quotedCurrency: z.string(),
  weightKg: z.number(),
  productType: z.string(),
  description: z.string().nullable(),
  paid: z.boolean(),
  /** 'Pagado' / 'No pagado' */
  pill: z.string(),
  paymentId: z.number().nullable(),
  paymentStatus: status.nullable(),
  /** Who pays and when (issue 33): the destination's list collects from the recipient or the third party. */
  payer: z.enum(PAYERS),
  paymentMoment: z.enum(PAYMENT_MOMENTS),
  payerDocType: z.number().nullable(),
  payerDocNumber: z.string().nullable(),
  payerName: z.string().nullable(),
});
export const collectShipmentPageSchema = z.object({
  items: z.array(collectShipmentSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

/** Spec section 3 'Customer (lookup/billing)'. */
export const paymentCustomerSchema = z.object({
  id: z.number(),
  doc_type: z.number(),
  doc_number: z.string(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string().nullable(),
  address: z.string().nullable(),
  email: z.string().nullable(),
});

/** Spec section 3 'Movement (report row)' and 'Payment movement'. */
export const movementRowSchema = z.object({
  type: z.literal('payment'),
  id: z.number(),
  date: z.string(),
  branchId: z.number().nullable(),
  branchName: z.string().nullable(),
  collectedByName: z.string().nullable(),
  collectedByUserId: z.number().nullable(),
  methodName: z.string(),
  methodCode: methodCode,
  amount: money,
  currency: z.string(),
  statusLabel: z.string(),
  status,
  payerName: z.string().nullable(),
  customerName: z.string().nullable(),
  reference: z.string().nullable(),
  shipmentId: z.number().nullable(),
  shipmentCode: z.string().nullable(),
  platePrimary: z.string().nullable(),
  plateSecondary: z.string().nullable(),
  driver1Name: z.string().nullable(),
  driver2Name: z.string().nullable(),
  drivers: z.string().nullable(),
  senderName: z.string().nullable(),
  senderDoc: z.string().nullable(),
  shipmentDescription: z.string().nullable(),
  providerTxId: z.string().nullable(),
  evidenceUrl: z.string().nullable(),
  notes: z.string().nullable(),
  /** Issue 33: the branch that sold the shipment (its origin) beside the one that collected (branchId), and when it was to be paid. */
  soldBranchId: z.number().nullable(),
  soldBranchName: z.string().nullable(),
  paymentMoment: z.enum(PAYMENT_MOMENTS).nullable(),
});
export type MovementRow = z.infer<typeof movementRowSchema>;

const totalLine = z.object({ count: z.number(), amount: money });
export const movementTotalsSchema = z.object({
  byMethod: z.array(totalLine.extend({ methodCode, methodName: z.string() })),
  byStatus: z.array(totalLine.extend({ status, statusLabel: z.string() })),
  /** The filtered set's paid amount (what came in). */
  paid: money,
  count: z.number(),
});
export const movementPageSchema = z.object({
  items: z.array(movementRowSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  totals: movementTotalsSchema,
  ...keysetPageFields,
});
export type MovementPage = z.infer<typeof movementPageSchema>;

/** Spec section 3 'Receivable customer row'. */
export const receivableRowSchema = z.object({
  customer_key: z.string(),
  customer_id: z.number().nullable(),
  customer_name: z.string(),
  customer_doc: z.string().nullable(),
  shipments_count: z.number(),
  open_amount: money,
  currency: z.literal('PEN'),
  last_shipment_at: z.string(),
});
export const receivablesAnswerSchema = z.object({ items: z.array(receivableRowSchema), total: z.number(), totalOpen: money });

/** `GET /payments/report/daily?date=`: the day's paid totals per branch, user and method. */
export const dailyReportSchema = z.object({
  date: z.string(),
  rows: z.array(
    z.object({
      branchId: z.number().nullable(),
      branchName: z.string().nullable(),
      userId: z.number(),
      userName: z.string(),
      methodCode,
      methodName: z.string(),
      count: z.number(),
      amount: money,
    }),
  ),
  byMethod: z.array(totalLine.extend({ methodCode, methodName: z.string() })),
  total: money,
  canceled: totalLine,
});

export const cashMovementSchema = z.object({
  id: z.number(),
  kind: z.enum(MOVEMENT_KINDS),
  at: z.string(),
  paymentId: z.number(),
  shipmentCode: z.string(),
  methodCode,
  amount: money,
  /** A void of a payment taken in an earlier, closed session. */
  adjustment: z.boolean(),
  /** The freight of a pago en destino shipment (issue 33). */
  destino: z.boolean(),
});

const closingSchema = z.object({
  float: money,
  lines: z.array(z.object({ methodCode, methodName: z.string(), count: z.number(), expected: money, counted: money, difference: money })),
  /** The session's payments voided since they were taken (the same day or later): 'Anulados', not in a line's count. */
  voided: totalLine,
  expected: money,
  counted: money,
  difference: money,
});

export const cashSessionSchema = z.object({
  id: z.number(),
  userId: z.number(),
  userName: z.string(),
  branchId: z.number(),
  branchName: z.string().nullable(),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  float: money,
  status: z.enum(['open', 'closed']),
  /** Live for an open session (counted = expected); as closed for a closed one. */
  closing: closingSchema,
  /** Issue 33: the session's pago en destino collections still paid (count and amount), shown apart; already in the lines above. */
  destination: totalLine,
  movements: z.array(cashMovementSchema),
});
export type CashSession = z.infer<typeof cashSessionSchema>;
/** `GET /payments/cash-sessions/current`: the open session, or null. */
export const currentCashSessionSchema = z.object({ session: cashSessionSchema.nullable() });
export const cashSessionListSchema = z.object({ date: z.string(), items: z.array(cashSessionSchema) });
