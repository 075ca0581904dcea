import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CarrierGuidesAnswer } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { loadChanged } from './keys.ts';

/** 'Emitir guías': one GRE transportista per remitente/destinatario pair of the load still without one. */
export function useIssueCarrierGuides() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (transportId: number) => api.post<CarrierGuidesAnswer>(`/transports/${transportId}/carrier-guides`, {}),
    // The load listing shows each shipment's guide number.
    onSettled: () => loadChanged(queryClient),
  });
}
