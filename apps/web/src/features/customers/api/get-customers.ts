import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Customer, Page } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

export const customersKey = ['customers'] as const;

/** The screen pages on the client, so it asks for up to this many matches at once (the API's maximum). */
export const SCREEN_LIMIT = 1000;

export const customersQuery = (q: string, pageSize = SCREEN_LIMIT) =>
  queryOptions({
    queryKey: [...customersKey, { q, pageSize }],
    queryFn: ({ signal }) => api.get<Page<Customer>>('/customers', { q, pageSize }, signal),
  });

export const useCustomers = (q: string, pageSize = SCREEN_LIMIT, enabled = true) =>
  useQuery({ ...customersQuery(q, pageSize), enabled, placeholderData: keepPreviousData });
