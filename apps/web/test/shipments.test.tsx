import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ModalsProvider } from '@mantine/modals';
import { sessionStore } from '../src/lib/session.ts';
import NewShipmentPage from '../src/features/shipments/NewShipmentPage.tsx';
import ShipmentsPage from '../src/app/routes/ShipmentsPage.tsx';
import { LABEL_WIDTH_STORAGE_KEY, LabelModal } from '../src/features/shipments/components/LabelModal.tsx';
import { ManagePanel } from '../src/features/shipments/components/ManagePanel.tsx';
import type { Shipment } from '../src/features/shipments/types.ts';
import { signedUser, testBranches } from './fixtures.ts';
import { renderRoutes } from './render.tsx';

const agent = signedUser();

const branches = testBranches;

type Handler = (url: URL, init?: RequestInit) => [number, unknown];

/** The tariff section's calls (issue 34) when a test does not answer them: empty catalogues, no breakdown (the lines' total shows). */
const tariffDefaults: Record<string, Handler> = {
  'GET /api/tariffs/surcharges': () => [200, []],
  'GET /api/tariffs/articles': () => [200, []],
  'GET /api/tariffs/settings': () => [404, { error: 'Recurso no encontrado' }],
  'POST /api/quotes': () => [404, { error: 'Recurso no encontrado' }],
};

/** A fetch that answers by path with a function of the full URL (quotes depend on the query). */
function server(handlers: Record<string, Handler>) {
  const calls: URL[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push(url);
    const handler = handlers[`${init?.method ?? 'GET'} ${url.pathname}`] ?? tariffDefaults[`${init?.method ?? 'GET'} ${url.pathname}`];
    if (!handler) throw new Error(`unexpected call ${init?.method ?? 'GET'} ${url.pathname}`);
    const [status, body] = handler(url, init);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { calls, fetch: fetchImpl as typeof fetch };
}

/** Liviano 1.40 per billable kg; medio 2.00; anything above 100 kg is outside the tiers. */
const quote: Handler = (url) => {
  const kg = Number(url.searchParams.get('weightKg'));
  const factor = url.searchParams.get('productType') === 'medio' ? 2 : 1.4;
  if (kg > 100) return [422, { error: 'Peso fuera de los rangos configurados.', code: 'OUT_OF_RANGE' }];
  const billable = Math.max(1, Math.ceil(kg));
  return [
    200,
    {
      price: Math.round(billable * factor * 100) / 100,
      currency: 'PEN',
      factorPerKg: factor,
      billableWeightKg: billable,
      usingReverse: false,
      tier: { from_kg: 1, to_kg: 100, factor_per_kg: factor },
    },
  ];
};

// Mantine's autosize textarea listens to font loading, which jsdom does not implement.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} } });
}

beforeEach(() => sessionStore.set({ user: agent, token: 'tok' }));
afterEach(() => {
  // Unmount before the session goes: the pages read the current user while rendering.
  cleanup();
  vi.unstubAllGlobals();
  sessionStore.set(null);
});

/** The total settles after the 300 ms pause and the quote round trip; a loaded machine needs margin. */
const expectTotal = (text: string) => waitFor(() => expect(screen.getByTestId('shipment-total')).toHaveTextContent(text), { timeout: 5000 });

async function chooseDestination(user: ReturnType<typeof userEvent.setup>, name: string) {
  // The options load with the branches; Mantine keeps the dropdown styled hidden during its transition.
  await user.click(screen.getByRole('combobox', { name: /Destino/ }));
  await user.click(await screen.findByRole('option', { name, hidden: true }));
}

