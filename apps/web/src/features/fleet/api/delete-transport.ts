import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { fleetKeys } from './keys.ts';

export const deleteTransport = (id: number) => api.delete(`/transports/${id}`);

export function useDeleteTransport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTransport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fleetKeys.all }),
  });
}
