import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LookupResult } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

export type LookupKind = 'dni' | 'ruc';

/** Invalidated with every customer change: the local provider answers from the customers themselves. */
export const lookupKey = ['lookup'] as const;

export const lookupQuery = (kind: LookupKind, number: string) =>
  queryOptions({
    queryKey: [...lookupKey, kind, number],
    queryFn: ({ signal }) => api.get<LookupResult>(`/lookup/${kind}/${number}`, undefined, signal),
    // An unknown number or a service outage is an answer to show, not something to retry.
    retry: false,
    staleTime: 5 * 60_000,
  });

/** Looks a DNI or RUC up when `request` is set (the form sets it only for a complete, valid number). */
export function useLookup(request: { kind: LookupKind; number: string } | null) {
  return useQuery({ ...lookupQuery(request?.kind ?? 'dni', request?.number ?? ''), enabled: request !== null });
}
