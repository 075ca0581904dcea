import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { usersKey } from './get-users.ts';

/** Lifts a login lock left by wrong passwords (issue 31). */
export const unlockUser = (id: number) => api.post<User>(`/users/${id}/unlock`);

export function useUnlockUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlockUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
}