// Typing a whole form on a loaded two-core machine takes its time (issue 38 added two such tests).
describe('new shipment form', { timeout: 90_000 }, () => {
  it('fixes the origin to the agent branch; creation stays offered and the line under it says what is missing', async () => {
    vi.stubGlobal('fetch', server({ 'GET /api/branches': () => [200, branches], 'GET /api/weight-factors/quote': quote }).fetch);
    const user = userEvent.setup();
    renderRoutes([{ path: '/shipments/new', element: <NewShipmentPage /> }], '/shipments/new');
    expect(await screen.findByTestId('fixed-origin')).toHaveTextContent('Agencia: Lima');
    const create = screen.getByRole('button', { name: 'Crear envío' });
    const hint = screen.getByTestId('missing-hint');
    expect(create).toBeEnabled();
    expect(create).toHaveAccessibleDescription(hint.textContent ?? '');
    expect(hint).toHaveTextContent('Falta: remitente, DNI/RUC, nombres, apellidos, destino, peso, clave secreta');
    await chooseDestination(user, 'Trujillo');
    expect(hint).toHaveTextContent('Falta: remitente, DNI/RUC, nombres, apellidos, peso, clave secreta');
    await user.type(screen.getByLabelText('Peso de la línea 1'), '2');
    await user.type(screen.getByLabelText(/Nombre del remitente/), 'Andina');
    await user.type(screen.getByLabelText(/DNI\/RUC del destinatario/), '458712');
    await user.type(screen.getByLabelText(/^Nombres/), 'Ana');
    await user.type(screen.getByLabelText(/^Apellidos/), 'Quispe');
    expect(hint).toHaveTextContent('Falta: clave secreta');
    await user.type(screen.getByLabelText(/Clave secreta/), '1234');
    await expectTotal('S/ 2.80');
    expect(hint.textContent).toBe('');
    expect(create).toBeEnabled();
  });

  it('shows the seven spec messages on their fields when each is left, and all of them on submit, focusing the first', async () => {
    vi.stubGlobal('fetch', server({ 'GET /api/branches': () => [200, branches], 'GET /api/weight-factors/quote': quote }).fetch);
    const user = userEvent.setup();
    renderRoutes([{ path: '/shipments/new', element: <NewShipmentPage /> }], '/shipments/new');
    await screen.findByTestId('fixed-origin');
    const field = (label: RegExp | string) => screen.getByLabelText(label);
    const errorOf = (input: HTMLElement) =>
      input
        .getAttribute('aria-describedby')
        ?.split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ');

    // On blur, field by field.
    await user.click(field(/Nombre del remitente/));
    await user.tab();
    expect(await screen.findByText('Remitente requerido')).toBeInTheDocument();
    expect(errorOf(field(/Nombre del remitente/))).toContain('Remitente requerido');
    await user.type(field(/DNI\/RUC del destinatario/), '123');
    await user.tab();
    expect(errorOf(field(/DNI\/RUC del destinatario/))).toContain('DNI/RUC inválido');
    await user.click(field(/^Nombres/));
    await user.tab();
    expect(errorOf(field(/^Nombres/))).toContain('Nombres requeridos');
    await user.click(field(/^Apellidos/));
    await user.tab();
    expect(errorOf(field(/^Apellidos/))).toContain('Apellidos requeridos');
    await user.type(field(/Clave secreta/), 'ab');
    await user.tab();
    expect(errorOf(field(/Clave secreta/))).toContain('Mínimo 4 caracteres');
    await user.clear(field(/Clave secreta/));
    await user.type(field(/Clave secreta/), 'abc$%');
    expect(errorOf(field(/Clave secreta/))).toContain('Solo letras, números y - _ .');
    await chooseDestination(user, 'Trujillo');
    await user.type(field('Peso de la línea 1'), '5000');
    await user.tab();
    await waitFor(() => expect(errorOf(field('Peso de la línea 1'))).toContain('Peso fuera de los rangos configurados.'), { timeout: 5000 });
    expect(screen.getAllByText('Peso fuera de los rangos configurados.')).toHaveLength(1);
    expect(screen.getByTestId('missing-hint')).toHaveTextContent(
      'Falta: remitente, DNI/RUC, nombres, apellidos, clave secreta, un peso válido en la línea 1',
    );

    // On submit: nothing is sent, every message stays on its field and the first wrong field takes the focus.
    await user.click(screen.getByRole('button', { name: 'Crear envío' }));
    await waitFor(() => expect(field(/Nombre del remitente/)).toHaveFocus());
    for (const text of ['Remitente requerido', 'DNI/RUC inválido', 'Nombres requeridos', 'Apellidos requeridos', 'Solo letras, números y - _ .']) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
  });

  it('on submit of an untouched form shows every required message at once', async () => {
    const api = server({ 'GET /api/branches': () => [200, branches], 'GET /api/weight-factors/quote': quote });
    vi.stubGlobal('fetch', api.fetch);
    const user = userEvent.setup();
    renderRoutes([{ path: '/shipments/new', element: <NewShipmentPage /> }], '/shipments/new');
    await screen.findByTestId('fixed-origin');
    await user.click(screen.getByRole('button', { name: 'Crear envío' }));
    for (const text of [
      'Remitente requerido',
      'DNI/RUC inválido',
      'Nombres requeridos',
      'Apellidos requeridos',
      'Seleccione destino',
      'Agrega al menos una línea con peso mayor a 0.',
      'Mínimo 4 caracteres',
    ]) {
      expect(await screen.findByText(text)).toBeInTheDocument();
    }
    expect(screen.getByLabelText(/Nombre del remitente/)).toHaveFocus();
    expect(api.calls.some((u) => u.pathname === '/api/shipments')).toBe(false);
  });

  it('shows the spec messages letter for letter and caps the document at 11 digits', async () => {
    vi.stubGlobal('fetch', server({ 'GET /api/branches': () => [200, branches], 'GET /api/weight-factors/quote': quote }).fetch);
    const user = userEvent.setup();
    renderRoutes([{ path: '/shipments/new', element: <NewShipmentPage /> }], '/shipments/new');
    await screen.findByTestId('fixed-origin');
    await chooseDestination(user, 'Trujillo');
    await user.type(screen.getByLabelText('Peso de la línea 1'), '3');
    const doc = screen.getByLabelText(/DNI\/RUC del destinatario/);
    await user.type(doc, '12a3');
    await user.type(screen.getByLabelText(/Clave secreta/), 'ab!');
    // Disabled only while the line's quote is on its way: a click then would do nothing.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Crear envío' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Crear envío' }));
    expect(await screen.findByText('Remitente requerido')).toBeInTheDocument();
    expect(screen.getByText('DNI/RUC inválido')).toBeInTheDocument();
    expect(screen.getByText('Nombres requeridos')).toBeInTheDocument();
    expect(screen.getByText('Apellidos requeridos')).toBeInTheDocument();
    expect(screen.getByText('Mínimo 4 caracteres')).toBeInTheDocument();
    expect(doc).toHaveValue('123');

    await user.type(doc, '4567890123456');
    expect(doc).toHaveValue('12345678901');
    await user.clear(screen.getByLabelText(/Clave secreta/));
    await user.type(screen.getByLabelText(/Clave secreta/), 'ab!c');
    expect(await screen.findByText('Solo letras, números y - _ .')).toBeInTheDocument();
  });

  it('quotes each line after the pause and shows the live total; an out-of-range line blocks creation', async () => {
    const api = server({ 'GET /api/branches': () => [200, branches], 'GET /api/weight-factors/quote': quote });
    vi.stubGlobal('fetch', api.fetch);
    const user = userEvent.setup();
    renderRoutes([{ path: '/shipments/new', element: <NewShipmentPage /> }], '/shipments/new');
    await screen.findByTestId('fixed-origin');
    await chooseDestination(user, 'Trujillo');
    await user.type(screen.getByLabelText('Peso de la línea 1'), '2.5');
    await expectTotal('S/ 4.20');
    const quotesFor = (kg: string) =>
      api.calls.filter((u) => u.pathname === '/api/weight-factors/quote' && u.searchParams.get('weightKg') === kg).length;
    expect(quotesFor('2.5')).toBe(1);

    // A second line with the same route, class and weight is answered from the cache.
    await user.click(screen.getByRole('button', { name: 'Agregar línea' }));
    await user.type(screen.getByLabelText('Peso de la línea 2'), '2.5');
    await expectTotal('S/ 8.40');
    expect(quotesFor('2.5')).toBe(1);

    await user.click(screen.getByRole('combobox', { name: 'Categoría de la línea 2' }));
    // Each line's Select keeps its options in the DOM: line 2's are the last ones.
    await user.click((await screen.findAllByRole('option', { name: 'Medio', hidden: true })).at(-1)!);
    await user.clear(screen.getByLabelText('Peso de la línea 2'));
    await user.type(screen.getByLabelText('Peso de la línea 2'), '10');
    await expectTotal('S/ 24.20');

    await user.clear(screen.getByLabelText('Peso de la línea 2'));
    await user.type(screen.getByLabelText('Peso de la línea 2'), '150');
    // Said once, on the weight that is out of range (issue 38), not again below the lines (issue 16, item 8).
    expect(await screen.findByText('Peso fuera de los rangos configurados.')).toBeInTheDocument();
    expect(screen.getAllByText('Peso fuera de los rangos configurados.')).toHaveLength(1);
    expect(screen.getByLabelText('Peso de la línea 2')).toHaveAttribute('aria-invalid', 'true');
    // Creation is still offered; it takes the counter to the line instead of sending.
    await user.click(screen.getByRole('button', { name: 'Crear envío' }));
    expect(screen.getByTestId('missing-hint')).toHaveTextContent('un peso válido en la línea 2');

    await user.click(screen.getByRole('button', { name: 'Quitar línea 2' }));
    await expectTotal('S/ 4.20');
    // One line is always kept.
    expect(screen.getByRole('button', { name: 'Quitar línea 1' })).toBeDisabled();
  });
});

