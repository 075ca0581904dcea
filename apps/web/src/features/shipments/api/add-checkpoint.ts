import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Shipment } from '../types.ts';
import { shipmentsChanged } from '../../../lib/shipment-queries.ts';

export const addCheckpoint = ({ id, name, visibleToCustomer }: { id: number; name: string; visibleToCustomer: boolean }) =>
  api.post<Shipment>(`/shipments/${id}/checkpoints`, { name, visibleToCustomer });

export function useAddCheckpoint() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addCheckpoint, onSuccess: (shipment) => shipmentsChanged(queryClient, shipment) });
}
