import { expect, test, type Page } from '@playwright/test';
import { loginAndWait } from './support.ts';

/*
 * SUNAT documents through the offline sandbox provider (the default): the e2e server accepts
 * boletas after 10 s and voids after 1.5 s (playwright.config.ts), facturas at once, like SUNAT does.
 */

async function openBilling(page: Page, tab = 'factura') {
  await page.goto(`/billing/preview?tab=${tab}`);
  await expect(page.getByRole('heading', { name: 'Facturación' })).toBeVisible();
}

/** The PDF viewer fetched a real PDF (not an error page) for this format. */
async function expectPdf(page: Page, button: 'Ver PDF' | 'Ticket 80 mm', scope = page.locator('body')) {
  const format = button === 'Ver PDF' ? 'a4' : 'ticket';
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().includes(`/pdf?format=${format}`)),
    scope.getByRole('button', { name: button }).click(),
  ]);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/pdf');
  await expect(page.getByTitle(/^PDF /)).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Cerrar' }).or(page.locator('.mantine-Modal-close')).first().click();
}

test('an empty document says every rule on its field, focuses the first and sends nothing', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await openBilling(page);
  let sent = false;
  page.on('request', (r) => {
    if (r.url().includes('/billing/create-emit')) sent = true;
  });
  await page.getByRole('button', { name: 'Crear Documento' }).click();
  // Issue 38: each rule on its field (no 'Corrige:' list repeats what a field says), the focus on the first.
  await expect(page.getByLabel('Buscar cliente')).toHaveAccessibleDescription(
    /Cliente: elige un cliente registrado o ingresa tipo de documento, número y nombre\./,
  );
  await expect(page.getByLabel('Descripción del ítem 1')).toHaveAccessibleDescription(/Ítem 1: la descripción es obligatoria\./);
  await expect(page.getByLabel('Buscar cliente')).toBeFocused();
  await expect(page.getByRole('alert').filter({ hasText: 'Corrige:' })).toHaveCount(0);
  // A factura needs a RUC: a DNI customer is refused before anything is sent.
  await page.getByRole('combobox', { name: 'Tipo de comprobante' }).click();
  await page.getByRole('option', { name: '01 · Factura' }).click();
  await expect(page.getByLabel('Serie')).toHaveValue('FFF1');
  await page.getByText('Ingresar datos').click();
  await page.getByLabel('Número de documento').fill('45678912');
  await page.getByLabel('Nombre o razón social').fill('Rosa Quispe');
  await page.getByRole('button', { name: 'Crear Documento' }).click();
  await expect(page.getByRole('combobox', { name: 'Tipo de documento' })).toHaveAccessibleDescription(
    /La factura requiere el RUC del cliente \(11 dígitos\)\./,
  );
  expect(sent).toBe(false);
});

