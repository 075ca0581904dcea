import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Delivery } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import type { Shipment } from '@tramo/domain';
import { shipmentsChanged } from '../../../lib/shipment-queries.ts';

export const deliverShipment = ({ id, ...delivery }: Delivery & { id: number }) => api.post<Shipment>(`/shipments/${id}/deliver`, delivery);

/** Confirms the delivery; the answer is the delivered shipment, shown at once, and every list and counter refreshes. */
export function useDeliverShipment() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deliverShipment, onSuccess: (shipment) => shipmentsChanged(queryClient, shipment) });
}
