import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Reconciliation } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

export const reconciliationQuery = () =>
  queryOptions({
    queryKey: ['reconciliation'],
    queryFn: ({ signal }) => api.get<Reconciliation>('/reconciliation', undefined, signal),
    // A check reads the whole database: only when asked ('Volver a revisar'), never on focus.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
export const useReconciliation = () => useQuery(reconciliationQuery());
