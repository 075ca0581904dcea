import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WhoPaysRules } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

const rulesKey = ['who-pays-rules'] as const;

/** 'Reglas de cobro' (issue 33): pago en destino limits, routes that refuse it, each branch's methods. */
export const whoPaysRulesQuery = () =>
  queryOptions({ queryKey: rulesKey, queryFn: ({ signal }) => api.get<WhoPaysRules>('/settings/who-pays', undefined, signal) });
export const useWhoPaysRules = () => useQuery(whoPaysRulesQuery());

export function useSaveWhoPaysRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WhoPaysRules) => api.put<WhoPaysRules>('/settings/who-pays', body),
    onSuccess: (saved) => queryClient.setQueryData(rulesKey, saved),
  });
}
