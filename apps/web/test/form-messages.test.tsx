import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { sessionStore } from '../src/lib/session.ts';
import LoginPage from '../src/features/auth/LoginPage.tsx';
import ChangePasswordPage from '../src/features/auth/ChangePasswordPage.tsx';
import { BranchForm } from '../src/features/branches/components/BranchForm.tsx';
import { CustomerForm } from '../src/features/customers/components/CustomerForm.tsx';
import { UserForm } from '../src/features/users/components/UserForm.tsx';
import { DriverForm } from '../src/features/fleet/components/DriverForm.tsx';
import { DeliveryForm } from '../src/features/deliveries/components/DeliveryForm.tsx';
import type { Shipment } from '../src/features/shipments/types.ts';
import { BILLING_MESSAGES, PAYMENT_MESSAGES, RETURN_MESSAGES } from '@tramo/domain';
import { VoidModal } from '../src/features/billing/components/VoidModal.tsx';
import { ReturnModal } from '../src/features/shipments/components/ReturnModal.tsx';
import { SecretCodeModal } from '../src/features/shipments/components/ManagePanel.tsx';
import { PaymentModal } from '../src/features/payments/components/PaymentModal.tsx';
import type { CollectShipment } from '../src/features/payments/api/payments.ts';
import { signedUser } from './fixtures.ts';
import { describedBy, expectMessage, leave, sent, setup } from './form-helpers.tsx';

/**
 * Issue 38, item 1: every form says the spec's message on the field itself (the text its input is
 * described by), when the field is left and when the form is submitted; a bad submit sends nothing.
 */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStore.set(null);
});