/** TMT-000007 as the list and the detail answer it (Creado, Lima → Trujillo). */
const listedShipment: Shipment = {
  id: 7,
  code: 'TMT-000007',
  status: 'Creado',
  createdAt: '2025-03-01T15:00:00.000Z',
  updatedAt: '2025-03-01T15:00:00.000Z',
  createdByName: 'Luis Ramírez',
  originBranchId: 1,
  destinationBranchId: 2,
  originBranch: { name: 'Lima', city: 'Lima' },
  destinationBranch: { name: 'Trujillo', city: 'Trujillo' },
  senderCustomerId: null,
  senderName: 'Comercial Andina',
  recipientFirstName: 'Ana',
  recipientLastName: 'Quispe',
  recipientName: 'Ana Quispe',
  recipientDoc: '45871236',
  productType: 'liviano',
  weightKg: 2.5,
  billableWeightKg: 3,
  description: null,
  quotedPrice: 4.2,
  quotedCurrency: 'PEN',
  quotedFactorPerKg: 1.4,
  usingReverse: false,
  multiLineDetail: [],
  deliveredInfo: null,
  payer: 'remitente',
  paymentMoment: 'origen',
  payerDocType: null,
  payerDocNumber: null,
  payerName: null,
  payerCustomerId: null,
  canManage: true,
  canEdit: true,
};

