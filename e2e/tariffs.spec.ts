import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { apiToken, loginAndWait, unique } from './support.ts';

/**
 * Issue 34 in the browser: a shipment charged by volume, insured, with home delivery, for a sender
 * customer with a 10 % discount; the form's breakdown is what the detail page stores and the label
 * prints the declared value and the liability clause.
 */
test('registers a shipment by volume with insurance and home delivery for a customer with a discount', async ({ page, request }) => {
  test.setTimeout(180_000);
  const token = await apiToken(request, 'AGENTE1');
  const headers = { Authorization: `Bearer ${token}` };
  const name = unique('Textiles');
  const dni = String(40_000_000 + Math.floor(Math.random() * 9_000_000));
  const customer = await request.post('/api/customers', { headers, data: { firstName: name, lastName: 'SAC', doc_type: 1, doc_number: dni } });
  expect(customer.status()).toBe(201);
  const { id } = (await customer.json()) as { id: number };
  expect((await request.put(`/api/tariffs/customers/${id}`, { headers, data: { discount: 10 } })).status()).toBe(200);

  await page.setViewportSize({ width: 1366, height: 768 });
  await loginAndWait(page, 'AGENTE1');
  await page.goto('/shipments/new');
  await page.getByLabel('Buscar remitente').fill(dni);
  await page.getByRole('option', { name: new RegExp(name) }).click();
  await page.getByLabel('DNI/RUC del destinatario').fill('45871236');
  await page.getByLabel('Nombres').fill('Ana');
  await page.getByLabel('Apellidos').fill('Quispe');
  await page.getByRole('combobox', { name: 'Destino' }).click();
  await page.getByRole('option', { name: 'Trujillo' }).click();
  await page.getByLabel('Peso de la línea 1').fill('3');
  await page.getByLabel('Bultos línea 1').fill('2');
  await page.getByLabel('Largo cm línea 1').fill('50');
  await page.getByLabel('Ancho cm línea 1').fill('40');
  await page.getByLabel('Alto cm línea 1').fill('30');
  await page.getByRole('combobox', { name: 'Cobrar por línea 1' }).click();
  await page.getByRole('option', { name: 'Volumen' }).click();
  await page.getByLabel('Valor declarado (S/)').fill('800');
  await page.getByLabel('Asegurar envío').check();
  await page.getByText(/^Entrega a domicilio/).click();
  await page.getByLabel('Clave secreta').fill('abc-123');

  const breakdown = page.getByTestId('price-breakdown');
  // 120 000 cm³ / 6000 = 20 kg chargeable against 3 kg real.
  await expect(breakdown).toContainText('Flete 20 kg (volumen)');
  await expect(breakdown).toContainText('Entrega a domicilio');
  await expect(breakdown).toContainText('Seguro (valor declarado S/ 800.00)');
  await expect(breakdown).toContainText(`Descuento ${name} SAC (10 %)`);
  const total = (await page.getByTestId('breakdown-total').textContent())!.trim();
  // The lines table prices the line as the quote does: 20 kg by volume, not the weight-only 3 kg.
  await expect(page.getByTestId('line-price').first().locator('xpath=..')).toContainText('20.00 kg (volumen)');
  await expect(page.getByTestId('shipment-total')).toContainText(total);
  await page.screenshot({ path: 'test-results/tariffs-form-1366.png', fullPage: true });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: 'test-results/tariffs-form-1024.png', fullPage: true });
  await page.setViewportSize({ width: 1366, height: 768 });

  await page.getByRole('button', { name: 'Crear envío' }).click();
  const code = (await page.getByTestId('created-code').textContent())!.trim();
  await page.goto(`/shipments/${code}`);
  const stored = page.getByTestId('stored-breakdown');
  await expect(stored).toContainText('Flete 20 kg (volumen)');
  await expect(stored).toContainText(total);
  await expect(page.getByText('Valor declarado: S/')).toBeVisible();
  await page.screenshot({ path: 'test-results/tariffs-detail-1366.png', fullPage: true });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: 'test-results/tariffs-detail-1024.png', fullPage: true });

  await page.getByRole('button', { name: 'Imprimir etiqueta' }).click();
  const modal = page.getByRole('dialog', { name: `Etiqueta ${code}` });
  await expect(modal).toContainText('2 bultos');
  await expect(modal).toContainText('Valor declarado:');
  await expect(modal).toContainText('La responsabilidad de la empresa');
  await modal.screenshot({ path: 'test-results/tariffs-label.png' });
  await page.keyboard.press('Escape');

  // The boleta: one item per component, the clause printed on the A4 and on the 80 mm ticket.
  const shipment = (await (await request.get(`/api/shipments/${code}`, { headers })).json()) as { id: number; quotedPrice: number };
  const paid = await request.post('/api/payments/manual', {
    headers,
    data: {
      shipmentId: shipment.id,
      customerName: `${name} SAC`,
      customerDocNumber: dni,
      amount: shipment.quotedPrice,
      currency: 'PEN',
      methodCode: 'cash',
    },
  });
  expect(paid.status(), await paid.text()).toBe(201);
  const { payment } = (await paid.json()) as { payment: { documentId: number } };
  const receipt = (await (await request.get(`/api/billing/lookup/${payment.documentId}`, { headers })).json()) as {
    lines: { description: string }[];
    totals: { total: number };
  };
  expect(receipt.lines.map((l) => l.description.replace(/^Servicio de envío \S+: /, ''))).toEqual([
    'Flete 20 kg (volumen)',
    'Entrega a domicilio',
    'Seguro (valor declarado S/ 800.00)',
  ]);
  expect(receipt.totals.total).toBe(shipment.quotedPrice);
  for (const format of ['a4', 'ticket']) {
    const pdf = await request.get(`/api/billing/documents/${payment.documentId}/pdf?format=${format}`, { headers });
    expect(pdf.status()).toBe(200);
    const file = `test-results/tariffs-boleta-${format}.pdf`;
    fs.mkdirSync('test-results', { recursive: true });
    fs.writeFileSync(file, await pdf.body());
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain('La responsabilidad de la empresa');
    expect(text).toContain('Entrega a domicilio');
    execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', file, file.replace(/\.pdf$/, '')]);
  }

  // Lost: the incident shows what the clause pays, 90 % of the insured S/ 800.00.
  await page.reload();
  await page.getByRole('button', { name: 'Registrar incidencia' }).click();
  await page.getByRole('combobox', { name: 'Motivo' }).click();
  await page.getByRole('option', { name: 'Extraviado' }).click();
  await page.getByRole('button', { name: 'Registrar', exact: true }).click();
  await expect(page.getByLabel('Incidencias')).toContainText('Indemnización según la cláusula: 90 % del valor declarado S/ 800.00 = S/ 720.00');
});

