import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Shipment } from '../types.ts';
import { shipmentsChanged } from '../../../lib/shipment-queries.ts';

export const changeDescription = ({ id, description }: { id: number; description: string | null }) =>
  api.put<Shipment>(`/shipments/${id}/description`, { description });

export function useChangeDescription() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changeDescription, onSuccess: (shipment) => shipmentsChanged(queryClient, shipment) });
}
