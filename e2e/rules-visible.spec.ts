import { expect, test, type Page } from '@playwright/test';
import { loginAndWait } from './support.ts';

/** Issue 38, item 1: the spec's messages on the new-shipment form, on the field, on blur and on submit. */
const SEVEN = [
  'Remitente requerido',
  'DNI/RUC inválido',
  'Nombres requeridos',
  'Apellidos requeridos',
  'Mínimo 4 caracteres',
  'Solo letras, números y - _ .',
  'Peso fuera de los rangos configurados.',
] as const;

/** The message Mantine ties to an input through aria-describedby: what a screen reader says with it. */
const describedBy = (page: Page, label: string | RegExp) =>
  page.getByLabel(label).evaluate((input) => {
    const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
  });

test('the new-shipment form says every rule on its field, on blur and on submit (1366 and 1024)', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAndWait(page, 'AGENTE1');
  for (const width of [1366, 1024]) {
    await page.setViewportSize({ width, height: 768 });
    await page.goto('/shipments/new');
    await expect(page.getByTestId('fixed-origin')).toHaveText('Agencia: Lima');
    const create = page.getByRole('button', { name: 'Crear envío' });
    await expect(create).toBeEnabled();

    // Blur, field by field.
    await page.getByLabel('Nombre del remitente').focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => describedBy(page, 'Nombre del remitente')).toContain('Remitente requerido');
    await page.getByLabel('DNI/RUC del destinatario').fill('123');
    await page.getByLabel('DNI/RUC del destinatario').blur();
    await expect.poll(() => describedBy(page, 'DNI/RUC del destinatario')).toContain('DNI/RUC inválido');
    await page.getByLabel('Clave secreta').fill('ab');
    await page.getByLabel('Clave secreta').blur();
    await expect.poll(() => describedBy(page, 'Clave secreta')).toContain('Mínimo 4 caracteres');
    await page.getByRole('combobox', { name: 'Destino' }).click();
    await page.getByRole('option', { name: 'Trujillo' }).click();
    await page.getByLabel('Peso de la línea 1').fill('5000');
    await page.getByLabel('Peso de la línea 1').blur();
    await expect.poll(() => describedBy(page, 'Peso de la línea 1')).toContain('Peso fuera de los rangos configurados.');

    // Submit: the rest appear, nothing is created, the first wrong field takes the focus.
    await create.click();
    await expect(page.getByLabel('Nombre del remitente')).toBeFocused();
    await expect.poll(() => describedBy(page, 'Nombres')).toContain('Nombres requeridos');
    await expect.poll(() => describedBy(page, 'Apellidos')).toContain('Apellidos requeridos');
    await expect(page.getByTestId('missing-hint')).toHaveText(
      'Falta: remitente, DNI/RUC, nombres, apellidos, clave secreta, un peso válido en la línea 1',
    );
    await page.screenshot({ path: `test-results/new-shipment-errors-${width}.png`, fullPage: true });

    await page.getByLabel('Clave secreta').fill('abc$%');
    await expect.poll(() => describedBy(page, 'Clave secreta')).toContain('Solo letras, números y - _ .');
    for (const text of SEVEN.filter((t) => t !== 'Mínimo 4 caracteres')) await expect(page.getByText(text, { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/shipments\/new$/);
  }
});

test('the login page and the customer drawer say their rules on the field when it is left (1366 and 1024)', async ({ page }) => {
  test.setTimeout(120_000);
  for (const width of [1366, 1024]) {
    await page.setViewportSize({ width, height: 768 });
    await page.goto('/login');
    await page.getByLabel('Usuario').fill('ab');
    await page.getByLabel('Usuario').blur();
    await page.getByLabel('Contraseña', { exact: true }).fill('123');
    await page.getByLabel('Contraseña', { exact: true }).blur();
    await expect.poll(() => describedBy(page, 'Usuario')).toContain('Mínimo 3 caracteres');
    await expect.poll(() => describedBy(page, /^Contraseña/)).toContain('Mínimo 6 caracteres');
    await page.screenshot({ path: `test-results/login-errors-${width}.png`, fullPage: true });
  }

  await loginAndWait(page, 'ADMIN');
  for (const width of [1366, 1024]) {
    await page.setViewportSize({ width, height: 768 });
    await page.goto('/customers');
    await page.getByRole('button', { name: 'Nuevo cliente' }).click();
    const drawer = page.getByRole('dialog', { name: 'Nuevo cliente' });
    await drawer.getByLabel('Número de documento').fill('123');
    await drawer.getByLabel('Número de documento').blur();
    await expect(drawer.getByText('DNI debe tener 8 dígitos')).toBeVisible();
    // A refused submit: every message, and the focus on the first wrong field on screen.
    await drawer.getByRole('button', { name: 'Crear cliente' }).click();
    await expect(drawer.getByText('Nombres es obligatorio')).toBeVisible();
    await expect(drawer.getByLabel('Número de documento')).toBeFocused();
    await page.screenshot({ path: `test-results/customer-errors-${width}.png` });
    await page.keyboard.press('Escape');
  }
});
