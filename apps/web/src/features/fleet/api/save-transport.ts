import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Transport, TransportData } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { fleetKeys } from './keys.ts';

export const saveTransport = ({ id, ...data }: TransportData & { id?: number }) =>
  id ? api.put<Transport>(`/transports/${id}`, data) : api.post<Transport>('/transports', data);

export function useSaveTransport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTransport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fleetKeys.all }),
  });
}
