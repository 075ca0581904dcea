import { expect, test, type Page } from '@playwright/test';
import { loginAndWait, unique } from './support.ts';

async function counters(page: Page) {
  await page.goto('/');
  const read = async (key: string) => Number((await page.getByTestId(`counter-${key}`).textContent())!.replace(/\D/g, ''));
  await expect(page.getByTestId('counter-total')).toBeVisible();
  await expect(page.getByRole('cell', { name: /^TMT-/ }).first()).toBeVisible();
  return { total: await read('total'), created: await read('Creado'), inTransit: await read('En tránsito') };
}

/** Fills the new-shipment form with two lines (liviano 2.5 kg + medio 12 kg) and creates it. */
async function createTwoLineShipment(page: Page, recipient: string): Promise<string> {
  await page.goto('/shipments/new');
  await expect(page.getByTestId('fixed-origin')).toHaveText('Agencia: Lima');
  const create = page.getByRole('button', { name: 'Crear envío' });
  // Issue 38: offered from the start; the line under it says what is still missing.
  await expect(create).toBeEnabled();
  await expect(page.getByTestId('missing-hint')).toHaveText('Falta: remitente, DNI/RUC, nombres, apellidos, destino, peso, clave secreta');
  await page.getByLabel('Nombre del remitente').fill('Comercial Prueba E2E');
  await page.getByLabel('DNI/RUC del destinatario').fill('4587123a6');
  await expect(page.getByLabel('DNI/RUC del destinatario')).toHaveValue('45871236');
  await page.getByLabel('Nombres').fill(recipient);
  await page.getByLabel('Apellidos').fill('Prueba');
  await page.getByRole('combobox', { name: 'Destino' }).click();
  await page.getByRole('option', { name: 'Trujillo' }).click();
  await page.getByLabel('Peso de la línea 1').fill('2.5');
  await page.getByRole('button', { name: 'Agregar línea' }).click();
  await page.getByRole('combobox', { name: 'Categoría de la línea 2' }).click();
  await page.getByRole('option', { name: 'Medio' }).click();
  await page.getByLabel('Peso de la línea 2').fill('12');
  await page.getByLabel('Clave secreta').fill('abc-123');

  // Both lines priced, and the total is their sum (in céntimos, as the form adds them).
  const prices = page.getByTestId('line-price');
  await expect(prices).toHaveCount(2);
  const cents = (text: string) => Number(text.replace(/[^\d]/g, ''));
  const [a, b] = await prices.allTextContents();
  const sum = cents(a!) + cents(b!);
  expect(sum).toBeGreaterThan(0);
  await expect(page.getByTestId('shipment-total')).toHaveText(new RegExp(`S/\\s${Math.floor(sum / 100)}\\.${String(sum % 100).padStart(2, '0')}`));

  await expect(page.getByTestId('missing-hint')).toHaveText('');
  await create.click();
  const code = (await page.getByTestId('created-code').textContent())!.trim();
  expect(code).toMatch(/^TMT-\d{6}$/);
  return code;
}

test('a counter agent registers, finds, labels, manages and cancels shipments; the Panel follows', async ({ page }) => {
  test.setTimeout(180_000);
  await loginAndWait(page, 'AGENTE1');
  const before = await counters(page);

  const recipient = unique('Ana');
  const code = await createTwoLineShipment(page, recipient);

  // The label: a code128 barcode drawn offline, printed alone at the chosen width.
  await page.getByRole('button', { name: 'Imprimir etiqueta' }).click();
  const modal = page.getByRole('dialog', { name: `Etiqueta ${code}` });
  await modal.getByText('80 mm').click();
  const barcode = modal.getByTestId('barcode').locator('svg');
  await expect(barcode).toBeVisible();
  expect((await barcode.innerHTML()).length).toBeGreaterThan(500);
  const box = await barcode.boundingBox();
  expect(box!.width).toBeGreaterThan(50);
  await page.emulateMedia({ media: 'print' });
  await page.screenshot({ path: 'screenshots/label-print.png' });
  const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);
  await page.emulateMedia({ media: 'screen' });
  await modal.getByRole('button', { name: 'Cerrar' }).first().click();

  // Find it in the list with a filter; a reload keeps the filters from the address.
  await page.goto('/shipments');
  await page.getByRole('searchbox', { name: 'Buscar envíos' }).fill(recipient);
  await page.getByRole('searchbox', { name: 'Buscar envíos' }).press('Enter');
  await page.getByRole('combobox', { name: 'Estado' }).click();
  await page.getByRole('option', { name: 'Creado' }).click();
  await expect(page).toHaveURL(/status=Creado/);
  await expect(page.getByRole('cell', { name: code, exact: true })).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.reload();
  await expect(page.getByRole('cell', { name: code, exact: true })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Buscar envíos' })).toHaveValue(recipient);
  await expect(page.getByRole('row')).toHaveCount(2);

  // Detail: add and delete an event, then change the status with a note.
  await page.getByRole('link', { name: `Ver ${code}` }).click();
  await expect(page.getByRole('heading', { name: code })).toBeVisible();
  await page.getByRole('button', { name: 'Agregar evento' }).click();
  await expect(page.getByText('Ingresa una descripción del evento.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Evento' }).fill('Paquete revisado en ventanilla');
  await page.getByRole('button', { name: 'Agregar evento' }).click();
  await expect(page.getByText('Evento agregado.')).toBeVisible();
  await page.getByRole('button', { name: 'Eliminar evento Paquete revisado en ventanilla' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
  await expect(page.getByText('Evento eliminado.')).toBeVisible();
  await expect(page.getByText('Paquete revisado en ventanilla')).toHaveCount(0);

  await page.getByRole('button', { name: 'Actualizar estado' }).click();
  await expect(page.getByText('Selecciona un estado.')).toBeVisible();
  await page.getByRole('combobox', { name: 'Nuevo estado' }).click();
  await page.getByRole('option', { name: 'Creado' }).click();
  await page.getByRole('button', { name: 'Actualizar estado' }).click();
  await expect(page.getByText('El estado es el mismo. Agrega una nota o elige otro estado.')).toBeVisible();
  await page.getByRole('combobox', { name: 'Nuevo estado' }).click();
  await page.getByRole('option', { name: 'En tránsito' }).click();
  await page.getByLabel('Nota').fill('Sale en el bus de las 20:00');
  await page.getByRole('button', { name: 'Actualizar estado' }).click();
  await expect(page.getByText('Estado actualizado.')).toBeVisible();
  await expect(page.getByText('En tránsito — Sale en el bus de las 20:00')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Anular envío' })).toHaveCount(0);

  // A second shipment, cancelled from the list.
  const other = await createTwoLineShipment(page, unique('Beto'));
  await page.goto(`/shipments?q=${other}`);
  await page.getByRole('button', { name: `Anular ${other}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Anular envío' }).click();
  await expect(page.getByText('Envío anulado.')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(other) }).getByText('Anulado')).toBeVisible();

  const after = await counters(page);
  expect(after.total).toBe(before.total + 2);
  expect(after.inTransit).toBe(before.inTransit + 1);
  expect(after.created).toBe(before.created);
});
