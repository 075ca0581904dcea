import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { sessionStore } from '../../../lib/session.ts';

/** Spec section 4: clear the session, its storage and the query cache, then replace to /login. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return () => {
    sessionStore.set(null);
    queryClient.clear();
    navigate('/login', { replace: true });
  };
}
