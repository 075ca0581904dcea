import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { fleetKeys } from './keys.ts';

export const deleteDriver = (id: number) => api.delete(`/drivers/${id}`);

export function useDeleteDriver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDriver,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fleetKeys.drivers() }),
  });
}
