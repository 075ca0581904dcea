import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Customer } from '@tramo/domain';
import { CustomerPicker } from '../src/features/customers/index.ts';
import { CustomerForm } from '../src/features/customers/components/CustomerForm.tsx';
import { fakeServer, renderRoutes } from './render.tsx';

const customer = (id: number, firstName: string, doc_number: string): Customer => ({
  id,
  firstName,
  lastName: 'Quispe',
  doc_type: 1,
  doc_number,
  dni: doc_number,
  address: null,
  ubigeo: null,
  phone: null,
  email: null,
});

afterEach(() => vi.unstubAllGlobals());

describe('CustomerPicker', { timeout: 30_000 }, () => {
  it('searches after a pause, asks for at most 8, and picks with the keyboard', async () => {
    const found = [customer(1, 'Rosa', '45871236'), customer(2, 'Walter', '40567812')];
    const server = fakeServer({ 'GET /api/customers': [200, { items: found, total: 2, page: 1, pageSize: 8 }] });
    vi.stubGlobal('fetch', server.fetch);
    const onChange = vi.fn();
    renderRoutes([{ path: '/', element: <CustomerPicker label="Remitente" onChange={onChange} /> }], '/');

    const input = screen.getByLabelText('Remitente');
    await userEvent.type(input, 'quis');
    expect(await screen.findByText('Walter Quispe', {}, { timeout: 5000 })).toBeInTheDocument();
    // One request for the settled text, not one per keystroke.
    expect(server.calls.map((c) => c.url)).toEqual(['/api/customers?q=quis&pageSize=8']);

    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(found[1]);
    expect(input).toHaveValue('Walter Quispe');
    expect(screen.getByText('DNI 40567812')).toBeInTheDocument();
  });
});

describe('CustomerForm', { timeout: 30_000 }, () => {
  const fill = async () => {
    await userEvent.type(screen.getByLabelText(/Número de documento/), '45871236');
    await userEvent.type(screen.getByLabelText(/^Nombres/), 'Rosa');
  };

  it('shows a duplicate document on the document field, in the spec words', async () => {
    const server = fakeServer({
      'GET /api/lookup/dni/45871236': [404, { error: 'No se encontraron datos para este documento.' }],
      'POST /api/customers': [409, { error: 'Documento ya registrado para otro cliente.', code: 'DUPLICATE' }],
    });
    vi.stubGlobal('fetch', server.fetch);
    renderRoutes([{ path: '/', element: <CustomerForm customer={null} onDone={() => {}} /> }], '/');
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Crear cliente' }));
    expect(await screen.findByText('Ya existe un cliente con este documento.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByLabelText(/Número de documento/)).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ doc_type: 1, doc_number: '45871236', phone: null, email: null });
  });

  it('keeps every digit of a pasted document with spaces, capped at the type length', async () => {
    const server = fakeServer({ 'GET /api/lookup/dni/41526374': [404, {}] });
    vi.stubGlobal('fetch', server.fetch);
    renderRoutes([{ path: '/', element: <CustomerForm customer={null} onDone={() => {}} /> }], '/');
    const input = screen.getByLabelText(/Número de documento/);
    await userEvent.click(input);
    await userEvent.paste('41 526 374');
    expect(input).toHaveValue('41526374');
    await userEvent.clear(input);
    await userEvent.paste('41 526 374 99');
    expect(input).toHaveValue('41526374');
  });

  it('sends a ubigeo pasted with spaces as its six digits', async () => {
    const server = fakeServer({
      'GET /api/lookup/dni/45871236': [404, {}],
      'POST /api/customers': [201, { id: 9 }],
    });
    vi.stubGlobal('fetch', server.fetch);
    renderRoutes([{ path: '/', element: <CustomerForm customer={null} onDone={() => {}} /> }], '/');
    await fill();
    await userEvent.click(screen.getByLabelText('Ubigeo'));
    await userEvent.paste('15 01 01');
    await userEvent.click(screen.getByRole('button', { name: 'Crear cliente' }));
    await waitFor(() => expect(server.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ ubigeo: '150101' }));
  });

  it('puts an unknown server message in a form alert', async () => {
    vi.stubGlobal(
      'fetch',
      fakeServer({
        'GET /api/lookup/dni/45871236': [404, {}],
        'POST /api/customers': [500, { error: 'Error del servidor' }],
      }).fetch,
    );
    renderRoutes([{ path: '/', element: <CustomerForm customer={null} onDone={() => {}} /> }], '/');
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Crear cliente' }));
    await waitFor(() => expect(screen.getAllByRole('alert').some((a) => a.textContent === 'Error del servidor')).toBe(true), { timeout: 5000 });
  });
});
