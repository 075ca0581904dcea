import { expect, test } from '@playwright/test';
import { DEMO, loginAndWait } from './support.ts';

/*
 * Guides and vouchers through the offline sandbox: a GRE-T is accepted 2 s after issue in this
 * suite (playwright.config.ts), so the screen's PDF polling really waits for it.
 */

test('a retention voucher: the amount withheld is computed as the user types, then it is issued', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await page.goto('/billing/preview?tab=retencion');
  await expect(page.getByLabel('Serie', { exact: true })).toHaveValue('RRR1');
  await expect(page.getByLabel('Porcentaje (%)')).toHaveValue('3.00');
  await page.getByRole('button', { name: 'Crear Documento' }).click();
  await expect(page.getByLabel('Documento del proveedor (RUC o DNI)')).toHaveAccessibleDescription(
    /Proveedor: el documento debe tener 11 dígitos \(RUC\) u 8 dígitos \(DNI\)\./,
  );

  await page.getByLabel('Documento del proveedor (RUC o DNI)').fill('20100070970');
  await page.getByLabel('Nombre o razón social').fill('Supermercados Peruanos S.A.');
  await page.getByLabel('Serie del documento 1').fill('F001');
  await page.getByLabel('Número del documento 1').fill('123');
  await page.getByLabel('Total del documento 1').fill('1000.00');
  await expect(page.getByTestId('voucher-amount')).toHaveText('S/\u00a030.00');
  await page.getByLabel('Importe pagado del documento 1').fill('250.50');
  // 3 % of 250.50 = 7.515 → 7.52 (half up, as the rules).
  await expect(page.getByTestId('voucher-amount')).toHaveText('S/\u00a07.52');
  await page.getByRole('button', { name: 'Crear Documento' }).click();
  const card = page.getByLabel('Documento emitido');
  await expect(card.getByRole('heading', { name: /^RRR1-\d{8}$/ })).toBeVisible();
  await expect(card).toContainText('Comprobante de retención');
  // SUNAT reverses a voucher: it is not offered an 'Anular'.
  await expect(card.getByRole('button', { name: 'Revertir' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Anular' })).toHaveCount(0);
});

test('a carrier guide (GRE-T) from a transport’s load: pre-filled, issued, and its PDF arrives', async ({ page, request }) => {
  const login = await request.post('/api/auth/login', { data: { username: 'ADMIN', password: DEMO.ADMIN } });
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const transports = (
    (await (await request.get('/api/transports', { headers, params: { limit: 200 } })).json()) as { items: { id: number; plate_primary: string }[] }
  ).items;
  let loaded: { id: number; plate_primary: string } | null = null;
  let firstCode = '';
  for (const t of transports) {
    const load = (await (await request.get(`/api/transports/${t.id}/assignments`, { headers })).json()) as { items: { code: string }[] };
    if (load.items.length > 0) {
      loaded = t;
      firstCode = load.items[0]!.code;
      break;
    }
  }
  expect(loaded, 'the demo has a loaded transport').not.toBeNull();
  // One more package for someone else on the same route: the guide must warn that the load has several recipients.
  const route = (await (await request.get(`/api/shipments/${firstCode}`, { headers })).json()) as {
    originBranchId: number;
    destinationBranchId: number;
  };
  const extra = await request.post('/api/shipments', {
    headers,
    data: {
      senderName: 'Comercial Andina SAC',
      recipientDoc: '40112233',
      recipientFirstName: 'Julia',
      recipientLastName: 'Ramos Tito',
      originBranchId: route.originBranchId,
      destinationBranchId: route.destinationBranchId,
      lines: [{ productType: 'liviano', weightKg: 3 }],
      secretCode: 'clave-9',
    },
  });
  expect(extra.status(), await extra.text()).toBe(201);
  const extraId = ((await extra.json()) as { id: number }).id;
  const put = await request.post(`/api/transports/${loaded!.id}/assignments`, { headers, data: { shipmentIds: [extraId] } });
  expect(put.ok(), await put.text()).toBeTruthy();

  await loginAndWait(page, 'ADMIN');
  await page.goto(`/transportistas?tab=asignaciones&transporte=${loaded!.id}`);
  await page.getByRole('link', { name: 'Emitir guía transportista' }).click();
  await expect(page).toHaveURL(new RegExp(`tab=guia&transportId=${loaded!.id}`));
  await expect(page.getByLabel('Serie', { exact: true })).toHaveValue('VVV1');
  await expect(page.getByLabel('Placa', { exact: true })).toHaveValue(loaded!.plate_primary.replace('-', ''));
  await expect(page.getByLabel('Descripción del ítem 1')).not.toHaveValue('');
  // What the API warns about (several senders on one load, a branch without ubigeo…) is shown above the form.
  const { warnings } = (await (await request.get(`/api/transports/${loaded!.id}/carrier-guide`, { headers })).json()) as { warnings: string[] };
  expect(warnings.length, 'the load has several recipients').toBeGreaterThan(0);
  for (const warning of warnings) await expect(page.getByText(warning)).toBeVisible();

  await page.getByRole('button', { name: 'Crear Documento' }).click();
  const card = page.getByLabel('Documento emitido');
  await expect(card.getByRole('heading', { name: /^VVV1-\d{8}$/ })).toBeVisible();
  // Pending at SUNAT first, then accepted by the polling (every 1.5 s) with its PDF.
  await expect(card.getByText('Aceptado', { exact: true })).toBeVisible({ timeout: 25_000 });
  const [pdf] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/pdf?format=a4')),
    card.getByRole('button', { name: 'Ver PDF' }).click(),
  ]);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  const guide = (await card.getByRole('heading', { name: /^VVV1-\d{8}$/ }).textContent())!;
  await expect(card.getByRole('button', { name: 'Dar de baja' })).toBeVisible();

  // The load shows the guide each shipment travels under.
  await page.goto(`/transportistas?tab=asignaciones&transporte=${loaded!.id}`);
  await expect(page.getByRole('link', { name: `Guía ${guide}` }).first()).toBeVisible();

  // And each loaded shipment's own page lists the guide it travels under, linked to the register.
  await page.goto(`/shipments/${firstCode}`);
  const documents = page.getByRole('region', { name: 'Comprobantes y guías' });
  await expect(documents.getByRole('link', { name: guide })).toBeVisible();
  await expect(documents).toContainText('Guía de remisión transportista');
});

