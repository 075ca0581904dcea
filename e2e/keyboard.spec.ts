import { expect, test, type Locator, type Page } from '@playwright/test';
import fs from 'node:fs';
import { createShipment, loginAndWait } from './support.ts';

const SHOTS = 'screenshots/keyboard';

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

/** window.print is counted, not run: the label's 'Imprimir' is judged by what follows it. */
async function countPrints(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { prints: number };
    w.prints = 0;
    window.print = () => {
      w.prints += 1;
    };
  });
  return () => page.evaluate(() => (window as unknown as { prints: number }).prints);
}

const focused = (locator: Locator) => expect(locator).toBeFocused();

test('register, print the label and collect with the keyboard only, the payer prefilled (issue 38)', async ({ page }) => {
  // The whole counter flow in one test, one key at a time: more than the default minute on a busy machine.
  test.slow();
  const prints = await countPrints(page);
  await loginAndWait(page, 'AGENTE1');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Panel' })).toBeVisible();
  // From here on, no click: Alt+N opens the form from anywhere in the staff app.
  await page.keyboard.press('Alt+n');
  await expect(page.getByRole('heading', { name: 'Nuevo envío' })).toBeVisible();
  await expect(page).toHaveURL(/\/shipments\/new$/);

  await typeInto(page, page.getByLabel('Nombre del remitente'), 'Bodega Sin Ratón EIRL');
  await typeInto(page, page.getByLabel('DNI/RUC del destinatario'), '41827364');
  await typeInto(page, page.getByLabel('Nombres'), 'Teodora');
  await typeInto(page, page.getByLabel('Apellidos'), 'Quispe Teclado');
  const destination = page.getByRole('combobox', { name: 'Destino' });
  await tabTo(page, destination);
  await page.keyboard.type('Cusco');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(destination).toHaveValue('Cusco');
  await typeInto(page, page.getByLabel('Peso de la línea 1'), '3');
  await tabTo(page, page.getByRole('button', { name: 'Agregar línea' }));
  await page.keyboard.press('Enter');
  await focused(page.getByLabel('Peso de la línea 2'));
  await page.keyboard.type('1.5');
  // The recipient pays, at the origin counter: the arrows move the 'Quién paga' choice.
  await tabTo(page, page.getByRole('radio', { name: 'Remitente' }));
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Destinatario' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'En origen' })).toBeChecked();
  await typeInto(page, page.getByLabel('Clave secreta'), 'raton-0');
  await expect(page.getByTestId('line-price')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Crear envío' })).toBeEnabled();
  // Enter in the last field submits the form.
  await page.keyboard.press('Enter');
  const code = (await page.getByTestId('created-code').textContent()) ?? '';
  expect(code).toMatch(/^TMT-\d{6}$/);

  // The label: its button has the focus; 'Imprimir' prints and closes, and the focus is on 'Cobrar'.
  const label = page.getByRole('button', { name: 'Imprimir etiqueta' });
  const collect = page.getByRole('button', { name: 'Cobrar' });
  await focused(label);
  await expect(label).toHaveAttribute('aria-keyshortcuts', 'Alt+E');
  await expect(collect).toHaveAttribute('aria-keyshortcuts', 'Alt+P');
  await page.keyboard.press('Enter');
  const labelModal = page.getByRole('dialog', { name: `Etiqueta ${code}` });
  await expect(labelModal).toBeVisible();
  await tabTo(page, labelModal.getByRole('button', { name: 'Imprimir', exact: true }));
  await page.keyboard.press('Enter');
  await expect(labelModal).toBeHidden();
  expect(await prints()).toBe(1);
  await focused(collect);
  // Alt+E opens it again; Escape closes it and the focus goes back to 'Cobrar' as well.
  await page.keyboard.press('Alt+e');
  await expect(labelModal).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(labelModal).toBeHidden();
  await focused(collect);

  // Alt+P: the payment modal, prefilled with the recipient who pays.
  await page.keyboard.press('Alt+p');
  const modal = page.getByRole('dialog', { name: 'Registrar pago del envío' });
  await expect(modal).toContainText(code);
  await expect(modal.getByLabel('Documento del cliente (DNI o RUC)')).toHaveValue('41827364');
  await expect(modal.getByLabel('Nombre del cliente')).toHaveValue('Teodora Quispe Teclado');
  await expect(modal.getByText('Se emitirá una boleta')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/payment-prefilled-1366.png` });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: `${SHOTS}/payment-prefilled-1024.png` });
  await page.setViewportSize({ width: 1366, height: 768 });
  await tabTo(page, modal.getByRole('button', { name: 'Registrar pago' }));
  await page.keyboard.press('Enter');

  // Paid: the ticket opens, the card shows the receipt, and closing the ticket leaves the focus on the next shipment.
  const viewer = page.getByRole('dialog', { name: /^[BF]\w{3}-\d{8} · ticket$/ });
  await expect(viewer).toBeVisible();
  const paid = page.getByTestId('collect-paid');
  await expect(paid).toContainText(/Pagado · B\w{3}-\d{8}/);
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  const another = page.getByRole('button', { name: 'Registrar otro' });
  await focused(another);
  await expect(collect).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/created-paid-1366.png` });

  // Alt+N on the card: a clean form, the focus on its first field.
  await page.keyboard.press('Alt+n');
  await expect(page.getByLabel('Nombre del remitente')).toHaveValue('');
  await focused(page.getByLabel('Buscar remitente'));
});

