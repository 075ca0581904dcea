import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ComplianceOverride } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { fleetKeys } from './keys.ts';

/** Whether the transport may load and depart today (issue 36): the gate's first refusal and any pending override. */
export const complianceQuery = (transportId: number) =>
  queryOptions({
    queryKey: fleetKeys.compliance(transportId),
    queryFn: ({ signal }) =>
      api.get<{ refusal: string | null; override: ComplianceOverride | null }>(`/transports/${transportId}/compliance`, undefined, signal),
  });
export const useCompliance = (transportId: number) => useQuery(complianceQuery(transportId));

/** The admin's one-departure exception; the load box and the departure read it through the fleet queries. */
export function useCreateOverride(transportId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => api.post<ComplianceOverride>(`/transports/${transportId}/compliance-override`, { reason }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fleetKeys.all }),
  });
}
