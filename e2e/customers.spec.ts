import { expect, test, type Page } from '@playwright/test';
import { loginAndWait } from './support.ts';

/*
 * The local lookup provider answers, in demo mode, from a small fictional directory of people and
 * companies that are not customers yet (apps/api/src/providers/lookup/demo-directory.ts):
 * DNI 41526374 is Milagros Elena Paredes Cárdenas, RUC 20607778885 is ACTIVO but NO HABIDO.
 */
async function openNewCustomer(page: Page) {
  await page.getByRole('button', { name: 'Nuevo cliente' }).click();
  return page.getByRole('dialog', { name: 'Nuevo cliente' });
}

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Buscar' }).fill(text);
}

test('admin creates a DNI customer filled by the lookup, meets the duplicate, edits and deletes it', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await page.getByRole('link', { name: 'Clientes' }).click();
  await expect(page.getByRole('heading', { name: 'Clientes' })).toBeVisible();
  // The demo seed: at least 30 customers, so the pager shows 10 of them first.
  await expect(page.getByText(/^1–10 de \d{1,3}(,\d{3})*$/)).toBeVisible();

  let drawer = await openNewCustomer(page);
  // The form opens on its first field, ready to type (issue 16, item 11).
  await expect(drawer.getByRole('combobox', { name: 'Tipo de documento' })).toBeFocused();
  await drawer.getByLabel('Número de documento').fill('41526374');
  await expect(drawer.getByLabel('Nombres')).toHaveValue('Milagros Elena');
  await expect(drawer.getByLabel('Apellidos')).toHaveValue('Paredes Cárdenas');
  await drawer.getByLabel('Teléfono').fill('987111222');
  await drawer.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(page.getByText('Cliente creado.')).toBeVisible();
  await expect(drawer).toBeHidden();
  await search(page, '41526374');
  await expect(page.getByRole('row', { name: /Milagros Elena Paredes Cárdenas/ })).toBeVisible();

  drawer = await openNewCustomer(page);
  await drawer.getByLabel('Número de documento').fill('41526374');
  await expect(drawer.getByText('Este documento ya pertenece a un cliente registrado.')).toBeVisible();
  await drawer.getByLabel('Nombres').fill('Otra Persona');
  await drawer.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(drawer.getByText('Ya existe un cliente con este documento.')).toBeVisible();
  await expect(drawer.getByLabel('Número de documento')).toHaveAttribute('aria-invalid', 'true');
  await drawer.getByRole('button', { name: 'Cancelar' }).click();

  const row = page.getByRole('row', { name: /Milagros Elena Paredes Cárdenas/ });
  await row.getByRole('button', { name: 'Editar' }).click();
  drawer = page.getByRole('dialog', { name: 'Editar cliente' });
  await expect(drawer.getByLabel('Nombres')).toHaveValue('Milagros Elena');
  await drawer.getByLabel('Teléfono').fill('944555666');
  await drawer.getByLabel('Correo').fill('milagros.paredes@gmail.com');
  await drawer.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Cliente actualizado.')).toBeVisible();
  await expect(row.getByRole('cell', { name: '944555666' })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'milagros.paredes@gmail.com' })).toBeVisible();

  await row.getByRole('button', { name: 'Eliminar' }).click();
  const confirm = page.getByRole('dialog', { name: 'Eliminar cliente' });
  await expect(confirm.getByText('¿Eliminar al cliente Milagros Elena Paredes Cárdenas?', { exact: false })).toBeVisible();
  await confirm.getByRole('button', { name: 'Eliminar' }).click();
  await expect(page.getByText('Cliente eliminado.')).toBeVisible();
  await expect(row).toBeHidden();
  await expect(page.getByText('Sin registros')).toBeVisible();
});

test('agent sees the spec messages and a warning for a RUC not HABIDO, which can still be saved', async ({ page }) => {
  await loginAndWait(page, 'AGENTE1');
  await page.goto('/customers');
  const drawer = await openNewCustomer(page);
  await drawer.getByLabel('Número de documento').fill('1234567');
  await drawer.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(drawer.getByText('Nombres es obligatorio')).toBeVisible();
  await expect(drawer.getByText('DNI debe tener 8 dígitos')).toBeVisible();
  // Digits only, and never longer than the type allows.
  await drawer.getByLabel('Número de documento').fill('');
  await drawer.getByLabel('Número de documento').pressSequentially('12ab345678999');
  await expect(drawer.getByLabel('Número de documento')).toHaveValue('12345678');

  await drawer.getByRole('combobox', { name: 'Tipo de documento' }).click();
  await page.getByRole('option', { name: 'RUC' }).click();
  await drawer.getByLabel('Número de documento').fill('20607778884');
  await drawer.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(drawer.getByText('RUC inválido: el dígito verificador no corresponde')).toBeVisible();

  await drawer.getByLabel('Número de documento').fill('20607778885');
  await expect(drawer.getByLabel('Nombres / Razón social')).toHaveValue('Distribuidora El Sol del Norte E.I.R.L.');
  await expect(drawer.getByLabel('Dirección')).toHaveValue('Calle San José 455, Chiclayo');
  await expect(drawer.getByTestId('ruc-warning')).toContainText('NO HABIDO');
  await drawer.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(page.getByText('Cliente creado.')).toBeVisible();
  await search(page, 'sol del norte');
  await expect(page.getByRole('row', { name: /Distribuidora El Sol del Norte/ })).toBeVisible();
});

test('couriers have no customers menu and are sent to 403', async ({ page }) => {
  await loginAndWait(page, 'REPARTIDOR1');
  await expect(page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Clientes' })).toHaveCount(0);
  await page.goto('/customers');
  await expect(page).toHaveURL(/\/forbidden$/);
});
