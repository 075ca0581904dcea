import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Shipment } from '../types.ts';
import { shipmentsChanged } from '../../../lib/shipment-queries.ts';

export const addCheckpoint = ({ id, name }: { id: number; name: string }) => api.post<Shipment>(`/shipments/${id}/checkpoints`, { name });

export function useAddCheckpoint() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addCheckpoint, onSuccess: (shipment) => shipmentsChanged(queryClient, shipment) });
}
