import { expect, test, type Locator, type Page } from '@playwright/test';
import { createShipment, loginAndWait } from './support.ts';

/*
 * Keyboard-only runs of the counter flows (issue 16): after the page opens, no click — only Tab,
 * typing, arrows and Enter, as a counter agent with a barcode scanner and no mouse works. `tabTo`
 * fails when Tab never reaches a field, so a control that the keyboard cannot reach breaks the test.
 */

async function tabTo(page: Page, target: Locator, max = 60) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

async function typeInto(page: Page, target: Locator, text: string) {
  await tabTo(page, target);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

test('a new shipment registered with the keyboard only', async ({ page }) => {
  await loginAndWait(page, 'AGENTE1');
  await page.goto('/shipments/new');
  await expect(page.getByRole('heading', { name: 'Nuevo envío' })).toBeVisible();

  await typeInto(page, page.getByLabel('Nombre del remitente'), 'Ferretería Teclado SAC');
  await typeInto(page, page.getByLabel('DNI/RUC del destinatario'), '45871236');
  await typeInto(page, page.getByLabel('Nombres'), 'Lucía');
  await typeInto(page, page.getByLabel('Apellidos'), 'Sin Ratón');

  // A Select opens with the arrows and takes the highlighted option with Enter.
  const destination = page.getByRole('combobox', { name: 'Destino' });
  await tabTo(page, destination);
  await page.keyboard.type('Cusco');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(destination).toHaveValue('Cusco');

  await typeInto(page, page.getByLabel('Peso de la línea 1'), '2.5');
  // 'Agregar línea' by Enter moves the focus to the new line's weight (issue 16, item 8).
  await tabTo(page, page.getByRole('button', { name: 'Agregar línea' }));
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Peso de la línea 2')).toBeFocused();
  await page.keyboard.type('4');

  await typeInto(page, page.getByLabel('Clave secreta'), 'tecla-9');
  await expect(page.getByTestId('line-price')).toHaveCount(2);
  const create = page.getByRole('button', { name: 'Crear envío' });
  await expect(create).toBeEnabled();
  await tabTo(page, create);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('created-code')).toHaveText(/^TMT-\d{6}$/);
});

test('a delivery confirmed with the keyboard only: the code as a scanner types it, then the form', async ({ page, request }) => {
  // A package for Arequipa, REPARTIDOR1's branch, made for this test (delivery is allowed from Creado).
  const { code } = await createShipment(request, {
    fields: {
      recipientDoc: '41234567',
      recipientFirstName: 'Mario',
      recipientLastName: 'Sin Ratón',
      secretCode: 'tecla-5',
      lines: [{ productType: 'liviano', weightKg: 1 }],
    },
  });

  await loginAndWait(page, 'REPARTIDOR1');
  await page.goto('/deliveries');
  await expect(page.getByRole('heading', { name: 'Entregas' })).toBeVisible();
  await typeInto(page, page.getByRole('textbox', { name: 'Código de envío' }), code);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: `Envío ${code}` })).toBeVisible();

  const form = page.getByRole('form', { name: 'Confirmar entrega' });
  await expect(form.getByLabel('Nombre de quien recibe')).toHaveValue('Mario Sin Ratón');
  await typeInto(page, form.getByLabel('Clave secreta'), 'tecla-5');
  await tabTo(page, form.getByRole('button', { name: 'Confirmar entrega' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Entrega confirmada.')).toBeVisible();
  await expect(page.getByLabel('Entrega registrada')).toContainText('Envío entregado');
});