test('a boleta from the form: live totals, PDF A4 and ticket, accepted, then voided', async ({ page }) => {
  await loginAndWait(page, 'AGENTE1');
  await openBilling(page);
  await expect(page.getByLabel('Serie')).toHaveValue('BBB1');
  await page.getByText('Ingresar datos').click();
  await page.getByLabel('Número de documento').fill('45678912');
  await page.getByLabel('Nombre o razón social').fill('Rosa Quispe Mamani');
  await page.getByLabel('Descripción del ítem 1').fill('Embalaje reforzado');
  await page.getByRole('combobox', { name: 'Unidad del ítem 1' }).click();
  await page.getByRole('option', { name: 'NIU · Unidad (bienes)' }).click();
  await page.getByLabel('Cantidad del ítem 1').fill('2');
  await page.getByLabel('Valor unitario del ítem 1').fill('12.7119');
  // 2 × 12.7119 = 25.4238 → 25.42 gravada, IGV 4.58, total 30.00 (the domain's rounding, live).
  await expect(page.getByTestId('total-Op. gravada')).toHaveText('S/\u00a025.42');
  await expect(page.getByTestId('total-IGV 18 %')).toHaveText('S/\u00a04.58');
  await expect(page.getByTestId('total-Total')).toHaveText('S/\u00a030.00');
  await page.getByRole('button', { name: 'Crear Documento' }).click();

  const card = page.getByLabel('Documento emitido');
  await expect(card.getByRole('heading', { name: /^BBB1-\d{8}$/ })).toBeVisible();
  await expectPdf(page, 'Ver PDF', card);
  await expectPdf(page, 'Ticket 80 mm', card);
  // Boletas go through the daily summary: pending first, accepted a moment later.
  await expect(card.getByText('Aceptado', { exact: true })).toBeVisible({ timeout: 20_000 });

  await card.getByRole('button', { name: 'Anular' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Motivo de la anulación')).toHaveValue('ERROR DEL SISTEMA');
  await dialog.getByRole('button', { name: 'Anular' }).click();
  await expect(card.getByText(/Anulación pendiente|Anulado/)).toBeVisible();
  await expect(card.getByText('Anulado', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(card.getByRole('button', { name: 'Anular' })).toHaveCount(0);
});

test('billing a corporate customer’s shipments: one factura, detracción pre-filled, shipments linked; then a credit note', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await openBilling(page, 'comprobantes');
  await page.getByRole('button', { name: 'Facturar envíos' }).click();
  const dialog = page.getByRole('dialog', { name: 'Facturar envíos de un cliente' });
  await dialog.getByLabel('Cliente remitente').fill('Agroexportadora');
  await page.getByRole('option', { name: /Agroexportadora Norte Verde/ }).click();
  await expect(dialog.getByRole('checkbox', { name: /^Elegir TMT-/ }).first()).toBeVisible();
  const codes = await dialog
    .getByRole('checkbox', { name: /^Elegir TMT-/ })
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')!.replace('Elegir ', '')));
  expect(codes.length).toBeGreaterThanOrEqual(2);
  await dialog.getByRole('checkbox', { name: 'Elegir todos' }).check();
  await expect(dialog).toContainText('se emitirá una factura');
  await dialog.getByRole('button', { name: 'Preparar comprobante' }).click();

  // The form: a factura FFF1 to the customer, one line per shipment, detracción 027 at 4 % pre-filled.
  await expect(page.getByLabel('Serie')).toHaveValue('FFF1');
  await expect(page.getByText('Agroexportadora Norte Verde S.A.')).toBeVisible();
  await expect(page.getByLabel('Descripción del ítem 1')).toHaveValue(/^Servicio de transporte de carga TMT-\d{6} .+ → .+$/);
  await expect(page.getByLabel(`Descripción del ítem ${codes.length}`)).toBeVisible();
  await expect(page.getByLabel('Operación sujeta a detracción (transporte de carga)')).toBeChecked();
  await expect(page.getByLabel('Porcentaje (%)')).toHaveValue('4');
  await expect(page.getByLabel('Monto de la detracción')).toHaveValue(/^\d+\.00$/);
  // The trip (operation 1004) comes from the shipments' branches and the route's reference values.
  await expect(page.getByLabel('Ubigeo de origen')).toHaveValue(/^\d{6}$/);
  await expect(page.getByLabel('Dirección de destino')).not.toHaveValue('');
  await expect(page.getByLabel('Detalle del viaje')).toHaveValue(/^Transporte de carga por carretera: /);
  await expect(page.getByLabel('Valor referencial del servicio')).toHaveValue(/^\d+\.\d{2}$/);
  // Only the account and the payment means are left to the user.
  await page.getByRole('button', { name: 'Crear Documento' }).click();
  await expect(page.getByLabel('Cuenta de detracciones (Banco de la Nación)')).toHaveAccessibleDescription(
    /Detracción: ingresa la cuenta de detracciones/,
  );
  await page.getByLabel('Cuenta de detracciones (Banco de la Nación)').fill('00-012-345678');
  await page.getByRole('combobox', { name: 'Medio de pago' }).click();
  await page.getByRole('option', { name: /^1 · Depósito en cuenta/ }).click();
  await page.getByRole('button', { name: 'Crear Documento' }).click();

  const card = page.getByLabel('Documento emitido');
  const heading = card.getByRole('heading', { name: /^FFF1-\d{8}$/ });
  await expect(heading).toBeVisible();
  const number = (await heading.textContent())!;
  await expect(card.getByText('Aceptado', { exact: true })).toBeVisible();

  // The register lists it; the shipment's detail page shows it.
  await openBilling(page, 'comprobantes');
  await page.getByLabel('Cliente').fill('Agroexportadora');
  // The search has settled (it rewrites the address) before the row is opened.
  await expect(page).toHaveURL(/customer=Agroexportadora/);
  await expect(page.getByRole('link', { name: number })).toBeVisible();
  await page.getByRole('link', { name: number }).click();
  const drawer = page.getByRole('dialog', { name: 'Comprobante' });
  await expect(drawer).toContainText(`Envíos: ${codes.join(', ')}`.slice(0, 20));
  await expect(drawer.getByRole('img', { name: 'Código QR de SUNAT' })).toBeVisible();
  await expect(drawer).toContainText('Detracción 027 (4 %)');

  // Credit note from the drawer: related document, series FFF1 and lines pre-filled; the reason is chosen.
  await drawer.getByRole('button', { name: 'Emitir nota de crédito' }).click();
  await expect(page.getByRole('combobox', { name: 'Tipo de comprobante' })).toHaveValue('07 · Nota de crédito');
  await expect(page.getByLabel('Serie', { exact: true })).toHaveValue('FFF1');
  // The modified document is picked from the register: this factura, with what is left to credit.
  await expect(page.getByRole('combobox', { name: 'Documento que se modifica' })).toHaveValue(new RegExp(`^${number} · Factura`));
  await page.getByRole('combobox', { name: 'Motivo' }).click();
  await page.getByRole('option', { name: '01 · Anulación de la operación' }).click();
  await page.getByRole('button', { name: 'Crear Documento' }).click();
  // Credit notes number on their own (07, FFF1) counter.
  const note = page.getByLabel('Documento emitido');
  await expect(note.getByText('Nota de crédito', { exact: true })).toBeVisible();
  await expect(note.getByRole('heading', { name: /^FFF1-\d{8}$/ })).toBeVisible();

  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('auth') ?? 'null') as { token: string } | null)?.token);
  const res = await page.request.get(`/api/shipments/code/${codes[0]}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBeTruthy();
  const found = (await res.json()) as { id: number };
  await page.goto(`/shipments/${found!.id}`);
  await expect(page.getByRole('link', { name: number })).toBeVisible();
});

test('the Factura form says its rules on the fields when they are left and on submit (1366 and 1024)', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAndWait(page, 'ADMIN');
  for (const width of [1366, 1024]) {
    await page.setViewportSize({ width, height: 768 });
    await openBilling(page);
    await page.getByRole('combobox', { name: 'Tipo de comprobante' }).click();
    await page.getByRole('option', { name: '01 · Factura' }).click();
    await page.getByText('Ingresar datos').click();
    await page.getByRole('combobox', { name: 'Tipo de documento' }).click();
    await page.getByRole('option', { name: /^RUC/ }).click();
    // Left one by one: each says its rule at once.
    await page.getByLabel('Número de documento').fill('123');
    await page.getByLabel('Número de documento').blur();
    await expect(page.getByLabel('Número de documento')).toHaveAccessibleDescription(/RUC debe tener 11 dígitos/);
    await page.getByLabel('Cantidad del ítem 1').fill('0');
    await page.getByLabel('Cantidad del ítem 1').blur();
    await expect(page.getByLabel('Cantidad del ítem 1')).toHaveAccessibleDescription(/Ítem 1: la cantidad debe ser un número mayor que 0\./);
    // Submit: the rest appear on their fields, the first wrong one takes the focus, nothing is sent.
    await page.getByRole('button', { name: 'Crear Documento' }).click();
    await expect(page.getByLabel('Nombre o razón social')).toHaveAccessibleDescription(/El nombre o razón social del cliente es obligatorio\./);
    await expect(page.getByLabel('Dirección')).toHaveAccessibleDescription(/La factura requiere la dirección del cliente/);
    await expect(page.getByLabel('Descripción del ítem 1')).toHaveAccessibleDescription(/Ítem 1: la descripción es obligatoria\./);
    await expect(page.getByLabel('Número de documento')).toBeFocused();
    await expect(page.getByRole('alert').filter({ hasText: 'Corrige:' })).toHaveCount(0);
    await page.screenshot({ path: `test-results/factura-errors-${width}.png`, fullPage: true });
  }
});
