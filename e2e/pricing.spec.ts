import { expect, test } from '@playwright/test';
import { loginAndWait } from './support.ts';

test('an agent loads a saved table, adds a tier, sees and fixes an overlap, saves, and the preview follows', async ({ page }) => {
  // A long walk through the screen; the shared test machine can be slow.
  test.setTimeout(120_000);
  await loginAndWait(page, 'AGENTE1');
  await page.getByRole('link', { name: 'Factor Peso' }).click();
  await expect(page).toHaveURL(/\/factor-peso$/);

  const summary = page.getByRole('table', { name: 'Resumen de tablas guardadas' });
  const tiers = page.getByRole('table', { name: 'Tramos de peso' });
  const preview = page.getByRole('table', { name: 'Vista previa de precios' });
  const save = page.getByRole('button', { name: 'Guardar', exact: true });
  const previewRow = (kg: number) => preview.getByRole('row').filter({ has: page.getByRole('cell', { name: String(kg), exact: true }) });

  // Seeded Lima → Trujillo liviano: 1–5 × 2.34, 6–20 × 1.97, 21–1000 × 1.68.
  await summary.getByRole('button', { name: 'Cargar Lima → Trujillo LIVIANO' }).click();
  await expect(page.getByTestId('current-route')).toHaveText('Ruta actual: Lima → Trujillo · LIVIANO');
  await expect(tiers.getByRole('row')).toHaveCount(4);
  await expect(page.getByLabel('Factor por kg tramo 3')).toHaveValue('1.68');
  await expect(previewRow(1)).toContainText('S/ 2.34');
  await expect(previewRow(10)).toContainText('S/ 19.70');
  await expect(page.getByTestId('preview-count')).toHaveText('10 pesos de 1 a 10 kg');

  // Look past the last tier: 1001 kg is outside every range for now.
  await page.getByLabel('Peso inicial (kg)').fill('1000');
  await page.getByLabel('Peso final (kg)').fill('1003');
  await page.getByLabel('Peso final (kg)').blur();
  await expect(previewRow(1000)).toContainText('S/ 1,680.00');
  await expect(previewRow(1001)).toContainText('Fuera de rango');

  // Add a tier: it starts after the last one and spans 10 kg with factor 1.
  await page.getByRole('button', { name: '+ Agregar tramo' }).click();
  await expect(page.getByLabel('Desde (kg) tramo 4')).toHaveValue('1001');
  await expect(page.getByLabel('Hasta (kg) tramo 4')).toHaveValue('1011');
  await expect(page.getByLabel('Factor por kg tramo 4')).toHaveValue('1');
  await expect(previewRow(1001)).toContainText('S/ 1,001.00');

  // A reversed range is swapped when the user leaves the box.
  await page.getByLabel('Desde (kg) tramo 4').fill('1015');
  await page.getByLabel('Desde (kg) tramo 4').blur();
  await expect(page.getByLabel('Desde (kg) tramo 4')).toHaveValue('1011');
  await expect(page.getByLabel('Hasta (kg) tramo 4')).toHaveValue('1015');

  // Touching the previous tier's end overlaps: warning, and Guardar is disabled.
  await page.getByLabel('Desde (kg) tramo 4').fill('1000');
  await page.getByLabel('Desde (kg) tramo 4').blur();
  await expect(page.getByRole('alert').filter({ hasText: 'Hay tramos que se solapan...' })).toBeVisible();
  await expect(save).toBeDisabled();

  // An invalid factor says so too.
  await page.getByLabel('Desde (kg) tramo 4').fill('1001');
  await page.getByLabel('Factor por kg tramo 4').fill('0');
  await expect(page.getByRole('alert').filter({ hasText: 'Hay valores inválidos (desde ≥ 1, hasta ≥ desde, factor > 0).' })).toBeVisible();
  await expect(save).toBeDisabled();

  // Fixed: no warning, the preview prices 1001 kg with the new factor, and it saves.
  await page.getByLabel('Factor por kg tramo 4').fill('1.5');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(save).toBeEnabled();
  await expect(previewRow(1001)).toContainText('1.50');
  await expect(previewRow(1001)).toContainText('S/ 1,501.50');
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: 'Guardado correctamente.' }).first()).toBeVisible();

  const savedRow = summary.getByRole('row').filter({ hasText: 'Lima → Trujillo' }).filter({ hasText: 'LIVIANO' });
  await expect(savedRow).toContainText('1 – 1,015');
  await expect(savedRow.getByRole('cell').nth(3)).toHaveText('4');

  // After a reload the saved list comes back from the server.
  await page.reload();
  await summary.getByRole('button', { name: 'Cargar Lima → Trujillo LIVIANO' }).click();
  await expect(page.getByLabel('Desde (kg) tramo 4')).toHaveValue('1001');
  await expect(page.getByLabel('Hasta (kg) tramo 4')).toHaveValue('1015');
  await expect(page.getByLabel('Factor por kg tramo 4')).toHaveValue('1.5');
});

test('a route without a table starts from the default tiers and Guardar creates it', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await page.goto('/factor-peso');
  // The demo seed has Arequipa → Chiclayo only: the other direction has no table of its own.
  await page.getByRole('combobox', { name: 'Origen' }).click();
  await page.getByRole('option', { name: 'Chiclayo' }).click();
  await page.getByRole('combobox', { name: 'Destino' }).click();
  await page.getByRole('option', { name: 'Arequipa' }).click();
  await page.getByText('Medio', { exact: true }).click();
  await expect(page.getByTestId('current-route')).toHaveText('Ruta actual: Chiclayo → Arequipa · MEDIO');
  await expect(page.getByText('Sin tabla guardada')).toBeVisible();
  await expect(page.getByLabel('Desde (kg) tramo 1')).toHaveValue('1');
  await expect(page.getByLabel('Hasta (kg) tramo 1')).toHaveValue('10');
  await expect(page.getByLabel('Factor por kg tramo 1')).toHaveValue('1.4');
  await expect(page.getByLabel('Hasta (kg) tramo 2')).toHaveValue('1000');
  await page.getByRole('button', { name: 'Guardar', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Guardado correctamente.' }).first()).toBeVisible();
  await expect(page.getByText('Tabla guardada', { exact: true })).toBeVisible();
  const row = page
    .getByRole('table', { name: 'Resumen de tablas guardadas' })
    .getByRole('row')
    .filter({ hasText: 'Chiclayo → Arequipa' })
    .filter({ hasText: 'MEDIO' });
  await expect(row).toContainText('S/ 1.40');
  await expect(row).toContainText('S/ 14.00');
});

test('couriers have no Factor Peso', async ({ page }) => {
  await loginAndWait(page, 'REPARTIDOR1');
  await expect(page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Factor Peso' })).toHaveCount(0);
  await page.goto('/factor-peso');
  await expect(page).toHaveURL(/\/forbidden$/);
});