describe('every form shows its spec messages on the field (issue 38)', { timeout: 60_000 }, () => {
  it('Iniciar sesión', async () => {
    const { server, user } = setup(<LoginPage />, { 'GET /api/health': [200, { status: 'ok', db: 'embedded', demo: false, publicUrl: null }] });
    await expectMessage(await leave(user, /^Usuario/, 'ab'), 'Mínimo 3 caracteres');
    await expectMessage(await leave(user, /^Usuario/, 'ab$cd'), 'Sólo letras, números, . _ -');
    await expectMessage(await leave(user, /^Contraseña/, '123'), 'Mínimo 6 caracteres');
    await user.clear(screen.getByLabelText(/^Usuario/));
    await user.click(screen.getByRole('button', { name: 'Ingresar' }));
    await expectMessage(screen.getByLabelText(/^Usuario/), 'Mínimo 3 caracteres');
    expect(screen.getByLabelText(/^Usuario/)).toHaveFocus();
    expect(sent(server)).toEqual([]);
  });

  it('Cambiar contraseña', async () => {
    sessionStore.set({ user: signedUser(), token: 'tok' });
    const { server, user } = setup(<ChangePasswordPage />);
    await expectMessage(await leave(user, /^Contraseña actual/, '12'), 'Mínimo 6 caracteres');
    await expectMessage(await leave(user, /^Nueva contraseña/, 'abc'), 'Mínimo 6 caracteres');
    await leave(user, /^Nueva contraseña/, 'abcdef');
    await expectMessage(await leave(user, /^Confirmar contraseña/, 'abcdeg'), 'Las contraseñas no coinciden');
    await user.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    expect(screen.getByLabelText(/^Contraseña actual/)).toHaveFocus();
    expect(sent(server)).toEqual([]);
  });

  it('Sucursal', async () => {
    const { server, user } = setup(<BranchForm branch={null} onDone={() => {}} />);
    await expectMessage(await leave(user, /^Nombre/, ''), 'Nombre es obligatorio');
    await expectMessage(await leave(user, /^Nombre/, 'A'), 'Mínimo 2 caracteres');
    await user.click(screen.getByRole('button', { name: 'Crear sucursal' }));
    expect(screen.getByLabelText(/^Nombre/)).toHaveFocus();
    expect(sent(server)).toEqual([]);
  });

  it('Cliente', async () => {
    const { server, user } = setup(<CustomerForm customer={null} onDone={() => {}} />);
    await expectMessage(await leave(user, /Número de documento/, ''), 'Número de documento es obligatorio');
    await expectMessage(await leave(user, /Número de documento/, '123'), 'DNI debe tener 8 dígitos');
    await expectMessage(await leave(user, /^Nombres/, ''), 'Nombres es obligatorio');
    await user.click(screen.getByRole('button', { name: 'Crear cliente' }));
    await waitFor(() => expect(screen.getByLabelText(/Número de documento/)).toHaveFocus());
    expect(sent(server)).toEqual([]);
  });

  it('Usuario', async () => {
    const { server, user } = setup(<UserForm user={null} onCreated={() => {}} onDone={() => {}} />, {
      'GET /api/users': [200, [signedUser()]],
      'GET /api/branches': [200, []],
    });
    await expectMessage(await leave(user, /^Usuario/, ''), 'Usuario es obligatorio');
    await expectMessage(await leave(user, /^Usuario/, 'ab'), 'Mínimo 3 caracteres');
    await leave(user, /^Usuario/, 'NUEVO');
    await user.click(screen.getByRole('button', { name: 'Crear usuario' }));
    await expectMessage(screen.getByRole('combobox', { name: /^Rol/ }), 'Rol es obligatorio');
    expect(sent(server)).toEqual([]);
    // A code already taken keeps the button offered: the live message is on the field, and submit goes there.
    await leave(user, /^Usuario/, 'AGENTE1');
    await expectMessage(screen.getByLabelText(/^Usuario/), 'Ya existe un usuario con este código.');
  });

  it('Conductor', async () => {
    const { server, user } = setup(<DriverForm driver={null} onDone={() => {}} />);
    await expectMessage(await leave(user, /^Nombre completo/, ''), 'Nombre completo es obligatorio');
    await user.click(screen.getByRole('button', { name: 'Crear conductor' }));
    await expectMessage(screen.getByLabelText(/^DNI/), 'DNI es obligatorio');
    await expectMessage(screen.getByLabelText(/^Licencia/), 'Licencia es obligatoria');
    expect(screen.getByLabelText(/^Nombre completo/)).toHaveFocus();
    expect(sent(server)).toEqual([]);
  });

  it('Confirmar entrega', async () => {
    sessionStore.set({ user: signedUser({ role: 'admin' }), token: 'tok' });
    const shipment = {
      id: 7,
      status: 'En tránsito',
      destinationBranchId: 2,
      destinationBranch: { name: 'Trujillo' },
      recipientName: '',
      recipientDoc: '',
      deliveredInfo: null,
    } as unknown as Shipment;
    const { server, user } = setup(<DeliveryForm shipment={shipment} />, {
      'GET /api/deliveries/agents': [200, []],
      'GET /api/deliveries/settings': [200, { proofRequired: false }],
    });
    await screen.findByLabelText(/^Clave secreta/);
    await expectMessage(await leave(user, /^Clave secreta/, '12'), 'Clave requerida');
    await expectMessage(await leave(user, /^Nombre de quien recibe/, ''), 'Nombre requerido');
    await expectMessage(await leave(user, /^Documento de quien recibe/, ''), 'Documento requerido');
    await expectMessage(await leave(user, /^Documento de quien recibe/, '12'), 'Documento inválido');
    await user.click(screen.getByRole('button', { name: 'Confirmar entrega' }));
    await expectMessage(screen.getByRole('combobox', { name: /^Entregado por/ }), 'Quién entrega');
    expect(screen.getByLabelText(/^Clave secreta/)).toHaveFocus();
    expect(sent(server)).toEqual([]);
  });

  it('Registrar pago del envío', async () => {
    sessionStore.set({ user: signedUser(), token: 'tok' });
    const shipment = {
      id: 7,
      code: 'TMT-000007',
      senderName: 'María Flores',
      senderCustomerId: null,
      senderDocType: 1,
      senderDoc: '45879612',
      originBranch: { name: 'Lima' },
      destinationBranch: { name: 'Arequipa' },
      quotedPrice: 37.02,
      payer: 'remitente',
      paymentMoment: 'origen',
    } as unknown as CollectShipment;
    const { server, user } = setup(<PaymentModal opened shipment={shipment} choices={[]} onClose={() => {}} onPaid={() => {}} />, {
      'GET /api/lookup/dni/45879612': [404, { error: 'No encontrado.' }],
    });
    await screen.findByLabelText('Monto');
    await expectMessage(await leave(user, /^Monto/, 'abc'), PAYMENT_MESSAGES.amount);
    await expectMessage(await leave(user, /^Monto/, ''), PAYMENT_MESSAGES.amount);
    await leave(user, /^Monto/, '37.02');
    await waitFor(() => expect(describedBy(screen.getByLabelText(/^Monto/))).not.toContain(PAYMENT_MESSAGES.amount));
    await expectMessage(await leave(user, /^Nombre del cliente/, ''), PAYMENT_MESSAGES.name);
    await user.click(screen.getByRole('button', { name: 'Registrar pago' }));
    await expectMessage(screen.getByLabelText(/^Nombre del cliente/), PAYMENT_MESSAGES.name);
    expect(sent(server)).toEqual([]);
  });

  it('Devolver a origen and Cambiar clave secreta', async () => {
    sessionStore.set({ user: signedUser(), token: 'tok' });
    const shipment = { id: 7, code: 'TMT-000007', originBranch: { name: 'Lima' }, destinationBranch: { name: 'Arequipa' } } as unknown as Shipment;
    const { server, user } = setup(
      <>
        <ReturnModal shipment={shipment} opened onClose={() => {}} />
      </>,
    );
    await screen.findByLabelText(/^Motivo/);
    await expectMessage(await leave(user, /^Motivo/, ''), RETURN_MESSAGES.reasonRequired);
    await expectMessage(await leave(user, /^Clave secreta del retorno/, 'ab'), 'Mínimo 4 caracteres');
    await expectMessage(await leave(user, /^Clave secreta del retorno/, 'abc$%'), 'Solo letras, números y - _ .');
    expect(sent(server)).toEqual([]);
    cleanup();

    setup(<SecretCodeModal shipment={shipment} opened onClose={() => {}} />);
    await screen.findByLabelText(/^Nueva clave secreta/);
    await expectMessage(await leave(user, /^Nueva clave secreta/, 'ab'), 'Mínimo 4 caracteres');
  });

  it('Anular comprobante', async () => {
    sessionStore.set({ user: signedUser({ role: 'admin' }), token: 'tok' });
    const { server, user } = setup(<VoidModal target={{ id: 3, name: 'F001-00000003', type: '01' }} onClose={() => {}} />);
    const reason = await screen.findByRole('textbox');
    await user.clear(reason);
    await user.tab();
    await expectMessage(reason, BILLING_MESSAGES.voidReason);
    expect(sent(server)).toEqual([]);
  });
});
