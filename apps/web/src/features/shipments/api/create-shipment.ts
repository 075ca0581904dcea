import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NewShipment } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import type { Shipment } from '../types.ts';
import { shipmentsChanged } from '../../../lib/shipment-queries.ts';

/** The API requotes every line; the client sends no price. */
export const createShipment = (input: NewShipment) => api.post<Shipment>('/shipments', input);

export function useCreateShipment() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createShipment, onSuccess: (shipment) => shipmentsChanged(queryClient, shipment) });
}
