import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Shipment } from '../types.ts';
import { shipmentsChanged } from '../../../lib/shipment-queries.ts';

export const deleteCheckpoint = ({ id, checkpointId }: { id: number; checkpointId: number }) =>
  api.delete<Shipment>(`/shipments/${id}/checkpoints/${checkpointId}`);

export function useDeleteCheckpoint() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteCheckpoint, onSuccess: (shipment) => shipmentsChanged(queryClient, shipment) });
}
