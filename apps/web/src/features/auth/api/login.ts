import { useMutation } from '@tanstack/react-query';
import type { LoginInput, User } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { sessionStore } from '../../../lib/session.ts';

export interface LoginResponse {
  user: User;
  token: string;
}

export const login = (input: LoginInput) => api.post<LoginResponse>('/auth/login', input);

export function useLogin() {
  return useMutation({
    mutationFn: login,
    onSuccess: (session) => sessionStore.set(session),
  });
}
