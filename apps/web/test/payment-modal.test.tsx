import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sessionStore } from '../src/lib/session.ts';
import { PaymentModal } from '../src/features/payments/components/PaymentModal.tsx';
import type { CollectShipment } from '../src/features/payments/api/payments.ts';
import { renderRoutes } from './render.tsx';
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

const renderModal = () =>
  renderRoutes([{ path: '/', element: <PaymentModal opened shipment={shipment} choices={[]} onClose={() => {}} onPaid={() => {}} /> }], '/');

// Unmounted first: the modal reads the session while mounted.
afterEach(() => {
  cleanup();
  sessionStore.set(null);
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
});
