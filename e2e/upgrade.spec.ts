import { expect, test } from '@playwright/test';
import { loginAndWait } from './support.ts';

// A tab left open across an upgrade asks for a chunk of the old build; the server answers 404
// (the API suite checks that). Here the browser meets that 404 for the Usuarios page's chunk.
const USERS_CHUNK = /\/assets\/UsersPage-[^/]+\.js$/;

test('a page chunk gone after an upgrade reloads the tab once and then opens', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  let refused = 0;
  await page.route(USERS_CHUNK, (route) => {
    // Only the first request: the reloaded tab gets the chunk, as it would from the new build.
    if (refused++ === 0) return route.fulfill({ status: 404, contentType: 'application/json', body: '{}' });
    return route.continue();
  });
  let loads = 0;
  page.on('load', () => loads++);

  await page.getByRole('link', { name: 'Usuarios' }).click();
  await expect(page.getByRole('heading', { name: 'Usuarios' })).toBeVisible();
  await expect(page).toHaveURL(/\/users$/);
  expect(refused).toBe(2);
  expect(loads).toBe(1);
});

test('a chunk that still fails after that one reload shows an error instead of reloading again', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await page.route(USERS_CHUNK, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{}' }));
  let loads = 0;
  page.on('load', () => loads++);

  await page.getByRole('link', { name: 'Usuarios' }).click();
  await expect(page.getByRole('heading', { name: 'No se pudo cargar la página.' })).toBeVisible();
  // The shell stays: the menu still leads elsewhere.
  await expect(page.getByRole('link', { name: 'Sucursales' })).toBeVisible();
  expect(loads).toBe(1);

  await page.unroute(USERS_CHUNK);
  await page.getByRole('button', { name: 'Recargar' }).click();
  await expect(page.getByRole('heading', { name: 'Usuarios' })).toBeVisible();
});
