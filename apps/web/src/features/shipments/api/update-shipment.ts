import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ShipmentUpdate } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import type { Shipment } from '../types.ts';
import { shipmentsChanged } from '../../../lib/shipment-queries.ts';

/** Only while Creado; the secret code changes only when sent. */
export const updateShipment = ({ id, ...input }: ShipmentUpdate & { id: number }) => api.put<Shipment>(`/shipments/${id}`, input);

export function useUpdateShipment() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateShipment, onSuccess: (shipment) => shipmentsChanged(queryClient, shipment) });
}
