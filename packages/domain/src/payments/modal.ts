/**
 * The payment modal 'Registrar pago del envío' (spec section 5): the request the API takes, checked
 * by the same rules the web shows, and the receipt a payment issues (DESIGN.md section 5).
 */
import { z } from 'zod';
import { centsToString, toCents, type Cents } from '../money.ts';
import { optionalRecordId, optionalText, recordId, requiredText } from '../primitives.ts';
import { splitIgvInclusive } from '../billing/amounts.ts';
import { DEFAULT_VOID_REASON, VOID_REASON_MAX_LENGTH } from '../billing/catalogs.ts';
import { RECEIPT_ITEM_DESCRIPTION } from '../billing/invoice.ts';
import { PAYMENT_MESSAGES } from './messages.ts';
import { isPaymentMethod, needsVoucher, PAYMENT_CURRENCY, type PaymentMethod } from './methods.ts';

/** A factura's address at the counter: as long as a customer record's. */
export const PAYMENT_ADDRESS_MAX = 200;

/** The largest amount one counter payment takes (S/ 1 000 000.00). */
export const MAX_PAYMENT_CENTS = 100_000_000;

/** '12.5', 12.5, '12.50' → 1250; anything else (≤ 0, more than 2 decimals, not a number) → null. */
export function parseAmountCents(raw: unknown): Cents | null {
  let text: string;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return null;
    text = String(raw);
  } else if (typeof raw === 'string') text = raw.trim();
  else return null;
  if (!/^[0-9]+(\.[0-9]{1,2})?$/.test(text)) return null;
  const cents = toCents(text);
  return cents > 0 && cents <= MAX_PAYMENT_CENTS ? cents : null;
}

/** A discount: absent, 0 or blank → 0 céntimos; else as an amount (null when invalid). */
export function parseDiscountCents(raw: unknown): Cents | null {
  if (raw === undefined || raw === null || raw === '' || raw === 0 || (typeof raw === 'string' && /^0+(\.0{1,2})?$/.test(raw.trim()))) return 0;
  return parseAmountCents(raw);
}

/** SUNAT catalogue 06 for the modal: 1 DNI, 6 RUC. Absent → from the number's length (11 digits is a RUC). */
export type PaymentDocType = 1 | 6;

export function docTypeOf(docNumber: string, declared?: number | string | null): PaymentDocType {
  if (declared !== undefined && declared !== null && declared !== '') return Number(declared) === 6 ? 6 : 1;
  return docNumber.length === 11 ? 6 : 1;
}

/** The document rule alone: null when fine, else the spec's message. */
export function docNumberProblem(docType: PaymentDocType, docNumber: string): string | null {
  if (docType === 6) return /^[0-9]{11}$/.test(docNumber) ? null : PAYMENT_MESSAGES.ruc;
  return /^[0-9]{8}$/.test(docNumber) ? null : PAYMENT_MESSAGES.dni;
}

const docTypeInput = z
  .union([z.literal(1), z.literal(6), z.literal('1'), z.literal('6')], { error: PAYMENT_MESSAGES.docType })
  .transform((v) => Number(v) as PaymentDocType)
  .optional();

