import { useSyncExternalStore } from 'react';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page, Transport, TransportStatus } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { fleetKeys } from './keys.ts';

export interface TransportFilters {
  status?: TransportStatus | '';
  route?: string;
  page?: number;
  limit?: number;
}

export const transportsQuery = (filters: TransportFilters) =>
  queryOptions({
    queryKey: [...fleetKeys.transports(), filters],
    queryFn: ({ signal }) => api.get<Page<Transport>>('/transports', { ...filters }, signal),
    placeholderData: keepPreviousData,
  });

export const useTransports = (filters: TransportFilters) => useQuery(transportsQuery(filters));

/**
 * The newest version of a chosen transport among the transport lists in the cache: after an edit
 * (a plate, a driver) the lists reload, and whoever shows the chosen one follows them.
 */
export function useLatestTransport(chosen: Transport | null): Transport | null {
  const cache = useQueryClient().getQueryCache();
  const latest = () => {
    let newest = chosen;
    let newestAt = -1;
    for (const query of cache.findAll({ queryKey: fleetKeys.transports() })) {
      const found = (query.state.data as Page<Transport> | undefined)?.items.find((t) => t.id === chosen?.id);
      if (found && query.state.dataUpdatedAt > newestAt) {
        newest = found;
        newestAt = query.state.dataUpdatedAt;
      }
    }
    return newest;
  };
  return useSyncExternalStore((onChange) => cache.subscribe(onChange), latest, latest);
}
