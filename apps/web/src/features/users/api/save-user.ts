import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User, UserData } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { usersKey } from './get-users.ts';

export interface CreatedUser {
  user: User;
  tempPassword: string;
}

export async function saveUser({ id, ...input }: UserData & { id?: number }): Promise<CreatedUser | { user: User; tempPassword: null }> {
  if (id) return { user: await api.put<User>(`/users/${id}`, input), tempPassword: null };
  return api.post<CreatedUser>('/users', input);
}

/** Create (answers the temporary password, shown once) or update. */
export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
}
