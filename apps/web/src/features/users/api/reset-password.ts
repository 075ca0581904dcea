import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { usersKey } from './get-users.ts';

export const resetPassword = (id: number) => api.post<{ tempPassword: string }>(`/users/${id}/reset-password`);

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
}
