import {
  centsToNumber,
  formatDocumentNumber,
  inScope,
  PAYMENT_MESSAGES,
  PAYMENT_METHOD_NAMES,
  PAYMENT_STATUS_LABELS,
  scopeOf,
  type DocumentStatus,
  type ManualPayment,
  type PaymentMethod,
  type PaymentStatus,
} from '@tramo/domain';
import { forbidden, notFound } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { paymentById, type PaymentView } from './queries/payments.ts';

/** What every concern of the module shares: who sees what, and a payment as the API answers it. */

export const iso = (v: Date | string | null): string | null => (v === null ? null : v instanceof Date ? v.toISOString() : new Date(v).toISOString());

export function toPayment(v: PaymentView): ManualPayment {
  const p = v.p;
  return {
    id: p.id,
    shipment_id: p.shipmentId,
    shipmentCode: v.shipmentCode,
    status: p.status as PaymentStatus,
    statusLabel: PAYMENT_STATUS_LABELS[p.status as PaymentStatus],
    method_code: p.method as PaymentMethod,
    methodName: PAYMENT_METHOD_NAMES[p.method as PaymentMethod],
    amount: centsToNumber(p.amountCents),
    discount: centsToNumber(p.discountCents),
    discountReason: p.discountReason,
    currency: 'PEN',
    customer_id: p.customerId,
    customer_name: p.customerName,
    customerDocType: p.customerDocType,
    customerDocNumber: p.customerDocNumber,
    providerTxId: p.providerTxId,
    received_at: p.createdAt.toISOString(),
    paidAt: iso(p.paidAt),
    canceledAt: iso(p.canceledAt),
    cancelReason: p.cancelReason,
    branchId: p.branchId,
    branchName: v.branchName,
    collectedByUserId: p.userId,
    collectedByName: p.userName,
    cashSessionId: p.cashSessionId,
    documentId: p.documentId,
    documentNumber: v.docSeries && v.docNumber ? formatDocumentNumber(v.docSeries, v.docNumber) : null,
    documentStatus: (v.docStatus as DocumentStatus | null) ?? null,
    pdfUrl: p.documentId ? (v.docPdfUrl ?? `/api/billing/documents/${p.documentId}/pdf?format=a4`) : null,
    lastError: p.lastError,
  };
}

export async function visiblePayment(ctx: ServiceContext, user: SessionUser, id: number): Promise<PaymentView> {
  const v = await paymentById(ctx.db, id);
  if (!v) throw notFound(PAYMENT_MESSAGES.notFound);
  if (!inScope(scopeOf(user), v.p.branchId)) throw forbidden(PAYMENT_MESSAGES.forbidden);
  return v;
}

export const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
export const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
