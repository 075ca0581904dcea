import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { fleetKeys } from './keys.ts';

export interface LoadedPlate {
  shipmentId: number;
  transportId: number;
  plate: string;
}

/** Which of the listed shipments are on a transport: shipmentId → plate (issue 16, item 4). */
export function useLoadedPlates(shipmentIds: number[]) {
  const ids = [...shipmentIds].sort((a, b) => a - b).slice(0, 100);
  const query = useQuery({
    queryKey: [...fleetKeys.all, 'loaded-plates', ids],
    queryFn: ({ signal }) => api.get<LoadedPlate[]>('/transports/loaded-plates', { shipmentIds: ids.join(',') }, signal),
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
  });
  return new Map((query.data ?? []).map((p) => [p.shipmentId, p.plate]));
}