/** `POST /payments/manual` (spec: Manual payment create payload). */
export const manualPaymentRequestSchema = z
  .object({
    shipmentId: recordId(),
    customerId: optionalRecordId(),
    customerName: requiredText(PAYMENT_MESSAGES.name, 200),
    customerDocType: docTypeInput,
    customerDocNumber: z.string({ error: PAYMENT_MESSAGES.dni }).trim().max(20, PAYMENT_MESSAGES.dni),
    /** A factura's address (a RUC's receipt needs one): typed, or left out for the customer record's or the RUC lookup's. */
    customerAddress: optionalText(PAYMENT_ADDRESS_MAX),
    amount: z.union([z.number(), z.string()], { error: PAYMENT_MESSAGES.amount }),
    /** An admin's discount on what the shipment owes (the amount is then the price less it); needs a reason. */
    discount: z.union([z.number(), z.string()], { error: PAYMENT_MESSAGES.discount }).optional(),
    discountReason: optionalText(200),
    currency: z.string({ error: PAYMENT_MESSAGES.currency }).trim().default(PAYMENT_CURRENCY),
    methodCode: z.string({ error: PAYMENT_MESSAGES.method }),
    providerTxId: optionalText(100),
    /** The cash session it goes into; absent → the collector's open one (opened with S/ 0.00 when none). */
    cashSessionId: optionalRecordId(),
  })
  .superRefine((v, ctx) => {
    if (parseAmountCents(v.amount) === null) ctx.addIssue({ code: 'custom', path: ['amount'], message: PAYMENT_MESSAGES.amount });
    const discount = parseDiscountCents(v.discount);
    if (discount === null) ctx.addIssue({ code: 'custom', path: ['discount'], message: PAYMENT_MESSAGES.discount });
    else if (discount > 0 && !v.discountReason) ctx.addIssue({ code: 'custom', path: ['discountReason'], message: PAYMENT_MESSAGES.discountReason });
    const problem = docNumberProblem(docTypeOf(v.customerDocNumber, v.customerDocType), v.customerDocNumber);
    if (problem) ctx.addIssue({ code: 'custom', path: ['customerDocNumber'], message: problem });
    if (v.currency.toUpperCase() !== PAYMENT_CURRENCY) ctx.addIssue({ code: 'custom', path: ['currency'], message: PAYMENT_MESSAGES.currency });
    if (!isPaymentMethod(v.methodCode)) ctx.addIssue({ code: 'custom', path: ['methodCode'], message: PAYMENT_MESSAGES.method });
    else if (needsVoucher(v.methodCode) && !v.providerTxId)
      ctx.addIssue({ code: 'custom', path: ['providerTxId'], message: PAYMENT_MESSAGES.voucher });
  })
  .transform((v) => ({
    shipmentId: v.shipmentId,
    customerId: v.customerId,
    customerName: v.customerName,
    customerDocType: docTypeOf(v.customerDocNumber, v.customerDocType),
    customerDocNumber: v.customerDocNumber,
    customerAddress: v.customerAddress,
    amountCents: parseAmountCents(v.amount)!,
    discountCents: parseDiscountCents(v.discount)!,
    discountReason: parseDiscountCents(v.discount)! > 0 ? v.discountReason! : null,
    currency: PAYMENT_CURRENCY,
    methodCode: v.methodCode as PaymentMethod,
    providerTxId: v.methodCode === 'cash' ? (v.providerTxId ?? null) : v.providerTxId,
    cashSessionId: v.cashSessionId,
  }));
export type ManualPaymentRequest = z.output<typeof manualPaymentRequestSchema>;

/** `POST /payments/manual/{id}/cancel`: the reason, 'ERROR DEL SISTEMA' when blank. */
export const cancelPaymentSchema = z
  .object({ motivo: optionalText(VOID_REASON_MAX_LENGTH) })
  .partial()
  .default({})
  .transform((v) => ({ motivo: v.motivo ?? DEFAULT_VOID_REASON }));

export const RECEIPT_DESCRIPTION_MAX = 250;

/**
 * The receipt a payment issues: boleta 03 for a DNI, factura 01 for a RUC; one line 'Servicio de
 * envío TMT-…' for the amount collected, which names an admin's discount ('Descuento S/ x.xx: reason').
 */
export interface ReceiptItem {
  type: '01' | '03';
  description: string;
  amountCents: Cents;
  /** amount / 1.18 rounded half up to the céntimo; IGV = amount − net, so they add up exactly. */
  netCents: Cents;
  igvCents: Cents;
}

export function receiptItemFor(
  shipmentCode: string | null,
  amountCents: Cents,
  docType: PaymentDocType,
  discount: { cents: Cents; reason: string | null } = { cents: 0, reason: null },
): ReceiptItem {
  const service = shipmentCode ? `${RECEIPT_ITEM_DESCRIPTION} ${shipmentCode}` : RECEIPT_ITEM_DESCRIPTION;
  const withDiscount = discount.cents > 0 ? `${service} (Descuento S/ ${centsToString(discount.cents)}: ${discount.reason ?? ''})` : service;
  const description = withDiscount.slice(0, RECEIPT_DESCRIPTION_MAX);
  const { netCents, igvCents } = splitIgvInclusive(amountCents);
  return { type: docType === 6 ? '01' : '03', description, amountCents, netCents, igvCents };
}

/** The idempotency key of a payment's receipt (billing's codigo_unico, ≤ 20 characters): a retry finds the same document. */
export const receiptKey = (paymentId: number, attempt = 0): string => (attempt > 0 ? `PAGO-${paymentId}-${attempt}` : `PAGO-${paymentId}`);
