import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { loadChanged } from './keys.ts';

export const unloadShipment = ({ transportId, assignmentId }: { transportId: number; assignmentId: number }) =>
  api.delete(`/transports/${transportId}/assignments/${assignmentId}`);

export function useUnloadShipment() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: unloadShipment, onSuccess: () => loadChanged(queryClient) });
}