test('the same with the mouse: pointer actions and keystrokes counted (issue 38)', async ({ page }) => {
  test.slow();
  await countPrints(page);
  let pointer = 0;
  let keys = 0;
  const click = async (target: Locator) => {
    pointer += 1;
    await target.click();
  };
  const type = async (target: Locator, text: string) => {
    await click(target);
    keys += text.length;
    await page.keyboard.type(text);
  };

  await loginAndWait(page, 'AGENTE1');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Panel' })).toBeVisible();
  // The path: sender, DNI, names, destination, 2 lines, secret; then the label and the payment.
  await click(page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Nuevo envío' }));
  await type(page.getByLabel('Nombre del remitente'), 'Bodega Con Ratón EIRL');
  await type(page.getByLabel('DNI/RUC del destinatario'), '42736455');
  await type(page.getByLabel('Nombres'), 'Rosa');
  await type(page.getByLabel('Apellidos'), 'Mamani Clic');
  await click(page.getByRole('combobox', { name: 'Destino' }));
  await click(page.getByRole('option', { name: 'Cusco' }));
  await type(page.getByLabel('Peso de la línea 1'), '3');
  // 'Agregar línea' puts the cursor in the new line's weight.
  await click(page.getByRole('button', { name: 'Agregar línea' }));
  keys += 1;
  await page.keyboard.type('2');
  await click(page.getByTestId('who-pays').getByText('Destinatario', { exact: true }));
  await type(page.getByLabel('Clave secreta'), 'clic-77');
  await expect(page.getByTestId('line-price')).toHaveCount(2);
  await click(page.getByRole('button', { name: 'Crear envío' }));
  const code = (await page.getByTestId('created-code').textContent()) ?? '';
  expect(code).toMatch(/^TMT-\d{6}$/);
  await expect(page.getByRole('button', { name: 'Cobrar' })).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}/created-1366.png` });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: `${SHOTS}/created-1024.png` });
  await page.setViewportSize({ width: 1366, height: 768 });

  await click(page.getByRole('button', { name: 'Imprimir etiqueta' }));
  await click(page.getByRole('dialog', { name: `Etiqueta ${code}` }).getByRole('button', { name: 'Imprimir', exact: true }));
  await click(page.getByRole('button', { name: 'Cobrar' }));
  const modal = page.getByRole('dialog', { name: 'Registrar pago del envío' });
  await expect(modal.getByLabel('Documento del cliente (DNI o RUC)')).toHaveValue('42736455');
  await click(modal.getByRole('button', { name: 'Registrar pago' }));
  await expect(page.getByTestId('collect-paid')).toContainText(/Pagado · B\w{3}-\d{8}/);

  // Printed for the closing note: before (issue 38) 21 pointer actions and 102 keystrokes.
  console.log(`mouse path, register + label + collect: ${pointer} pointer actions, ${keys} keystrokes`);
  fs.mkdirSync('reports', { recursive: true });
  fs.writeFileSync('reports/counter-pointer-actions.txt', `${pointer} pointer actions, ${keys} keystrokes\n`);
});

test("the shipment's page: 'Cobrar' (Alt+P) while it is collectable here, the label (Alt+E), both named in tooltips", async ({ page, request }) => {
  // Paid at origin by the recipient: the modal is prefilled with the recipient's document and name.
  const { id, code } = await createShipment(request, {
    destination: 'Cusco',
    fields: { recipientDoc: '43561278', recipientFirstName: 'Elena', recipientLastName: 'Atajo Paz', payer: 'destinatario', paymentMoment: 'origen' },
  });
  await loginAndWait(page, 'AGENTE1');
  await page.goto(`/shipments/${id}`);
  await expect(page.getByRole('heading', { name: code })).toBeVisible();
  const collect = page.getByRole('button', { name: 'Cobrar' });
  await expect(collect).toBeEnabled();
  await collect.hover();
  await expect(page.getByRole('tooltip', { name: 'Cobrar (Alt+P)' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/detail-1366.png` });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.getByRole('button', { name: 'Imprimir etiqueta' }).hover();
  await expect(page.getByRole('tooltip', { name: 'Imprimir etiqueta (Alt+E)' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/detail-1024.png` });

  await page.keyboard.press('Alt+e');
  await expect(page.getByRole('dialog', { name: `Etiqueta ${code}` })).toBeVisible();
  // Behind an open modal the page's shortcuts are off.
  await page.keyboard.press('Alt+p');
  await expect(page.getByRole('dialog', { name: 'Registrar pago del envío' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  // Gone, not only closing (its title empties at once): while a dialog is there, it owns the keys.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.keyboard.press('Alt+p');
  const modal = page.getByRole('dialog', { name: 'Registrar pago del envío' });
  await expect(modal.getByLabel('Documento del cliente (DNI o RUC)')).toHaveValue('43561278');
  await expect(modal.getByLabel('Nombre del cliente')).toHaveValue('Elena Atajo Paz');
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  // The menu names Alt+N too, and Alt+N from this page opens the form.
  await page.keyboard.press('Alt+n');
  await expect(page).toHaveURL(/\/shipments\/new$/);
});
