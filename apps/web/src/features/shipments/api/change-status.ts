import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ShipmentStatus } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import type { Shipment } from '../types.ts';
import { shipmentsChanged } from '../../../lib/shipment-queries.ts';

export const changeStatus = ({ id, status, note }: { id: number; status: ShipmentStatus; note: string | null }) =>
  api.patch<Shipment>(`/shipments/${id}/status`, { status, note });

export function useChangeStatus() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changeStatus, onSuccess: (shipment) => shipmentsChanged(queryClient, shipment) });
}