/** The 'Tarifas' screen beside Factor Peso: an article priced on a route, a route's minimum cloned onto its reverse. */
test('Tarifas: an article with its price per route, a minimum charge and Clonar tarifa', async ({ page, request }) => {
  test.setTimeout(120_000);
  const token = await apiToken(request, 'ADMIN');
  const customerName = unique('Ferreteria');
  const dni = String(40_000_000 + Math.floor(Math.random() * 9_000_000));
  const customer = await request.post('/api/customers', {
    headers: { Authorization: `Bearer ${token}` },
    data: { firstName: customerName, lastName: 'Norte', doc_type: 1, doc_number: dni },
  });
  expect(customer.status()).toBe(201);
  await loginAndWait(page, 'ADMIN');
  await page.goto('/factor-peso');
  await page.getByRole('tab', { name: 'Tarifas' }).click();
  await expect(page).toHaveURL(/\/factor-peso\/tarifas/);
  await expect(page.getByRole('heading', { name: 'Tarifas', level: 1 })).toBeVisible();

  const article = unique('Caja chica ');
  await page.getByLabel('Nombre').fill(article);
  await page.getByLabel('Unidad').fill('caja');
  await page.getByLabel('Código SUNAT').fill('BX');
  await page.getByRole('button', { name: 'Crear artículo' }).click();
  await expect(page.getByRole('heading', { name: `Precios de ${article} por ruta` })).toBeVisible();
  await page.getByRole('combobox', { name: 'Origen', exact: true }).click();
  await page.getByRole('option', { name: 'Piura' }).click();
  await page.getByRole('combobox', { name: 'Destino', exact: true }).click();
  await page.getByRole('option', { name: 'Cusco' }).click();
  await page.getByLabel('Precio (S/)').fill('15');
  await page.getByRole('button', { name: 'Fijar precio' }).click();
  await expect(page.getByRole('row', { name: /Piura → Cusco/ })).toContainText('S/ 15.00');
  await page.screenshot({ path: 'test-results/tarifas-articulos.png', fullPage: true });

  await page.getByRole('tab', { name: 'Cargo mínimo y divisor' }).click();
  await page.getByRole('combobox', { name: 'Origen', exact: true }).click();
  await page.getByRole('option', { name: 'Piura' }).click();
  await page.getByRole('combobox', { name: 'Destino', exact: true }).click();
  await page.getByRole('option', { name: 'Cusco' }).click();
  await page.getByLabel('Cargo mínimo (S/)').fill('20');
  await page.getByRole('button', { name: 'Guardar ruta' }).click();
  await expect(page.getByRole('row', { name: /Piura → Cusco/ })).toContainText('S/ 20.00');
  await page.getByRole('combobox', { name: 'Desde origen' }).click();
  await page.getByRole('option', { name: 'Piura' }).click();
  await page.getByRole('combobox', { name: 'Desde destino' }).click();
  await page.getByRole('option', { name: 'Cusco' }).click();
  await page.getByRole('checkbox', { name: 'Cusco → Piura' }).check();
  await page.getByRole('button', { name: 'Clonar tarifa' }).click();
  await expect(page.getByRole('row', { name: /Cusco → Piura/ })).toContainText('S/ 20.00');
  await page.screenshot({ path: 'test-results/tarifas-rutas.png', fullPage: true });

  // A customer's own tier on a route, instead of the route's.
  await page.getByRole('tab', { name: 'Tarifas de cliente' }).click();
  await page.getByLabel('Cliente', { exact: true }).fill(dni);
  await page.getByRole('option', { name: new RegExp(customerName) }).click();
  await expect(page.getByText(/descuento actual 0 %/)).toBeVisible();
  await page.getByRole('button', { name: 'Agregar tramo' }).click();
  await page.getByLabel('Desde (kg) tramo propio 1').fill('1');
  await page.getByLabel('Hasta (kg) tramo propio 1').fill('1000');
  await page.getByLabel('Factor por kg tramo propio 1').fill('1.25');
  await page.getByRole('button', { name: 'Guardar precios propios' }).click();
  await expect(page.getByRole('row', { name: /Piura|Lima|Arequipa|Chiclayo|Cusco|Trujillo/ }).first()).toContainText('Liviano');
  await page.screenshot({ path: 'test-results/tarifas-clientes.png', fullPage: true });

  await page.getByRole('tab', { name: 'Recargos' }).click();
  await expect(page.getByRole('row', { name: /entrega_domicilio/ })).toContainText('S/ 10.00');
  await page.getByRole('tab', { name: 'Valor declarado' }).click();
  await expect(page.getByLabel('Cláusula de responsabilidad')).toHaveValue(/La responsabilidad de la empresa/);
});
