import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import {
  COLLECTION_MESSAGES,
  COMPANY_MESSAGES,
  CREDIT_MESSAGES,
  emptyInvoiceForm,
  FLEET_DOCUMENT_MESSAGES,
  FLEET_MESSAGES,
  GUIDE_MESSAGES,
  INVOICE_MESSAGES,
  limaDay,
  rucError,
  SERIES_MESSAGES,
  VOUCHER_MESSAGES,
  WHO_PAYS_RULES_MESSAGES,
  type CreditAccountDetail,
} from '@tramo/domain';
import { sessionStore } from '../src/lib/session.ts';
import { InvoiceForm } from '../src/features/billing/components/InvoiceForm.tsx';
import { VoucherForm } from '../src/features/billing/components/voucher/VoucherForm.tsx';
import { GuideForm } from '../src/features/billing/components/guide/GuideForm.tsx';
import CompanyPage from '../src/features/company/CompanyPage.tsx';
import { TransportForm } from '../src/features/fleet/components/TransportForm.tsx';
import { HolderDocuments } from '../src/features/fleet/components/HolderDocuments.tsx';
import { AccountForm } from '../src/features/credit/AccountForm.tsx';
import { CollectionForm } from '../src/features/credit/CollectionForm.tsx';
import ReglasCobroPage from '../src/features/who-pays/ReglasCobroPage.tsx';
import { signedUser } from './fixtures.ts';
import { describedBy, expectMessage, leave, sent, setup } from './form-helpers.tsx';

/**
 * Issue 38, item 1, the forms form-messages.test.tsx leaves: billing's, the company, the fleet's, credit's
 * and 'Reglas de cobro'. Each says the spec's message on the field when it is left and on submit, and a
 * refused submit sends nothing.
 */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStore.set(null);
});

const today = limaDay(new Date());

