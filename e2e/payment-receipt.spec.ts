import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { INVOICE_MESSAGES } from '@tramo/domain';
import { createShipment, loginAndWait } from './support.ts';

/*
 * A company nobody registered pays at the counter: its factura needs an address, which the RUC
 * lookup (the demo's own customers here) does not know, so the cashier types it. The factura then
 * sits in Comprobantes as a live payment's receipt: it is voided from Pagos, with its payment.
 */

const WALK_IN_RUC = '20601234565';
const SHOTS = process.env.SHOTS_DIR;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

test("a walk-in RUC's factura takes the address typed at the counter; its receipt offers no 'Anular' of its own", async ({ page, request }) => {
  const shipment = await createShipment(request);
  await loginAndWait(page, 'AGENTE1');
  await page.goto('/shipments');
  await page.getByRole('link', { name: `Pagar ${shipment.code}` }).click();
  const modal = page.getByRole('dialog', { name: 'Registrar pago del envío' });
  await expect(modal).toContainText(shipment.code);
  await expect(modal.getByLabel('Dirección')).toHaveCount(0); // a boleta asks none

  await modal.getByRole('combobox', { name: 'Tipo de documento' }).click();
  await page.getByRole('option', { name: 'RUC' }).click();
  await modal.getByLabel('Documento del cliente (DNI o RUC)').fill(WALK_IN_RUC);
  await modal.getByLabel('Nombre del cliente').fill('Inversiones Ccori S.A.C.');
  await expect(modal.getByText('Se emitirá una factura')).toBeVisible();
  const address = modal.getByLabel('Dirección');
  await expect(address).toHaveValue('');
  // Without an address the API refuses, naming the field, and nothing is charged.
  await modal.getByRole('button', { name: 'Registrar pago' }).click();
  await expect(modal.getByText(INVOICE_MESSAGES.facturaNeedsAddress)).toHaveCount(2); // on the field and in the alert
  await page.setViewportSize({ width: 1024, height: 768 });
  await shot(page, 'payment-modal-factura-no-address-1024');
  await page.setViewportSize({ width: 1366, height: 768 });

  await address.fill('Jr. Ucayali 120, Cercado de Lima');
  await expect(modal.getByText(INVOICE_MESSAGES.facturaNeedsAddress)).toHaveCount(1); // the field's error cleared, the alert kept
  await shot(page, 'payment-modal-factura-address-1366');
  const [paid] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/payments/manual') && r.request().method() === 'POST'),
    modal.getByRole('button', { name: 'Registrar pago' }).click(),
  ]);
  expect(paid.status()).toBe(201);
  const documentId = (await paid.json()).payment.documentId as number;
  const viewer = page.getByRole('dialog', { name: /^FFF1-\d{8} · ticket$/ });
  await expect(viewer).toBeVisible();
  await page.keyboard.press('Escape');

  await page.goto(`/billing/preview?tab=comprobantes&doc=${documentId}`);
  const drawer = page.getByRole('dialog', { name: 'Comprobante' });
  await expect(drawer).toContainText('Jr. Ucayali 120, Cercado de Lima');
  await expect(drawer).toContainText('Aceptado');
  await expect(drawer).toContainText('Se anula desde Pagos, con su pago.');
  await expect(drawer.getByRole('button', { name: 'Anular' })).toHaveCount(0);
  await expect(drawer.getByRole('button', { name: 'Ver PDF' })).toBeVisible();
  await shot(page, 'comprobantes-drawer-payment-receipt-1366');
  await page.setViewportSize({ width: 1024, height: 768 });
  await shot(page, 'comprobantes-drawer-payment-receipt-1024');
});
