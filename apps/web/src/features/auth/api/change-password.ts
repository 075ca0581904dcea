import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordInput } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { sessionStore } from '../../../lib/session.ts';
import type { LoginResponse } from './login.ts';

export const changePassword = (input: ChangePasswordInput) => api.post<LoginResponse>('/auth/change-password', input);

/** The server revokes every other session and hands this one a fresh token. */
export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (session) => sessionStore.set(session),
  });
}
