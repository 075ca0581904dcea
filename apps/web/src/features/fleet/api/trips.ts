import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ScanAnswer, Trip, UnloadCheck, UnloadScanAnswer } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { fleetKeys, loadChanged } from './keys.ts';

/** The open trip of a transport (null when it is not on the road). */
export const tripQuery = (transportId: number) =>
  queryOptions({
    queryKey: fleetKeys.trip(transportId),
    queryFn: ({ signal }) => api.get<Trip | null>(`/transports/${transportId}/trip`, undefined, signal),
  });
export const useTrip = (transportId: number) => useQuery(tripQuery(transportId));

/** A transport's latest trips, the most recent first. */
export const useTransportTrips = (transportId: number) =>
  useQuery({
    queryKey: [...fleetKeys.trip(transportId), 'all'],
    queryFn: ({ signal }) => api.get<Trip[]>(`/transports/${transportId}/trips`, undefined, signal),
  });

export const unloadCheckQuery = (transportId: number) =>
  queryOptions({
    queryKey: fleetKeys.unloadCheck(transportId),
    queryFn: ({ signal }) => api.get<UnloadCheck>(`/transports/${transportId}/unload-check`, undefined, signal),
  });
export const useUnloadCheck = (transportId: number, enabled: boolean) => useQuery({ ...unloadCheckQuery(transportId), enabled });

export function useDepart() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ transportId, confirmOverload }: { transportId: number; confirmOverload: boolean }) =>
      api.post<Trip>(`/transports/${transportId}/departure`, { confirmOverload }),
    onSuccess: () => loadChanged(queryClient),
  });
}

export function useArrive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ transportId, receive }: { transportId: number; receive: 'all' | 'scanned' }) =>
      api.post<Trip>(`/transports/${transportId}/arrival`, { receive }),
    onSuccess: () => loadChanged(queryClient),
  });
}

/** One scanner read into the load box; refusals come back as ApiError with their code. */
export function useScanToLoad() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ transportId, code, confirmOverload = false }: { transportId: number; code: string; confirmOverload?: boolean }) =>
      api.post<ScanAnswer>(`/transports/${transportId}/scan`, { code, confirmOverload }),
    onSuccess: () => loadChanged(queryClient),
  });
}

export function useUnloadScan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ transportId, code }: { transportId: number; code: string }) =>
      api.post<UnloadScanAnswer>(`/transports/${transportId}/unload-scans`, { code }),
    onSuccess: (answer, { transportId }) => queryClient.setQueryData(fleetKeys.unloadCheck(transportId), answer.check),
  });
}
