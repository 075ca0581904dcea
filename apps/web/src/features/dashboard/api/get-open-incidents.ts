import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Incident } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

/** Open incidents the user may see: the Panel's counter (always fresh: an unload check may just have added some). */
export const openIncidentsQuery = () =>
  queryOptions({
    queryKey: ['incidents', 'open'],
    queryFn: ({ signal }) => api.get<{ open: number; items: Incident[] }>('/incidents/open', undefined, signal),
    staleTime: 0,
  });

export const useOpenIncidents = () => useQuery(openIncidentsQuery());