describe('shipments list', { timeout: 30_000 }, () => {
  const page = {
    items: [listedShipment],
    total: 31,
    page: 2,
    pageSize: 5,
  };

  it('reads its filters from the address, sends them to the API and writes changes back', async () => {
    const api = server({ 'GET /api/branches': () => [200, branches], 'GET /api/shipments': () => [200, page] });
    vi.stubGlobal('fetch', api.fetch);
    const user = userEvent.setup();
    const { router } = renderRoutes(
      [{ path: '/shipments', element: <ShipmentsPage /> }],
      '/shipments?page=2&pageSize=5&status=Creado&q=quispe&originBranchId=1',
    );
    expect(await screen.findByText('TMT-000007')).toBeInTheDocument();
    const row = screen.getByText('TMT-000007').closest('tr')!;
    expect(within(row).getByText('45871236')).toBeInTheDocument();
    expect(within(row).getByText('Creado')).toBeInTheDocument();
    // Pagos is a placeholder still: no button leads to a screen that cannot pay (issue 16 item 1).
    expect(within(row).queryByRole('link', { name: 'Pagar TMT-000007' })).toBeNull();
    expect(within(row).getByRole('link', { name: 'Editar TMT-000007' })).toHaveAttribute('href', '/shipments/new?edit=7');
    const sent = api.calls.find((u) => u.pathname === '/api/shipments')!.searchParams;
    expect(Object.fromEntries(sent)).toEqual({ page: '2', pageSize: '5', status: 'Creado', q: 'quispe', originBranchId: '1' });
    expect(screen.getByRole('searchbox', { name: 'Buscar envíos' })).toHaveValue('quispe');

    // A filter change goes back to page 1 and keeps the rest in the address.
    // Dates are typed day first; a half-typed one changes nothing.
    await user.type(screen.getByLabelText('Desde'), '10/03/202');
    expect(router.state.location.search).not.toContain('dateFrom');
    await user.type(screen.getByLabelText('Desde'), '5');
    await waitFor(() => expect(router.state.location.search).toContain('dateFrom=2025-03-10'));
    const after = new URLSearchParams(router.state.location.search);
    expect(after.get('page')).toBeNull();
    expect(after.get('status')).toBe('Creado');
    expect(after.get('pageSize')).toBe('5');
  });

  it('offers couriers no payment link: payments are admin and agent work', async () => {
    sessionStore.set({ user: { ...agent, role: 'courier', username: 'REPARTIDOR1' }, token: 'tok' });
    const api = server({ 'GET /api/branches': () => [200, branches], 'GET /api/shipments': () => [200, page] });
    vi.stubGlobal('fetch', api.fetch);
    renderRoutes([{ path: '/shipments', element: <ShipmentsPage /> }], '/shipments');
    const row = (await screen.findByText('TMT-000007')).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'Ver TMT-000007' })).toBeInTheDocument();
    expect(within(row).queryByRole('link', { name: 'Pagar TMT-000007' })).toBeNull();
  });

  it('refuses an inverted date range without asking the API', async () => {
    const api = server({ 'GET /api/branches': () => [200, branches], 'GET /api/shipments': () => [200, page] });
    vi.stubGlobal('fetch', api.fetch);
    renderRoutes([{ path: '/shipments', element: <ShipmentsPage /> }], '/shipments?dateFrom=2025-03-10&dateTo=2025-03-01');
    expect(await screen.findByText('Rango de fechas inválido: "Desde" no puede ser posterior a "Hasta".')).toBeInTheDocument();
    // The address's days are shown day first.
    expect(screen.getByLabelText('Desde')).toHaveValue('10/03/2025');
    expect(screen.getByLabelText('Hasta')).toHaveValue('01/03/2025');
    await new Promise((r) => setTimeout(r, 50));
    expect(api.calls.some((u) => u.pathname === '/api/shipments')).toBe(false);
  });
});