test('Retención, the guide and "Facturar envíos" say what they lack where it is lacking (1366 and 1024)', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAndWait(page, 'ADMIN');
  for (const width of [1366, 1024]) {
    await page.setViewportSize({ width, height: 768 });
    await page.goto('/billing/preview?tab=retencion');
    await page.getByRole('button', { name: 'Crear Documento' }).click();
    await expect(page.getByLabel('Nombre o razón social')).toHaveAccessibleDescription(/Proveedor: el nombre o razón social es obligatorio\./);
    await expect(page.getByLabel('Documento del proveedor (RUC o DNI)')).toBeFocused();
    await page.screenshot({ path: `test-results/retencion-errors-${width}.png`, fullPage: true });

    await page.goto('/billing/preview?tab=guia');
    await page.getByRole('button', { name: 'Crear Documento' }).click();
    await expect(page.getByLabel('Ubigeo de partida')).toHaveAccessibleDescription(/Punto de partida: el ubigeo debe tener 6 dígitos\./);
    await page.screenshot({ path: `test-results/guia-errors-${width}.png`, fullPage: true });

    await page.goto('/billing/preview?tab=comprobantes');
    await page.getByRole('button', { name: 'Facturar envíos' }).click();
    const dialog = page.getByRole('dialog', { name: 'Facturar envíos de un cliente' });
    await expect(dialog.getByRole('button', { name: 'Preparar comprobante' })).toHaveAccessibleDescription('Falta: cliente remitente');
    await page.screenshot({ path: `test-results/facturar-envios-${width}.png` });
  }
});
