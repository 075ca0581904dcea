import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation, type Location } from 'react-router';
import type { Role } from '@tramo/domain';
import { useSession } from '../lib/session.ts';

/** Spec section 2: no token → /login remembering where the user was; must-change → /change-password. */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace state={{ from: location }} />;
  if (session.user.mustChangePassword) return <Navigate to="/change-password" replace />;
  return <Outlet />;
}

export function RequireRole({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const session = useSession();
  if (!session || !roles.includes(session.user.role)) return <Navigate to="/forbidden" replace />;
  return <>{children}</>;
}

/** /login with a session goes on: to /change-password when flagged, else where the user was headed, else /. */
export function RedirectIfAuthed({ children }: { children: ReactNode }) {
  const session = useSession();
  const from = (useLocation().state as { from?: Location } | null)?.from;
  if (session) {
    const target = session.user.mustChangePassword ? '/change-password' : from ? `${from.pathname}${from.search}` : '/';
    return <Navigate to={target} replace />;
  }
  return <>{children}</>;
}
