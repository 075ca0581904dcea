import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
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
