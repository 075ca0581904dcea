import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Shipment } from '../types.ts';
import { shipmentsChanged } from '../../../lib/shipment-queries.ts';

/** DELETE /shipments/{id} cancels (status Anulado); the row stays. */
export const cancelShipment = (id: number) => api.delete<Shipment>(`/shipments/${id}`);

export function useCancelShipment() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelShipment, onSuccess: (shipment) => shipmentsChanged(queryClient, shipment) });
}
