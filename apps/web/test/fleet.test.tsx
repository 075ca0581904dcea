import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Transport } from '@tramo/domain';
import { AssignTransportModal, ShipmentTransportBox } from '../src/features/fleet/index.ts';
import TransportistasPage from '../src/features/fleet/TransportistasPage.tsx';
import { LoadScanBox } from '../src/features/fleet/components/TripControls.tsx';
import { fakeServer, renderRoutes } from './render.tsx';

afterEach(() => vi.unstubAllGlobals());

const transport = (over: Partial<Transport>): Transport => ({
  id: 1,
  plate_primary: 'ABC-123',
  plate_secondary: null,
  make: 'Volvo',
  model: 'FH',
  capacity_kg: 28000,
  net_weight_kg: 9200,
  status: 'disponible',
  route: 'Lima – Arequipa',
  origin_branch_id: 1,
  destination_branch_id: 2,
  driver_id_1: 1,
  driver_id_2: null,
  driver1: { id: 1, full_name: 'Juan Quispe' },
  driver2: null,
  vehicle_type: 'camion',
  tuc_number: null,
  configuration: null,
  payload_kg: null,
  axles: null,
  trailer_id: null,
  trailer_plate: null,
  loaded_count: 0,
  loaded_weight_kg: 0,
  ...over,
});

const transports = {
  items: [
    transport({}),
    transport({
      id: 2,
      plate_primary: 'BCD-234',
      plate_secondary: 'T1A-456',
      status: 'en_ruta',
      driver1: { id: 3, full_name: 'Pedro Huamán' },
      driver2: { id: 4, full_name: 'Luis Rojas' },
    }),
  ],
  total: 2,
  page: 1,
  pageSize: 200,
};

const renderModal = (onClose = vi.fn()) =>
  renderRoutes([{ path: '/', element: <AssignTransportModal shipment={{ id: 7, code: 'TMT-000007' }} onClose={onClose} /> }], '/');

