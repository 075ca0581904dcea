import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router';
import { ApiError, api, setUnauthorizedHandler } from '../src/lib/api.ts';
import { AUTH_STORAGE_KEY, sessionStore } from '../src/lib/session.ts';
import { RequireAuth, RedirectIfAuthed } from '../src/app/guards.tsx';
import LoginPage from '../src/features/auth/LoginPage.tsx';
import { signedUser } from './fixtures.ts';
import { fakeServer, renderRoutes } from './render.tsx';

const user = signedUser();

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStore.set(null);
});

describe('API client', () => {
  it('reads error, then message, then the status fallback', async () => {
    const server = fakeServer({
      'GET /api/a': [409, { error: 'Username ya registrado', fields: { username: 'Username ya registrado' } }],
      'GET /api/b': [400, { message: 'Mensaje' }],
      'GET /api/c': [404, {}],
      'GET /api/d': [502, {}],
    });
    vi.stubGlobal('fetch', server.fetch);
    await expect(api.get('/a')).rejects.toMatchObject({
      message: 'Username ya registrado',
      status: 409,
      fields: { username: 'Username ya registrado' },
    });
    await expect(api.get('/b')).rejects.toMatchObject({ message: 'Mensaje' });
    await expect(api.get('/c')).rejects.toMatchObject({ message: 'Recurso no encontrado' });
    await expect(api.get('/d')).rejects.toMatchObject({ message: 'Error del servidor' });
  });

  it('a network failure reads "Error de red"', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(api.get('/x')).rejects.toEqual(new ApiError('Error de red', 0, 'NETWORK'));
  });

  it('sends the bearer token and ends the session on a 401', async () => {
    const server = fakeServer({ 'GET /api/auth/me': [401, { error: 'Tu sesión expiró. Ingresa nuevamente.' }] });
    vi.stubGlobal('fetch', server.fetch);
    const onUnauthorized = vi.fn(() => sessionStore.set(null));
    setUnauthorizedHandler(onUnauthorized);
    sessionStore.set({ user, token: 'tok' });
    await expect(api.get('/auth/me')).rejects.toMatchObject({ status: 401 });
    expect(server.calls[0]!.auth).toBe('Bearer tok');
    expect(onUnauthorized).toHaveBeenCalledOnce();
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
  });
});

describe('session', () => {
  it('is kept under the "auth" key and follows changes made in another tab', () => {
    sessionStore.set({ user, token: 'tok' });
    expect(JSON.parse(localStorage.getItem('auth')!)).toMatchObject({ token: 'tok', user: { username: 'AGENTE1' } });
    localStorage.removeItem('auth');
    window.dispatchEvent(new StorageEvent('storage', { key: 'auth' }));
    expect(sessionStore.get()).toBeNull();
  });
});

describe('guards and login', () => {
  const routes = [
    {
      path: '/login',
      element: (
        <RedirectIfAuthed>
          <LoginPage />
        </RedirectIfAuthed>
      ),
    },
    { path: '/change-password', element: <p>Cambiar contraseña</p> },
    {
      element: <RequireAuth />,
      children: [
        {
          path: '/',
          element: <Outlet />,
          children: [
            { index: true, element: <p>Panel</p> },
            { path: 'customers', element: <p>Clientes</p> },
          ],
        },
      ],
    },
  ];

  it('sends a visitor to /login and back to where they were headed after logging in', async () => {
    const server = fakeServer({
      'GET /api/health': [200, { status: 'ok', db: 'embedded', demo: true }],
      'POST /api/auth/login': [200, { user, token: 'tok' }],
    });
    vi.stubGlobal('fetch', server.fetch);
    const { router } = renderRoutes(routes, '/customers');
    expect(router.state.location.pathname).toBe('/login');
    expect(await screen.findByText('Credenciales de demostración')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Usuario'), 'agente1');
    await userEvent.type(screen.getByLabelText('Contraseña'), 'agente123');
    await userEvent.click(screen.getByRole('button', { name: 'Ingresar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/customers'));
    expect(server.calls.find((c) => c.method === 'POST')!.body).toEqual({ username: 'agente1', password: 'agente123' });
  });

  it('shows the spec messages and calls nothing when the form is invalid', async () => {
    const server = fakeServer({ 'GET /api/health': [200, { status: 'ok', db: 'embedded', demo: false }] });
    vi.stubGlobal('fetch', server.fetch);
    renderRoutes(routes, '/login');
    await userEvent.type(screen.getByLabelText('Usuario'), 'ab');
    await userEvent.type(screen.getByLabelText('Contraseña'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Ingresar' }));
    expect(await screen.findByText('Mínimo 3 caracteres')).toBeInTheDocument();
    expect(screen.getByText('Mínimo 6 caracteres')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    expect(screen.queryByText('Credenciales de demostración')).not.toBeInTheDocument();
  });

  it('a flagged user is sent to /change-password from any page', () => {
    sessionStore.set({ user: { ...user, mustChangePassword: true }, token: 'tok' });
    const { router } = renderRoutes(routes, '/customers');
    expect(router.state.location.pathname).toBe('/change-password');
  });
});

describe('query retries (spec sections 7 and 9)', () => {
  it('retries once on network, server and 429 failures, never on other 4xx', async () => {
    const { shouldRetryQuery } = await import('../src/app/queryClient.ts');
    expect(shouldRetryQuery(0, new ApiError('Error de red', 0, 'NETWORK'))).toBe(true);
    expect(shouldRetryQuery(0, new ApiError('Error del servidor', 503))).toBe(true);
    expect(shouldRetryQuery(0, new ApiError('Demasiados intentos', 429))).toBe(true);
    expect(shouldRetryQuery(1, new ApiError('Error del servidor', 503))).toBe(false);
    expect(shouldRetryQuery(0, new ApiError('Recurso no encontrado', 404))).toBe(false);
    expect(shouldRetryQuery(0, new ApiError('Datos inválidos', 400))).toBe(false);
  });
});
