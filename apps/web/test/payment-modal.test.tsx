import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sessionStore } from '../src/lib/session.ts';
import { INVOICE_MESSAGES } from '@tramo/domain';
import { PaymentModal } from '../src/features/payments/components/PaymentModal.tsx';
import type { CollectShipment } from '../src/features/payments/api/payments.ts';
import { fakeServer, renderRoutes } from './render.tsx';
import { signedUser } from './fixtures.ts';

const shipment: CollectShipment = {
  id: 7,
  code: 'TMT-000007',
  status: 'Creado',
  senderName: 'María Flores Ccori',
  senderCustomerId: null,
  senderDocType: 1,
  senderDoc: '45879612',
  recipientName: 'Rosa Quispe',
  recipientDoc: '40112233',
  originBranchId: 1,
  destinationBranchId: 3,
  originBranch: { name: 'Lima' },
  destinationBranch: { name: 'Arequipa' },
  createdAt: new Date().toISOString(),
  quotedPrice: 37.02,
  quotedCurrency: 'PEN',
  weightKg: 2.5,
  productType: 'liviano',
  description: null,
  paid: false,
  pill: 'No pagado',
  paymentId: null,
  paymentStatus: null,
  payer: 'remitente',
  paymentMoment: 'origen',
  payerDocType: null,
  payerDocNumber: null,
  payerName: null,
};

const renderModal = (s: CollectShipment = shipment) =>
  renderRoutes([{ path: '/', element: <PaymentModal opened shipment={s} choices={[]} onClose={() => {}} onPaid={() => {}} /> }], '/');

/** A walk-in company paying at the counter: its receipt is a factura. */
const RUC = '20100070970';
const byRuc: CollectShipment = { ...shipment, senderName: 'SUPERMERCADOS PERUANOS S.A.', senderDocType: 6, senderDoc: RUC };
const rucLookup = (address?: string) => ({
  docType: 'ruc',
  docNumber: RUC,
  name: 'SUPERMERCADOS PERUANOS S.A.',
  source: 'local',
  ...(address ? { address } : {}),
});

// Unmounted first: the modal reads the session while mounted.
afterEach(() => {
  cleanup();
  sessionStore.set(null);
  vi.unstubAllGlobals();
});

describe('PaymentModal', { timeout: 30_000 }, () => {
  it('prefills what the shipment owes; an admin discount lowers it and asks for its reason', async () => {
    sessionStore.set({ user: signedUser({ role: 'admin' }), token: 'tok' });
    renderModal();
    const amount = await screen.findByLabelText('Monto');
    expect(amount).toHaveProperty('value', '37.02');
    await userEvent.type(screen.getByLabelText('Descuento'), '5');
    expect(amount).toHaveProperty('value', '32.02');
    await userEvent.click(screen.getByRole('button', { name: 'Registrar pago' }));
    expect(await screen.findByText('Indica el motivo del descuento.')).toBeTruthy();
  });

  it('offers an agent no discount', async () => {
    sessionStore.set({ user: signedUser(), token: 'tok' });
    renderModal();
    expect(await screen.findByLabelText('Monto')).toHaveProperty('value', '37.02');
    expect(screen.queryByLabelText('Descuento')).toBeNull();
  });

  it("asks a factura's address, prefilled from the RUC lookup, and sends it with the payment", async () => {
    sessionStore.set({ user: signedUser(), token: 'tok' });
    const server = fakeServer({
      [`GET /api/lookup/ruc/${RUC}`]: [200, rucLookup('Av. Morro Solar 1086, Lima')],
      'POST /api/payments/manual': [422, { error: 'rechazado para la prueba', code: 'BUSINESS_RULE' }],
    });
    vi.stubGlobal('fetch', server.fetch);
    renderModal(byRuc);
    const address = await screen.findByLabelText('Dirección');
    await vi.waitFor(() => expect(address).toHaveProperty('value', 'Av. Morro Solar 1086, Lima'), { timeout: 5000 });
    await userEvent.clear(address);
    await userEvent.type(address, 'Jr. Ucayali 120, Lima');
    await userEvent.click(screen.getByRole('button', { name: 'Registrar pago' }));
    await vi.waitFor(() => expect(server.calls.some((c) => c.method === 'POST')).toBe(true));
    const sent = server.calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ customerDocType: 6, customerDocNumber: RUC, customerAddress: 'Jr. Ucayali 120, Lima' });
  });

  it("shows the refusal of a factura without an address on the 'Dirección' field", async () => {
    sessionStore.set({ user: signedUser(), token: 'tok' });
    const message = INVOICE_MESSAGES.facturaNeedsAddress;
    const server = fakeServer({
      [`GET /api/lookup/ruc/${RUC}`]: [200, rucLookup()],
      'POST /api/payments/manual': [422, { error: message, code: 'FACTURA_NEEDS_ADDRESS', fields: { customerAddress: message } }],
    });
    vi.stubGlobal('fetch', server.fetch);
    renderModal(byRuc);
    expect(await screen.findByLabelText('Dirección')).toHaveProperty('value', '');
    await userEvent.click(screen.getByRole('button', { name: 'Registrar pago' }));
    expect(await screen.findAllByText(message)).toHaveLength(2); // on the field and in the alert
    expect(server.calls.find((c) => c.method === 'POST')!.body).toMatchObject({ customerAddress: null });
  });

  it('asks no address for a boleta', async () => {
    sessionStore.set({ user: signedUser(), token: 'tok' });
    renderModal();
    expect(await screen.findByLabelText('Monto')).toHaveProperty('value', '37.02');
    expect(screen.queryByLabelText('Dirección')).toBeNull();
  });
});
