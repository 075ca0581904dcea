import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SHIPMENT_MESSAGES, type User } from '@tramo/domain';
import { sessionStore } from '../src/lib/session.ts';
import PanelPage from '../src/features/dashboard/PanelPage.tsx';
import { signedUser, testBranches } from './fixtures.ts';
import { renderRoutes } from './render.tsx';

const user = (role: User['role']): User => signedUser({ role, username: 'USUARIO1' });

const branches = testBranches.slice(0, 2);

const zero = { Creado: 0, 'En tránsito': 0, 'En agencia': 0, Entregado: 0, Anulado: 0, Devuelto: 0 };
const dashboard = (bucket: string) => ({
  dateFrom: '2024-01-01',
  dateTo: '2025-03-01',
  bucket,
  counters: { total: 12, Creado: 5, 'En tránsito': 4, 'En agencia': 0, Entregado: 2, Anulado: 1, Devuelto: 0 },
  series: [
    { day: '2024-01-01', total: 0, byStatus: zero },
    { day: '2024-02-01', total: 12, byStatus: { Creado: 5, 'En tránsito': 4, 'En agencia': 0, Entregado: 2, Anulado: 1, Devuelto: 0 } },
  ],
});

function server(bucket = 'day') {
  const calls: URL[] = [];
  const answers: Record<string, unknown> = {
    '/api/branches': branches,
    '/api/dashboard': dashboard(bucket),
    '/api/shipments': { items: [], total: 12, page: 1, pageSize: 8 },
  };
  const fetchImpl = async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push(url);
    const body = answers[url.pathname];
    if (body === undefined) throw new Error(`unexpected call ${url.pathname}`);
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { calls, fetch: fetchImpl as typeof fetch };
}

const renderPanel = (role: User['role'], path = '/') => {
  sessionStore.set({ user: user(role), token: 'tok' });
  return renderRoutes([{ path: '/', element: <PanelPage /> }], path);
};

/** The filters a call carried, without the list's paging. */
const filters = (url: URL) => {
  const params = new URLSearchParams(url.search);
  params.delete('page');
  params.delete('pageSize');
  return Object.fromEntries(params);
};
const last = (calls: URL[], path: string) => calls.filter((u) => u.pathname === path).at(-1)!;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStore.set(null);
});

describe('Panel', { timeout: 30_000 }, () => {
  it('offers the movements report to admins and agents, never to couriers', async () => {
    vi.stubGlobal('fetch', server().fetch);
    renderPanel('courier');
    expect(await screen.findByTestId('counter-total')).toHaveTextContent('12');
    expect(screen.getByRole('link', { name: 'Envíos' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Rastreo' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Movimientos' })).not.toBeInTheDocument();
    cleanup();

    for (const role of ['admin', 'agent'] as const) {
      renderPanel(role);
      expect(await screen.findByRole('link', { name: 'Movimientos' })).toHaveAttribute('href', '/reports/movimientos');
      cleanup();
    }
  });

  it('opens on 30 days and, with the dates cleared, asks counters and table for the very same filter', async () => {
    const api = server();
    vi.stubGlobal('fetch', api.fetch);
    const u = userEvent.setup();
    renderPanel('agent');
    await screen.findByTestId('counter-total');
    const opening = filters(last(api.calls, '/api/dashboard'));
    expect(opening.dateFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(opening.dateTo).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(filters(last(api.calls, '/api/shipments'))).toEqual(opening);

    for (const label of ['Desde', 'Hasta']) {
      await u.clear(screen.getByLabelText(label));
      await u.tab();
    }
    await waitFor(() => expect(filters(last(api.calls, '/api/dashboard'))).toEqual({ originBranchId: '1' }));
    expect(filters(last(api.calls, '/api/shipments'))).toEqual({ originBranchId: '1' });
  });

  it('names the chart by the period of its bars and keeps the sender column for wide screens', async () => {
    vi.stubGlobal('fetch', server('month').fetch);
    renderPanel('admin');
    expect(await screen.findByRole('heading', { name: 'Envíos por mes' })).toBeInTheDocument();
    // Below Mantine's lg breakpoint (a 1024 px tablet) the sender column gives way so 'Ver' fits.
    expect(screen.getByRole('columnheader', { name: 'Remitente' })).toHaveClass('mantine-visible-from-lg');
  });

  it("with 'Desde' after 'Hasta' says so once, asks nothing, and shows no endless skeletons", async () => {
    const api = server();
    vi.stubGlobal('fetch', api.fetch);
    renderPanel('admin', '/?dateFrom=2026-11-20&dateTo=2026-11-01');
    expect(await screen.findByText(SHIPMENT_MESSAGES.invalidRange)).toBeInTheDocument();
    expect(screen.getByText('Corrige el rango de fechas para ver el gráfico.')).toBeInTheDocument();
    expect(screen.getAllByLabelText('Sin datos')).toHaveLength(4);
    expect(api.calls.filter((u) => u.pathname === '/api/dashboard')).toHaveLength(0);
  });

  it('keeps its filters and page in the address: a link opens on them, and a cleared date stays open', async () => {
    const api = server();
    vi.stubGlobal('fetch', api.fetch);
    const u = userEvent.setup();
    const { router } = renderPanel('admin', '/?status=Creado&dateFrom=&dateTo=2025-03-01&page=2&pageSize=15');
    await screen.findByTestId('counter-total');
    expect(filters(last(api.calls, '/api/dashboard'))).toEqual({ status: 'Creado', dateTo: '2025-03-01' });
    const list = last(api.calls, '/api/shipments').searchParams;
    expect([list.get('page'), list.get('pageSize')]).toEqual(['2', '15']);
    expect(screen.getByLabelText('Desde')).toHaveValue('');

    // A filter change goes back to page 1 and keeps the rest in the address.
    await u.clear(screen.getByLabelText('Hasta'));
    await u.tab();
    await waitFor(() => expect(filters(last(api.calls, '/api/dashboard'))).toEqual({ status: 'Creado' }));
    const after = new URLSearchParams(router.state.location.search);
    expect(after.get('page')).toBeNull();
    expect([after.get('dateFrom'), after.get('dateTo'), after.get('pageSize')]).toEqual(['', '', '15']);

    // Limpiar filtros goes back to the last 30 days; the page size is a preference and stays.
    await u.click(screen.getByRole('button', { name: 'Limpiar filtros' }));
    await waitFor(() => expect(filters(last(api.calls, '/api/dashboard')).dateFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/));
    expect(router.state.location.search).toBe('?pageSize=15');
  });
});
