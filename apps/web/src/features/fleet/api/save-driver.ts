import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Driver, DriverData } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { fleetKeys } from './keys.ts';

export const saveDriver = ({ id, ...data }: DriverData & { id?: number }) =>
  id ? api.put<Driver>(`/drivers/${id}`, data) : api.post<Driver>('/drivers', data);

/** Drivers appear inside transports too, so every fleet query refetches. */
export function useSaveDriver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDriver,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fleetKeys.all }),
  });
}
