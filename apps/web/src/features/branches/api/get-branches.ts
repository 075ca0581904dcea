import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Branch } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

export const branchesKey = ['branches'] as const;

export const branchesQuery = (q = '') =>
  queryOptions({
    queryKey: [...branchesKey, { q }],
    queryFn: ({ signal }) => api.get<Branch[]>('/branches', { q }, signal),
  });

/** All branches (for selects across the app) or those matching `q`. */
export const useBranches = (q = '') => useQuery(branchesQuery(q));
