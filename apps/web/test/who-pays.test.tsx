import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sessionStore } from '../src/lib/session.ts';
import { DEFAULT_WHO_PAYS, WhoPaysFields, type WhoPaysRoute, type WhoPaysValues } from '../src/features/shipments/components/WhoPaysFields.tsx';
import { fakeServer, renderRoutes } from './render.tsx';
import { signedUser } from './fixtures.ts';

/** Lima (1) → Arequipa (3), S/ 37.02 for 2.5 kg. */
const route: WhoPaysRoute = { originBranchId: 1, destinationBranchId: 3, priceCents: 3702, weightKg: 2.5 };

function Harness({ onValue }: { onValue?(v: WhoPaysValues): void }) {
  const [value, setValue] = useState(DEFAULT_WHO_PAYS);
  return (
    <WhoPaysFields
      value={value}
      route={route}
      onChange={(patch) =>
        setValue((v) => {
          const next = { ...v, ...patch };
          onValue?.(next);
          return next;
        })
      }
    />
  );
}

const rules = (over: Record<string, unknown> = {}) => ({
  maxDestinationFreight: 500,
  originOnlyAboveKg: null,
  routes: [],
  branchMethods: [],
  ...over,
});

function renderFields(answer: unknown, onValue?: (v: WhoPaysValues) => void) {
  sessionStore.set({ user: signedUser(), token: 'tok' });
  vi.stubGlobal('fetch', fakeServer({ 'GET /api/settings/who-pays': [200, answer] }).fetch);
  return renderRoutes([{ path: '/', element: <Harness onValue={onValue} /> }], '/');
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStore.set(null);
});

describe('who pays on the new-shipment form (issue 33)', { timeout: 30_000 }, () => {
  it('starts with the sender at origin, offers no credit yet, and hands pago en destino to the recipient', async () => {
    const values: WhoPaysValues[] = [];
    renderFields(rules(), (v) => values.push(v));
    expect(screen.getByRole('radio', { name: 'Remitente' })).toHaveProperty('checked', true);
    expect(screen.getByRole('radio', { name: 'En origen' })).toHaveProperty('checked', true);
    expect(screen.queryByText('Crédito')).toBeNull();
    await userEvent.click(screen.getByText('En destino'));
    expect(screen.getByRole('radio', { name: 'Destinatario' })).toHaveProperty('checked', true);
    expect(values.at(-1)).toMatchObject({ payer: 'destinatario', paymentMoment: 'destino' });
    expect(await screen.findByText(/Pago en destino: S\/\s37\.02 por cobrar al entregar\./)).toBeTruthy();
  });

  it("shows the rules' refusals on the field, in the domain's words", async () => {
    renderFields(rules({ maxDestinationFreight: 30 }));
    await userEvent.click(screen.getByText('En destino'));
    expect(await screen.findByText('El pago en destino admite fletes de hasta S/ 30.00.')).toBeTruthy();
  });

  it('refuses a route that does not allow pago en destino', async () => {
    renderFields(rules({ routes: [{ originBranchId: 1, destinationBranchId: 3, destinationAllowed: false }] }));
    await userEvent.click(screen.getByText('En destino'));
    expect(await screen.findByText('Esta ruta no admite pago en destino.')).toBeTruthy();
  });

  it("asks a third party's document and name", async () => {
    const values: WhoPaysValues[] = [];
    renderFields(rules(), (v) => values.push(v));
    await userEvent.click(screen.getByText('Tercero'));
    await userEvent.type(screen.getByLabelText(/Documento del tercero/), '2012a');
    expect(screen.getByLabelText(/Documento del tercero/)).toHaveProperty('value', '2012');
    await userEvent.type(screen.getByLabelText(/Nombre del tercero/), 'Importaciones Sur SAC');
    expect(values.at(-1)).toMatchObject({ payer: 'tercero', payerDocNumber: '2012', payerName: 'Importaciones Sur SAC' });
  });
});
