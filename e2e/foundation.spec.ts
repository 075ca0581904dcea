import { expect, test } from '@playwright/test';
import { login, loginAndWait, logout, unique } from './support.ts';

test('the login page shows the demo hint and refuses wrong credentials in Spanish', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Credenciales de demostración')).toBeVisible();
  await page.getByLabel('Usuario').fill('ab');
  await page.getByLabel('Contraseña', { exact: true }).fill('123');
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page.getByText('Mínimo 3 caracteres')).toBeVisible();
  await expect(page.getByText('Mínimo 6 caracteres')).toBeVisible();
  await login(page, 'ADMIN', 'incorrecta');
  await expect(page.getByRole('alert').filter({ hasText: 'Usuario o contraseña incorrectos.' })).toBeVisible();
});

test('admin creates a user, who must change the password and sees only the agent menu', async ({ page }) => {
  const username = unique('AG');
  await loginAndWait(page, 'ADMIN');
  await expect(page.getByRole('banner').getByText('Agencia: Lima')).toBeVisible();
  await page.getByRole('link', { name: 'Usuarios' }).click();
  await page.getByRole('button', { name: 'Nuevo usuario' }).click();
  const drawer = page.getByRole('dialog', { name: 'Nuevo usuario' });
  await drawer.getByLabel('Usuario').fill('agente1');
  await expect(drawer.getByText('Ya existe un usuario con este código.')).toBeVisible();
  await drawer.getByLabel('Usuario').fill(username.toLowerCase());
  await drawer.getByLabel('Nombres').fill('Carla');
  await drawer.getByLabel('Apellidos').fill('Vega');
  await drawer.getByRole('combobox', { name: 'Rol' }).click();
  await page.getByRole('option', { name: 'Agente' }).click();
  await drawer.getByRole('combobox', { name: 'Sucursal' }).click();
  await page.getByRole('option', { name: 'Trujillo' }).click();
  await drawer.getByRole('button', { name: 'Crear usuario' }).click();
  const temp = (await page.getByTestId('temp-password').textContent())!.trim();
  expect(temp).toHaveLength(10);
  await page.getByRole('button', { name: 'Listo' }).click();
  await expect(page.getByRole('cell', { name: username })).toBeVisible();
  await logout(page);

  await login(page, username, temp);
  await expect(page).toHaveURL(/\/change-password$/);
  await expect(page.getByText('Primer ingreso')).toBeVisible();
  await expect(page.getByText('Define una nueva contraseña para continuar.')).toBeVisible();
  await page.goto('/shipments');
  await expect(page).toHaveURL(/\/change-password$/);
  await page.getByLabel('Nueva contraseña').fill('nueva123');
  await page.getByLabel('Confirmar contraseña').fill('otra123');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page.getByText('Las contraseñas no coinciden')).toBeVisible();
  await page.getByLabel('Confirmar contraseña').fill('nueva123');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').getByText('Agencia: Trujillo')).toBeVisible();

  const menu = page.getByRole('navigation', { name: 'Menú principal' });
  await expect(menu.getByRole('link')).toHaveText([
    'Panel',
    'Envíos',
    'Nuevo envío',
    'Entregas',
    'Rastreo',
    'Pagos',
    'Factor Peso',
    'Facturación',
    'Clientes',
    'Transportistas',
  ]);
  await page.goto('/users');
  await expect(page).toHaveURL(/\/forbidden$/);
  await expect(page.getByRole('heading', { name: '403 — Acceso denegado' })).toBeVisible();
});

test('admin creates, edits and deletes a branch', async ({ page }) => {
  const name = unique('Sede ');
  await loginAndWait(page, 'ADMIN');
  await page.getByRole('link', { name: 'Sucursales' }).click();
  await page.getByRole('button', { name: 'Nueva sucursal' }).click();
  let drawer = page.getByRole('dialog', { name: 'Nueva sucursal' });
  await drawer.getByRole('button', { name: 'Crear sucursal' }).click();
  await expect(drawer.getByText('Nombre es obligatorio')).toBeVisible();
  await drawer.getByLabel('Nombre').fill('Lima');
  await drawer.getByLabel('Ciudad').fill('Lima');
  await drawer.getByRole('button', { name: 'Crear sucursal' }).click();
  await expect(drawer.getByText('Ya existe una sucursal con este nombre/ciudad.')).toBeVisible();
  await drawer.getByLabel('Nombre').fill(name);
  await drawer.getByLabel('Ciudad').fill('Ica');
  await drawer.getByLabel('Dirección').fill('Av. Municipalidad 120');
  await drawer.getByRole('button', { name: 'Crear sucursal' }).click();
  await expect(page.getByText('Sucursal creada.')).toBeVisible();

  await page.getByRole('searchbox', { name: 'Buscar' }).fill(name);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toHaveCount(1);
  // The search has settled (the list is re-rendered with the match alone) before a row is clicked.
  await expect(page.getByText('1–1 de 1')).toBeVisible();
  await row.getByRole('button', { name: 'Editar' }).click();
  drawer = page.getByRole('dialog', { name: 'Editar sucursal' });
  await drawer.getByLabel('Dirección').fill('Jr. Lima 300');
  await drawer.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(row.getByRole('cell', { name: 'Jr. Lima 300' })).toBeVisible();

  await row.getByRole('button', { name: 'Eliminar' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
  await expect(page.getByText('Sucursal eliminada.')).toBeVisible();
  await expect(page.getByText('Sin registros')).toBeVisible();
});

test('a branch in use is refused with the reason and stays', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await page.goto('/branches');
  const row = page.getByRole('row', { name: /Arequipa/ });
  await row.getByRole('button', { name: 'Eliminar' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
  const toast = page.getByRole('alert').filter({ hasText: 'No se puede eliminar la sucursal' });
  await expect(toast).toBeVisible();
  await expect(toast.getByRole('button', { name: 'Cerrar notificación' })).toBeVisible();
  await expect(row).toBeVisible();
});

test('an expired or revoked token lands on /login', async ({ page }) => {
  await loginAndWait(page, 'AGENTE1');
  await page.evaluate(() => {
    const auth = JSON.parse(localStorage.getItem('auth')!);
    localStorage.setItem('auth', JSON.stringify({ ...auth, token: `${auth.token}x` }));
  });
  await page.goto('/shipments');
  await expect(page).toHaveURL(/\/login$/);
  // The 401 logs out in the app and then reloads /login: read the storage once the page has settled.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('auth')).catch(() => 'reloading')).toBeNull();
});

test('a protected page remembers where the user was going; unknown routes say so', async ({ page }) => {
  await page.goto('/branches');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Usuario').fill('admin');
  await page.getByLabel('Contraseña', { exact: true }).fill('admin123');
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/\/branches$/);
  await page.goto('/no-existe');
  await expect(page.getByText('Página no encontrada.')).toBeVisible();
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
});

test('logging out in one tab logs out the others', async ({ page, context }) => {
  await loginAndWait(page, 'AGENTE1');
  const other = await context.newPage();
  await other.goto('/');
  await expect(other.getByRole('button', { name: 'Cerrar sesión' })).toBeVisible();
  await logout(page);
  await expect(other).toHaveURL(/\/login$/);
});
