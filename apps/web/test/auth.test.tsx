import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { User } from '@tramo/domain';
import { AUTH_STORAGE_KEY, sessionStore } from '../src/lib/session.ts';
import ChangePasswordPage from '../src/features/auth/ChangePasswordPage.tsx';
import { fakeServer, renderRoutes } from './render.tsx';

const flagged: User = {
  id: 7,
  username: 'NUEVO',
  firstName: null,
  lastName: null,
  name: 'NUEVO',
  email: null,
  role: 'agent',
  branchId: 1,
  branchName: 'Lima',
  mustChangePassword: true,
};

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStore.set(null);
});

describe('ChangePasswordPage', { timeout: 30_000 }, () => {
  it('lets a user forced to change the password log out instead', async () => {
    const server = fakeServer({});
    vi.stubGlobal('fetch', server.fetch);
    sessionStore.set({ user: flagged, token: 'tok' });
    const { router } = renderRoutes(
      [
        { path: '/login', element: <p>Pantalla de ingreso</p> },
        { path: '/change-password', element: <ChangePasswordPage /> },
      ],
      '/change-password',
    );
    expect(screen.getByText('Primer ingreso')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Cerrar sesión' }));
    expect(await screen.findByText('Pantalla de ingreso')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(sessionStore.get()).toBeNull();
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
    // Logging out does not submit the password form.
    expect(server.calls).toEqual([]);
  });
});
