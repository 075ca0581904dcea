import { useSyncExternalStore } from 'react';
import type { User } from '@tramo/domain';

/** The browser storage key the spec names for the session. */
export const AUTH_STORAGE_KEY = 'auth';

export interface Session {
  user: User;
  token: string;
}

type Listener = () => void;
const listeners = new Set<Listener>();

function read(): Session | null {
  try {
    const raw = localStorage.getItem(AUTH_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Session>;
    return parsed.token && parsed.user ? (parsed as Session) : null;
  } catch {
    return null;
  }
}

let current: Session | null = read();

function emit() {
  for (const l of listeners) l();
}

// Another tab logged in, out, or changed the password: follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== AUTH_STORAGE_KEY && event.key !== null) return;
    current = read();
    emit();
  });
}

export const sessionStore = {
  get: () => current,
  set(session: Session | null) {
    current = session;
    if (session) localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify(session));
    else localStorage.removeItem(AUTH_STORAGE_KEY);
    emit();
  },
  updateUser(user: User) {
    if (current && JSON.stringify(current.user) !== JSON.stringify(user)) sessionStore.set({ ...current, user });
  },
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useSession(): Session | null {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
}

/** The logged-in user; only inside routes behind the auth guard. */
export function useCurrentUser(): User {
  const session = useSession();
  if (!session) throw new Error('useCurrentUser outside the auth guard');
  return session.user;
}
