import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { User } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { sessionStore } from '../../../lib/session.ts';

/**
 * Confirms the stored session with the server when the shell opens: a revoked or expired token
 * gets its 401 (and the logout) at once, and a changed role or branch shows up without re-login.
 */
export function useRefreshSessionUser() {
  const me = useQuery({ queryKey: ['auth', 'me'], queryFn: () => api.get<User>('/auth/me'), staleTime: 60_000 });
  useEffect(() => {
    if (me.data) sessionStore.updateUser(me.data);
  }, [me.data]);
}
