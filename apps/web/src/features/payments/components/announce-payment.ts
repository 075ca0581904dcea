import { PAYMENT_MESSAGES, type ManualPaymentResult } from '@tramo/domain';
import { notify } from '../../../lib/notify.ts';
import type { PdfRequest } from '../../billing/index.ts';

/**
 * What the counter is told once a payment is paid (Pagos and the new shipment's 'Cobrar' alike): the
 * toasts, and the 80 mm ticket to open at once, since the receipt prints on the counter's thermal
 * printer. Null when the receipt has no PDF (said in a toast).
 */
export function announcePayment(result: ManualPaymentResult): PdfRequest | null {
  notify.success(`Pago registrado${result.payment.documentNumber ? `: ${result.payment.documentNumber}` : ''}.`);
  if (result.cashSessionOpened) notify.info(PAYMENT_MESSAGES.sessionOpened);
  if (result.warning) notify.error(result.warning);
  if (result.payment.documentId && result.payment.documentNumber) {
    return { id: result.payment.documentId, format: 'ticket', name: result.payment.documentNumber };
  }
  notify.error(PAYMENT_MESSAGES.noPdf);
  return null;
}
