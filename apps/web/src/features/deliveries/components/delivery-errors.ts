import { DELIVERY_MESSAGES } from '@tramo/domain';
import { ApiError } from '../../../lib/api.ts';

export const DELIVERY_FIELDS = ['secretCode', 'receiverName', 'receiverDoc', 'deliveredByName', 'notes', 'photo', 'signature'] as const;
export type DeliveryField = (typeof DELIVERY_FIELDS)[number];

/**
 * Spec section 8: where a refused delivery's message goes. The server's own field wins; else by
 * text: 'Datos del receptor' on the receiver, 'Datos de quien entrega' on the deliverer, and the
 * secret-code messages, 'No se puede entregar desde el estado' and everything else on the secret field.
 */
export function placeDeliveryError(err: unknown): { field: DeliveryField; message: string } {
  const message = (err instanceof Error && err.message) || DELIVERY_MESSAGES.failed;
  if (err instanceof ApiError) {
    const known = DELIVERY_FIELDS.find((f) => err.fields[f]);
    if (known) return { field: known, message: err.fields[known]! };
  }
  if (/Datos del receptor/i.test(message)) return { field: /documento/i.test(message) ? 'receiverDoc' : 'receiverName', message };
  if (/Datos de quien entrega/i.test(message)) return { field: 'deliveredByName', message };
  return { field: 'secretCode', message };
}
