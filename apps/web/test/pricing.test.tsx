import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WeightFactorTable } from '@tramo/domain';
import { sessionStore } from '../src/lib/session.ts';
import FactorPesoPage from '../src/features/pricing/FactorPesoPage.tsx';
import { signedUser, testBranches } from './fixtures.ts';
import { renderRoutes } from './render.tsx';

const agent = signedUser();

const branches = testBranches.slice(0, 2);

const table: WeightFactorTable = {
  id: 5,
  origin_branch_id: 1,
  destination_branch_id: 2,
  origin_name: 'Lima',
  destination_name: 'Trujillo',
  product_type: 'liviano',
  name: 'Lima → Trujillo (liviano)',
  currency: 'PEN',
  active: true,
  tiers: [
    { from_kg: 1, to_kg: 10, factor_per_kg: 1.4, sort_order: 1 },
    { from_kg: 11, to_kg: 1000, factor_per_kg: 1.3, sort_order: 2 },
  ],
};

/** `null` answers as a network failure (fetch rejects); a status with no body as a bare HTTP error. */
type Answer = [number, unknown] | null;

function server(answers: Record<string, () => Answer>) {
  const calls: string[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`;
    calls.push(key);
    const answer = answers[key]?.();
    if (!answer) throw new TypeError('Failed to fetch');
    const [status, body] = answer;
    return new Response(body === undefined ? '' : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { calls, fetch: fetchImpl as typeof fetch };
}

const base = {
  'GET /api/branches': (): Answer => [200, branches],
  'GET /api/weight-factors/summary': (): Answer => [200, []],
  // The route's reference values card (issue 32) reads its list too.
  'GET /api/pricing/reference-values': (): Answer => [200, []],
};

const renderPage = () => renderRoutes([{ path: '/factor-peso', element: <FactorPesoPage /> }], '/factor-peso');

beforeEach(() => sessionStore.set({ user: agent, token: 'tok' }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStore.set(null);
});

describe('Factor Peso', { timeout: 30_000 }, () => {
  it('a failed list call without a server message says the catalogue text', async () => {
    vi.stubGlobal('fetch', server({ ...base, 'GET /api/weight-factors': () => [500, undefined] }).fetch);
    renderPage();
    expect(await screen.findByText('No se pudo listar los pricings')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Guardar' })).toBeDisabled();
  });

  it('values above the API maxima show the invalid-values message and disable save', async () => {
    vi.stubGlobal('fetch', server({ ...base, 'GET /api/weight-factors': () => [200, [table]] }).fetch);
    const user = userEvent.setup();
    renderPage();
    const to = await screen.findByLabelText('Hasta (kg) tramo 2');
    await user.clear(to);
    await user.type(to, '200000');
    expect(await screen.findByText('Hay valores inválidos (desde ≥ 1, hasta ≥ desde, factor > 0).')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Guardar' })).toBeDisabled();

    await user.clear(to);
    await user.type(to, '1000');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Guardar' })).toBeEnabled());
    const factor = screen.getByLabelText('Factor por kg tramo 1');
    await user.clear(factor);
    await user.type(factor, '20000');
    expect(await screen.findByText('Hay valores inválidos (desde ≥ 1, hasta ≥ desde, factor > 0).')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Guardar' })).toBeDisabled();
  });

  it('overlapping tiers are marked, and only those (issue 16, item 9)', async () => {
    vi.stubGlobal('fetch', server({ ...base, 'GET /api/weight-factors': () => [200, [table]] }).fetch);
    const user = userEvent.setup();
    renderPage();
    const from2 = await screen.findByLabelText('Desde (kg) tramo 2');
    expect(from2).not.toHaveAttribute('aria-invalid', 'true');
    await user.clear(from2);
    await user.type(from2, '8');
    expect(await screen.findByText('Hay tramos que se solapan...')).toBeInTheDocument();
    for (const n of [1, 2]) {
      expect(screen.getByLabelText(`Desde (kg) tramo ${n}`)).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByLabelText(`Hasta (kg) tramo ${n}`)).toHaveAttribute('aria-invalid', 'true');
    }
    expect(screen.getByLabelText('Factor por kg tramo 1')).not.toHaveAttribute('aria-invalid', 'true');

    await user.clear(from2);
    await user.type(from2, '11');
    await waitFor(() => expect(screen.getByLabelText('Desde (kg) tramo 1')).not.toHaveAttribute('aria-invalid', 'true'));
  });

  it('a failed save says the call fallback when the server answered and the screen fallback when nothing came', async () => {
    let put: Answer = [500, undefined];
    const api = server({ ...base, 'GET /api/weight-factors': () => [200, [table]], 'PUT /api/weight-factors/5/tiers': () => put });
    vi.stubGlobal('fetch', api.fetch);
    const user = userEvent.setup();
    renderPage();
    const save = await screen.findByRole('button', { name: 'Guardar' });
    await waitFor(() => expect(save).toBeEnabled());

    await user.click(save);
    expect((await screen.findAllByText('No se pudieron guardar los tramos')).length).toBeGreaterThan(0);

    put = null;
    await user.click(save);
    expect((await screen.findAllByText('Error al guardar los tramos')).length).toBeGreaterThan(0);
    expect(api.calls.filter((c) => c.startsWith('PUT'))).toHaveLength(2);

    // A server message wins over both.
    put = [422, { error: 'Hay tramos que se solapan...', code: 'OVERLAP' }];
    await user.click(save);
    expect((await screen.findAllByText('Hay tramos que se solapan...')).length).toBeGreaterThan(0);
  });
});
