import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { sessionStore, type Session } from '../lib/session.ts';
import { App } from './App.tsx';
import { createAppRouter } from './router.tsx';

/**
 * Renders the staff app into `container`. The app's own page (index.html) calls it at once; the
 * login page opened by address (public/login.ts) loads this module while the user types and calls
 * it after signing in, with the new session, so the app starts in that same document instead of a
 * new one (issue 37). The router is made here, not when the module loads, because it reads the
 * address it starts at, which the login page changes just before.
 */
export function startApp(container: HTMLElement, session?: Session) {
  // This module may have read the browser storage before the sign-in wrote the session there.
  if (session) sessionStore.set(session);
  createRoot(container).render(
    <StrictMode>
      <App router={createAppRouter()} />
    </StrictMode>,
  );
}
