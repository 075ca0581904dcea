import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReturnAnswer, ReturnShipmentInput } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { shipmentsChanged } from '../../../lib/shipment-queries.ts';

/**
 * POST /shipments/{id}/return: the original becomes 'Devuelto' and its return leg is registered.
 * The key makes a repeated request (a retry after a timeout) answer the same leg, not a refusal.
 */
export const returnShipment = ({ id, idempotencyKey, ...body }: ReturnShipmentInput & { id: number; idempotencyKey: string }) =>
  api.post<ReturnAnswer>(`/shipments/${id}/return`, body, idempotencyKey);

export function useReturnShipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: returnShipment,
    // The original's answer is its detail at once; the return leg is read fresh when opened.
    onSuccess: (answer) => shipmentsChanged(queryClient, answer.original),
  });
}
