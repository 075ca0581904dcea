import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TransportLoad } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { fleetKeys } from './keys.ts';

export const transportLoadQuery = (transportId: number) =>
  queryOptions({
    queryKey: fleetKeys.load(transportId),
    queryFn: ({ signal }) => api.get<TransportLoad>(`/transports/${transportId}/assignments`, undefined, signal),
  });

export const useTransportLoad = (transportId: number) => useQuery(transportLoadQuery(transportId));