describe('the remaining forms show their spec messages on the field (issue 38)', { timeout: 60_000 }, () => {
  it('Boleta: the lines, the series and the customer on their fields; submit focuses the first and sends nothing', async () => {
    sessionStore.set({ user: signedUser({ role: 'admin' }), token: 'tok' });
    const { server, user } = setup(<InvoiceForm initial={emptyInvoiceForm(today)} onCreditNote={() => {}} />);
    await expectMessage(await leave(user, /^Descripción del ítem 1/, ''), INVOICE_MESSAGES.item.description(1));
    await expectMessage(await leave(user, /^Cantidad del ítem 1/, '0'), INVOICE_MESSAGES.item.quantity(1));
    await expectMessage(await leave(user, /^Valor unitario del ítem 1/, 'abc'), INVOICE_MESSAGES.item.unitValue(1));
    await expectMessage(await leave(user, /^Serie/, 'B1'), SERIES_MESSAGES.length);
    // A problem fixed leaves its field at once.
    await leave(user, /^Cantidad del ítem 1/, '2');
    await waitFor(() => expect(describedBy(screen.getByLabelText(/^Cantidad del ítem 1/))).not.toContain(INVOICE_MESSAGES.item.quantity(1)));

    await user.click(screen.getByRole('button', { name: 'Crear Documento' }));
    // No customer chosen: said on the search box, the only customer field on screen.
    await expectMessage(screen.getByLabelText(/^Buscar cliente/), INVOICE_MESSAGES.customerRequired);
    await waitFor(() => expect(screen.getByLabelText(/^Serie/)).toHaveFocus());
    // Every problem has its field: no 'Corrige:' list repeats them.
    expect(screen.queryByText(INVOICE_MESSAGES.heading)).toBeNull();
    expect(sent(server)).toEqual([]);
  });

  it('Factura: RUC, name and address of a typed customer on their fields', async () => {
    sessionStore.set({ user: signedUser({ role: 'admin' }), token: 'tok' });
    const initial = { ...emptyInvoiceForm(today), type: '01' as const, serie: 'F001' };
    initial.customer = { ...initial.customer, docType: '6' };
    const { server, user } = setup(<InvoiceForm initial={initial} onCreditNote={() => {}} />);
    await user.click(screen.getByText('Ingresar datos'));
    await expectMessage(await leave(user, /^Número de documento/, '123'), rucError('123')!);
    await expectMessage(await leave(user, /^Nombre o razón social/, ''), INVOICE_MESSAGES.customerName);
    await expectMessage(await leave(user, /^Dirección/, ''), INVOICE_MESSAGES.facturaNeedsAddress);
    await user.click(screen.getByRole('button', { name: 'Crear Documento' }));
    await expectMessage(screen.getByLabelText(/^Descripción del ítem 1/), INVOICE_MESSAGES.item.description(1));
    await waitFor(() => expect(screen.getByLabelText(/^Número de documento/)).toHaveFocus());
    expect(sent(server)).toEqual([]);
  });

  it('Retención', async () => {
    sessionStore.set({ user: signedUser({ role: 'admin' }), token: 'tok' });
    const { server, user } = setup(<VoucherForm kind="retencion" />);
    await expectMessage(await leave(user, /^Porcentaje/, '0'), VOUCHER_MESSAGES.percent);
    await expectMessage(await leave(user, /^Documento del proveedor/, '123'), VOUCHER_MESSAGES.subjectDocument('Proveedor'));
    await expectMessage(await leave(user, /^Nombre o razón social/, ''), VOUCHER_MESSAGES.subjectName('Proveedor'));
    await expectMessage(await leave(user, /^Total del documento 1/, 'abc'), VOUCHER_MESSAGES.related.total(1));
    await user.click(screen.getByRole('button', { name: 'Crear Documento' }));
    await expectMessage(screen.getByLabelText(/^Serie del documento 1/), VOUCHER_MESSAGES.related.series(1));
    await waitFor(() => expect(screen.getByLabelText(/^Porcentaje/)).toHaveFocus());
    expect(screen.queryByText(VOUCHER_MESSAGES.heading)).toBeNull();
    expect(sent(server)).toEqual([]);
  });

  it('Guía de remisión', async () => {
    sessionStore.set({ user: signedUser({ role: 'admin' }), token: 'tok' });
    const { server, user } = setup(<GuideForm />);
    await expectMessage(await leave(user, /^Documento \(RUC o DNI\)/, '123'), GUIDE_MESSAGES.clientDocument);
    await expectMessage(await leave(user, /^Nombre o razón social/, ''), GUIDE_MESSAGES.clientName);
    await expectMessage(await leave(user, /^Ubigeo de partida/, '12'), GUIDE_MESSAGES.ubigeo('Punto de partida'));
    await expectMessage(await leave(user, /^Descripción del ítem 1/, ''), GUIDE_MESSAGES.item.description(1));
    await user.click(screen.getByRole('button', { name: 'Crear Documento' }));
    await expectMessage(screen.getByLabelText(/^Dirección de llegada/), GUIDE_MESSAGES.address('Punto de llegada'));
    await waitFor(() => expect(screen.getByLabelText(/^Número de bultos/)).toHaveFocus());
    expect(sent(server)).toEqual([]);
  });

  it('Empresa', async () => {
    const company = {
      ruc: '20100066603',
      name: 'Transportes Tramo S.A.C.',
      tradeName: null,
      address: 'Av. Argentina 1234, Lima',
      mtcRegistration: null,
      guidesBeforeDeparture: false,
      logoType: null,
      updatedAt: null,
      updatedByName: null,
    };
    const { server, user } = setup(<CompanyPage />, { 'GET /api/settings/company': [200, company] });
    await screen.findByLabelText(/^RUC/);
    await expectMessage(await leave(user, /^RUC/, '123'), rucError('123')!);
    await expectMessage(await leave(user, /^Razón social/, ''), COMPANY_MESSAGES.nameRequired);
    await expectMessage(await leave(user, /^Dirección fiscal/, ''), COMPANY_MESSAGES.addressRequired);
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.getByLabelText(/^RUC/)).toHaveFocus());
    expect(sent(server)).toEqual([]);
  });

  it('Transporte', async () => {
    const { server, user } = setup(<TransportForm transport={null} onDone={() => {}} />, {
      'GET /api/branches': [200, []],
      'GET /api/drivers': [200, []],
      'GET /api/transports': [200, { items: [], total: 0 }],
    });
    await expectMessage(await leave(user, /^Placa principal/, ''), FLEET_MESSAGES.plateRequired);
    await expectMessage(await leave(user, /^Placa principal/, 'A1'), FLEET_MESSAGES.plateInvalid);
    await user.click(screen.getByRole('button', { name: 'Crear transporte' }));
    await waitFor(() => expect(screen.getByLabelText(/^Placa principal/)).toHaveFocus());
    expect(sent(server)).toEqual([]);
  });

  it('Documentos de la flota', async () => {
    const { server, user } = setup(<HolderDocuments kind="transports" id={1} holder="ABC-123" />, {
      'GET /api/transports/1/documents': [200, []],
    });
    await expectMessage(await leave(user, /^Número/, ''), FLEET_DOCUMENT_MESSAGES.numberRequired);
    await user.click(screen.getByRole('button', { name: 'Registrar documento' }));
    await expectMessage(screen.getByLabelText(/^Fecha de vencimiento/), FLEET_DOCUMENT_MESSAGES.expiresRequired);
    await waitFor(() => expect(screen.getByLabelText(/^Número/)).toHaveFocus());
    expect(sent(server)).toEqual([]);
  });

  it('Cuenta de crédito', async () => {
    const { server, user } = setup(<AccountForm account={null} onDone={() => {}} />);
    await expectMessage(await leave(user, /^Límite de crédito/, '0'), CREDIT_MESSAGES.limit);
    await expectMessage(await leave(user, /^Plazo/, '0'), CREDIT_MESSAGES.terms);
    await expectMessage(await leave(user, /^Contacto para estados de cuenta/, ''), CREDIT_MESSAGES.contactName);
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.getByLabelText(/^Límite de crédito/)).toHaveFocus());
    expect(sent(server)).toEqual([]);
  });

  it('Cobro de crédito', async () => {
    const account = { customerId: 5, invoices: [] } as unknown as CreditAccountDetail;
    const { server, user } = setup(<CollectionForm account={account} onDone={() => {}} />);
    await expectMessage(await leave(user, /^Importe/, '0'), COLLECTION_MESSAGES.amount);
    await expectMessage(await leave(user, /^Banco/, ''), COLLECTION_MESSAGES.bank);
    await user.click(screen.getByRole('button', { name: 'Registrar cobro' }));
    await expectMessage(screen.getByLabelText(/^Número de operación/), COLLECTION_MESSAGES.operation);
    await waitFor(() => expect(screen.getByLabelText(/^Importe/)).toHaveFocus());
    expect(sent(server)).toEqual([]);
  });

  it('Reglas de cobro', async () => {
    const { server, user } = setup(<ReglasCobroPage />, {
      'GET /api/settings/who-pays': [200, { maxDestinationFreight: 200, originOnlyAboveKg: null, routes: [], branchMethods: [] }],
      'GET /api/branches': [200, []],
    });
    await screen.findByLabelText(/^Flete máximo/);
    await expectMessage(await leave(user, /^Flete máximo/, 'abc'), WHO_PAYS_RULES_MESSAGES.maxFreight);
    await expectMessage(await leave(user, /^Peso desde/, '-1'), WHO_PAYS_RULES_MESSAGES.weight);
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.getByLabelText(/^Flete máximo/)).toHaveFocus());
    expect(sent(server)).toEqual([]);
  });
});
