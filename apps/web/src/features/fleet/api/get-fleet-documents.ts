import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FleetDocument } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { fleetKeys } from './keys.ts';

/** What expires within `within` days or has expired (issue 36): the Documentos tab and the Panel's warning. */
export const expiringDocumentsQuery = (within: 7 | 15 | 30) =>
  queryOptions({
    queryKey: fleetKeys.expiringDocuments(within),
    queryFn: ({ signal }) => api.get<FleetDocument[]>('/fleet-documents', { within }, signal),
  });

export const useExpiringDocuments = (within: 7 | 15 | 30, enabled = true) => useQuery({ ...expiringDocumentsQuery(within), enabled });