describe('status form on the shipment detail', { timeout: 30_000 }, () => {
  const shipment: Shipment = { ...listedShipment, checkpoints: [] };

  const renderPanel = (s: Shipment) =>
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <ModalsProvider>
              <ManagePanel shipment={s} />
            </ModalsProvider>
          ),
        },
      ],
      '/',
    );

  async function choose(user: ReturnType<typeof userEvent.setup>, status: string) {
    await user.click(screen.getByRole('combobox', { name: 'Nuevo estado' }));
    await user.click(await screen.findByRole('option', { name: status, hidden: true }));
  }

  it('choosing Anulado asks for confirmation like the cancel action and says "Envío anulado."', async () => {
    const api = server({ 'PATCH /api/shipments/7/status': () => [200, { ...shipment, status: 'Anulado' }] });
    vi.stubGlobal('fetch', api.fetch);
    const user = userEvent.setup();
    renderPanel(shipment);

    await choose(user, 'Anulado');
    await user.type(screen.getByRole('textbox', { name: 'Nota' }), 'Cliente desistió');
    await user.click(screen.getByRole('button', { name: 'Actualizar estado' }));
    const dialog = await screen.findByRole('dialog', { name: 'Anular envío' });
    expect(within(dialog).getByText(/¿Anular el envío TMT-000007\?/)).toBeInTheDocument();
    // Declining changes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Anular envío' })).not.toBeInTheDocument());
    expect(api.calls).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Actualizar estado' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Anular envío' })).getByRole('button', { name: 'Anular envío' }));
    expect(await screen.findByText('Envío anulado.')).toBeInTheDocument();
    expect(screen.queryByText('Estado actualizado.')).not.toBeInTheDocument();
    expect(api.calls.map((u) => u.pathname)).toEqual(['/api/shipments/7/status']);
  });

  it('Anulado on a shipment in transit is refused with the spec text before any dialog or call', async () => {
    const api = server({});
    vi.stubGlobal('fetch', api.fetch);
    const user = userEvent.setup();
    renderPanel({ ...shipment, status: 'En tránsito' });
    await choose(user, 'Anulado');
    await user.click(screen.getByRole('button', { name: 'Actualizar estado' }));
    expect((await screen.findAllByText('No se puede anular un envío en tránsito.')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('dialog', { name: 'Anular envío' })).not.toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('another status changes at once and says "Estado actualizado."', async () => {
    const api = server({ 'PATCH /api/shipments/7/status': () => [200, { ...shipment, status: 'En tránsito' }] });
    vi.stubGlobal('fetch', api.fetch);
    const user = userEvent.setup();
    renderPanel(shipment);
    await choose(user, 'En tránsito');
    await user.click(screen.getByRole('button', { name: 'Actualizar estado' }));
    expect(await screen.findByText('Estado actualizado.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('label printing', { timeout: 30_000 }, () => {
  // The label reads code, route, recipient, weight and lines: TMT-000007 as listed.
  const shipment: Shipment = { ...listedShipment };

  const pageRule = () =>
    [...document.querySelectorAll('style')]
      .map((s) => s.textContent ?? '')
      .find((t) => t.includes('@page'))
      ?.match(/@page\s*{\s*size:\s*([^;]+);/)?.[1];

  const renderModal = () => renderRoutes([{ path: '/', element: <LabelModal shipment={shipment} onClose={() => {}} /> }], '/');

  it('the first open already prints one page of a valid size, never `auto`', async () => {
    renderModal();
    await screen.findByRole('dialog', { name: 'Etiqueta TMT-000007' });
    // jsdom lays nothing out, so the label measures 0: the fallback size holds one label.
    await waitFor(() => expect(pageRule()).toBe('58mm 90mm'));
  });

  it('measures the label on the first open and again when the width changes', async () => {
    // 190 px of label at 96 px per inch is 50.3 mm: 51 mm rounded up plus 2 mm of margin.
    const offsetHeight = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('shipment-label') ? 190 : 0;
    });
    try {
      const user = userEvent.setup();
      renderModal();
      await screen.findByRole('dialog', { name: 'Etiqueta TMT-000007' });
      await waitFor(() => expect(pageRule()).toBe('58mm 53mm'));
      await user.click(screen.getByText('80 mm'));
      await waitFor(() => expect(pageRule()).toBe('80mm 53mm'));
      expect(localStorage.getItem(LABEL_WIDTH_STORAGE_KEY)).toBe('80');
    } finally {
      offsetHeight.mockRestore();
    }
  });
});
