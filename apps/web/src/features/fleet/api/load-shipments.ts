import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TransportLoad } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { loadChanged } from './keys.ts';

export const loadShipments = ({ transportId, shipmentIds }: { transportId: number; shipmentIds: number[] }) =>
  api.post<TransportLoad>(`/transports/${transportId}/assignments`, { shipmentIds });

export function useLoadShipments() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: loadShipments, onSuccess: () => loadChanged(queryClient) });
}
