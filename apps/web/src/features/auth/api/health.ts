import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface Health {
  status: 'ok';
  db: 'embedded' | 'postgres';
  demo: boolean;
}

export const healthQuery = queryOptions({
  queryKey: ['health'],
  queryFn: () => api.get<Health>('/health'),
  staleTime: 5 * 60_000,
});

export const useHealth = () => useQuery(healthQuery);