describe('AssignTransportModal', () => {
  it('lists transports with plates, status and drivers and asks for a choice before loading', async () => {
    const server = fakeServer({
      'GET /api/transports': [200, transports],
      'POST /api/transports/2/assignments': [201, { items: [], totalWeightKg: 0, capacityKg: 28000 }],
    });
    vi.stubGlobal('fetch', server.fetch);
    const onClose = vi.fn();
    renderModal(onClose);
    expect(await screen.findByText('BCD-234 / T1A-456')).toBeInTheDocument();
    expect(screen.getByText('En ruta')).toBeInTheDocument();
    expect(screen.getByText('Pedro Huamán · Luis Rojas')).toBeInTheDocument();
    expect(screen.getByText('Juan Quispe')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Asignar' }));
    expect(await screen.findByText('Selecciona un transporte.')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await userEvent.click(screen.getByRole('radio', { name: /BCD-234/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Asignar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(server.calls.find((c) => c.method === 'POST')).toMatchObject({ url: '/api/transports/2/assignments', body: { shipmentIds: [7] } });
    // Mantine's first render under jsdom is slow on a busy machine.
  }, 20_000);

  it('shows the server refusal (already on another transport) and stays open', async () => {
    const refusal = 'El envío TMT-000007 ya está cargado en ABC-123. Quítalo de ese transporte antes de cargarlo en otro.';
    vi.stubGlobal(
      'fetch',
      fakeServer({ 'GET /api/transports': [200, transports], 'POST /api/transports/2/assignments': [409, { error: refusal }] }).fetch,
    );
    const onClose = vi.fn();
    renderModal(onClose);
    await userEvent.click(await screen.findByRole('radio', { name: /BCD-234/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Asignar' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  }, 20_000);

  it("says 'No se pudo cargar transportes.' when the list fails", async () => {
    vi.stubGlobal('fetch', fakeServer({ 'GET /api/transports': [500, {}] }).fetch);
    renderModal();
    expect(await screen.findByText('No se pudo cargar transportes.')).toBeInTheDocument();
  });
});

describe('ShipmentTransportBox', () => {
  const renderBox = () => renderRoutes([{ path: '/', element: <ShipmentTransportBox shipmentId={7} /> }], '/');

  it('shows the assigned transport', async () => {
    vi.stubGlobal(
      'fetch',
      fakeServer({
        'GET /api/shipments/7/assignment': [
          200,
          {
            id: 2,
            assignmentId: 9,
            plate_primary: 'BCD-234',
            plate_secondary: null,
            status: 'en_ruta',
            route: 'Lima – Trujillo',
            driver1: { id: 3, full_name: 'Pedro Huamán' },
            driver2: null,
            loaded_at: '2026-11-20T15:00:00Z',
          },
        ],
      }).fetch,
    );
    renderBox();
    expect(await screen.findByText('BCD-234')).toBeInTheDocument();
    expect(screen.getByText('Lima – Trujillo')).toBeInTheDocument();
    expect(screen.getByText('Conductores: Pedro Huamán')).toBeInTheDocument();
    expect(screen.getByText('Cargado el 20/11/2026 10:00')).toBeInTheDocument();
  });

  it("says 'Sin transporte asignado' when none, and the spec message on failure", async () => {
    vi.stubGlobal('fetch', fakeServer({ 'GET /api/shipments/7/assignment': [200, null] }).fetch);
    const { unmount } = renderBox();
    expect(await screen.findByText('Sin transporte asignado')).toBeInTheDocument();
    unmount();
    vi.stubGlobal('fetch', fakeServer({ 'GET /api/shipments/7/assignment': [500, {}] }).fetch);
    renderBox();
    expect(await screen.findByText('No se pudo obtener el transporte asignado.')).toBeInTheDocument();
  });
});

describe('TransportistasPage', { timeout: 30_000 }, () => {
  it('keeps the Asignaciones tab on the current version of the chosen transport after the list reloads', async () => {
    const answers: Record<string, [number, unknown]> = {
      'GET /api/transports': [200, transports],
      'GET /api/transports/1/assignments': [200, { items: [], totalWeightKg: 0, capacityKg: 28000 }],
      'GET /api/transports/loadable-shipments': [200, []],
      'GET /api/drivers': [200, []],
    };
    vi.stubGlobal('fetch', fakeServer(answers).fetch);
    const user = userEvent.setup();
    renderRoutes([{ path: '/transportistas', element: <TransportistasPage /> }], '/transportistas');
    await user.click((await screen.findAllByRole('button', { name: /^Ver carga / }))[0]!);
    expect(await screen.findByRole('tab', { name: 'Asignaciones · ABC-123' })).toHaveAttribute('aria-selected', 'true');

    // Someone edits the plate; the list answers the new version when the user comes back to it.
    answers['GET /api/transports'] = [200, { ...transports, items: [transport({ plate_primary: 'ABC-999' }), transports.items[1]] }];
    await user.click(screen.getByRole('tab', { name: 'Transportes' }));
    expect(await screen.findByRole('tab', { name: 'Asignaciones · ABC-999' })).toBeInTheDocument();
  });
});

describe('loading by scanning beyond the capacity', () => {
  it('asks before loading, and loads only when the agent answers Cargar igual', async () => {
    const question = 'Con TMT-000010 la carga llegaría a 3.50 kg y supera la capacidad (3.00 kg). ¿Cargarlo igual?';
    const server = fakeServer({
      'POST /api/transports/1/scan': [200, { outcome: 'overload', code: 'TMT-000010', message: question, overCapacity: true }],
    });
    vi.stubGlobal('fetch', server.fetch);
    renderRoutes([{ path: '/', element: <LoadScanBox transport={transport({ capacity_kg: 3 })} /> }], '/');

    await userEvent.type(screen.getByRole('textbox', { name: 'Código del envío a cargar' }), 'TMT-000010{Enter}');
    expect(await screen.findByText(question)).toBeInTheDocument();
    expect(server.calls.map((c) => c.body)).toEqual([{ code: 'TMT-000010', confirmOverload: false }]);

    await userEvent.click(screen.getByRole('button', { name: 'Cargar igual' }));
    await waitFor(() => expect(server.calls).toHaveLength(2));
    expect(server.calls[1]!.body).toEqual({ code: 'TMT-000010', confirmOverload: true });
  });
});
