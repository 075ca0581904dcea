import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Shipment } from '../types.ts';
import { shipmentsChanged } from '../../../lib/shipment-queries.ts';

export const changeSecretCode = ({ id, secretCode }: { id: number; secretCode: string }) =>
  api.put<Shipment>(`/shipments/${id}/secret-code`, { secretCode });

export function useChangeSecretCode() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changeSecretCode, onSuccess: (shipment) => shipmentsChanged(queryClient, shipment) });
}
