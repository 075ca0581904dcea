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
});
