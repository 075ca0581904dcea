import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DestinationDue } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

/** The Panel's 'Por cobrar en destino' (issue 33): the agent's branch, an admin's every branch. */
export const destinationDueQuery = () =>
  queryOptions({
    queryKey: ['receivables', 'destination-due'],
    queryFn: ({ signal }) => api.get<DestinationDue>('/dashboard/destination-due', undefined, signal),
    staleTime: 0,
  });

export const useDestinationDue = () => useQuery(destinationDueQuery());
