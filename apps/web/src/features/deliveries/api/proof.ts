import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeliveryProof, DeliverySettings } from '@tramo/domain';
import { api, apiFile } from '../../../lib/api.ts';
import { saveBlob } from '../../../lib/files.ts';

/** Proof of delivery (issue 18): the company rule, a delivered shipment's photo and signature, its PDF. */

export const deliverySettingsQuery = queryOptions({
  queryKey: ['deliveries', 'settings'],
  queryFn: () => api.get<DeliverySettings>('/deliveries/settings'),
  staleTime: 60_000,
});
export const useDeliverySettings = () => useQuery(deliverySettingsQuery);

export function useUpdateDeliverySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: DeliverySettings) => api.put<DeliverySettings>('/deliveries/settings', settings),
    onSuccess: (saved) => queryClient.setQueryData(deliverySettingsQuery.queryKey, saved),
  });
}

export const proofQuery = (shipmentId: number) =>
  queryOptions({
    queryKey: ['deliveries', 'proof', shipmentId],
    queryFn: () => api.get<DeliveryProof>(`/shipments/${shipmentId}/proof`),
    // A proof never changes once the delivery is confirmed.
    staleTime: Infinity,
  });
export const useDeliveryProof = (shipmentId: number, enabled: boolean) => useQuery({ ...proofQuery(shipmentId), enabled });

/** Fetches the POD PDF with the session and saves it. */
export async function downloadProofPdf(shipmentId: number, code: string): Promise<void> {
  saveBlob(await apiFile(`/shipments/${shipmentId}/proof.pdf`), `constancia-${code}.pdf`);
}
