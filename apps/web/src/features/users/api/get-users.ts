import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

export const usersKey = ['users'] as const;

export const usersQuery = (q = '') =>
  queryOptions({
    queryKey: [...usersKey, { q }],
    queryFn: ({ signal }) => api.get<User[]>('/users', { q }, signal),
  });

export const useUsers = (q = '') => useQuery(usersQuery(q));
