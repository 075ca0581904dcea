import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ModalsProvider } from '@mantine/modals';
import type { User } from '@tramo/domain';
import { sessionStore } from '../src/lib/session.ts';
import UsersPage from '../src/features/users/UsersPage.tsx';
import { UserForm } from '../src/features/users/components/UserForm.tsx';
import { fakeServer, renderRoutes } from './render.tsx';

const admin: User = {
  id: 1,
  username: 'ADMIN',
  firstName: 'Ana',
  lastName: 'Torres',
  name: 'Ana Torres',
  email: null,
  role: 'admin',
  branchId: null,
  branchName: null,
  mustChangePassword: false,
};
const agent: User = {
  ...admin,
  id: 2,
  username: 'AGENTE1',
  firstName: 'Luis',
  lastName: 'Ramírez',
  name: 'Luis Ramírez',
  role: 'agent',
  branchId: 1,
  branchName: 'Lima',
};

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStore.set(null);
});

describe('UsersPage', { timeout: 30_000 }, () => {
  it('does not offer resetting (or deleting) the logged-in user', async () => {
    vi.stubGlobal('fetch', fakeServer({ 'GET /api/users': [200, [admin, agent]] }).fetch);
    sessionStore.set({ user: admin, token: 'tok' });
    renderRoutes([{ path: '/', element: <UsersPage /> }], '/');

    const rowOf = async (username: string) => (await screen.findByText(username, {}, { timeout: 5000 })).closest('tr')!;
    const own = within(await rowOf('ADMIN'));
    expect(own.getByRole('button', { name: 'Restablecer contraseña' })).toBeDisabled();
    expect(own.getByRole('button', { name: 'Eliminar' })).toBeDisabled();
    const other = within(await rowOf('AGENTE1'));
    expect(other.getByRole('button', { name: 'Restablecer contraseña' })).toBeEnabled();
    expect(other.getByRole('button', { name: 'Eliminar' })).toBeEnabled();
  });
});

describe('UsersPage login locks (issue 31)', { timeout: 30_000 }, () => {
  it("shows who is locked out and lifts the lock with 'Desbloquear' after a confirmation", async () => {
    const locked = { ...agent, lockedUntil: '2026-11-26T15:30:00.000Z' };
    const server = fakeServer({
      'GET /api/users': [200, [{ ...admin, lockedUntil: null }, locked]],
      'POST /api/users/2/unlock': [200, { ...locked, lockedUntil: null }],
    });
    vi.stubGlobal('fetch', server.fetch);
    sessionStore.set({ user: admin, token: 'tok' });
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <ModalsProvider>
              <UsersPage />
            </ModalsProvider>
          ),
        },
      ],
      '/',
    );

    const row = within((await screen.findByText('AGENTE1', {}, { timeout: 5000 })).closest('tr')!);
    expect(row.getByText('Bloqueado')).toBeInTheDocument();
    expect(within(screen.getByText('ADMIN').closest('tr')!).queryByRole('button', { name: 'Desbloquear' })).toBeNull();
    await userEvent.click(row.getByRole('button', { name: 'Desbloquear' }));
    const dialog = await screen.findByRole('dialog', { name: 'Desbloquear usuario' });
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Desbloquear' }));
    expect(await screen.findByText('Usuario desbloqueado.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/users/2/unlock']);
  });
});

describe('UserForm', { timeout: 30_000 }, () => {
  const renderForm = (answer: [number, unknown]) => {
    const server = fakeServer({
      'GET /api/users': [200, [admin, agent]],
      'GET /api/branches': [200, []],
      'PUT /api/users/1': answer,
    });
    vi.stubGlobal('fetch', server.fetch);
    renderRoutes([{ path: '/', element: <UserForm user={admin} onCreated={() => {}} onDone={() => {}} /> }], '/');
    return server;
  };

  it('puts a server error on the field the answer names', async () => {
    const message = 'Debe quedar al menos un administrador.';
    const server = renderForm([422, { error: message, code: 'UNPROCESSABLE', fields: { role: message } }]);
    await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));

    expect(await screen.findByText(message, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Rol' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryAllByRole('alert').some((a) => a.textContent?.includes(message))).toBe(false);
    expect(server.calls.some((c) => c.method === 'PUT')).toBe(true);
  });

  it('falls back to the spec words when the answer names no field', async () => {
    renderForm([409, { error: 'Username ya registrado', code: 'DUPLICATE' }]);
    await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
    expect(await screen.findByText('Username ya registrado', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Usuario/ })).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows any other message as a form alert', async () => {
    renderForm([500, { error: 'Error del servidor' }]);
    await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
    expect((await screen.findAllByRole('alert', {}, { timeout: 5000 })).some((a) => a.textContent?.includes('Error del servidor'))).toBe(true);
  });
});
