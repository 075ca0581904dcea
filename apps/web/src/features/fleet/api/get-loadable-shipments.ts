import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LoadableShipment } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { fleetKeys } from './keys.ts';

/** Creado shipments on no transport, matching the code, document or a sender/recipient name. */
export const loadableShipmentsQuery = (q: string) =>
  queryOptions({
    queryKey: [...fleetKeys.loadable(), q],
    queryFn: ({ signal }) => api.get<LoadableShipment[]>('/transports/loadable-shipments', { q }, signal),
    staleTime: 0,
  });

export const useLoadableShipments = (q: string, enabled: boolean) => useQuery({ ...loadableShipmentsQuery(q), enabled });
