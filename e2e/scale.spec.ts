import { expect, test } from '@playwright/test';
import { loginAndWait } from './support.ts';

// Issue 19: searches of fewer than 3 characters are not sent; the box says why.
test('the shipments search box asks for 3 characters before searching', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await page.goto('/shipments');
  const box = page.getByRole('searchbox', { name: 'Buscar envíos' });
  const searches: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/shipments?') && r.url().includes('q=')) searches.push(r.url());
  });
  await box.fill('qu');
  await box.press('Enter');
  await expect(page.getByText('Ingresa al menos 3 caracteres para buscar.')).toBeVisible();
  await expect(page).not.toHaveURL(/q=/);
  await page.screenshot({ path: 'screenshots/scale-search-short.png' });
  expect(searches).toEqual([]);

  await box.fill('quis');
  await expect(page.getByText('Ingresa al menos 3 caracteres para buscar.')).toBeHidden();
  await box.press('Enter');
  await expect(page).toHaveURL(/q=quis/);
  await expect(page.getByRole('cell', { name: /Quispe/ }).first()).toBeVisible();
  await page.screenshot({ path: 'screenshots/scale-search-prefix.png' });
});

test('tracking asks for 3 characters too', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await page.goto('/tracking');
  const box = page.getByRole('searchbox').last();
  await box.fill('ro');
  await box.press('Enter');
  await expect(page.getByText('Ingresa al menos 3 caracteres para buscar.')).toBeVisible();
  await page.screenshot({ path: 'screenshots/scale-tracking-short.png' });
});

// Issue 19: past the numbered pages the list goes on by cursor ('Siguiente' / 'Anterior').
test('the shipments list pages by cursor with Siguiente and Anterior', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  const firstPage = page.waitForResponse((r) => r.url().includes('/api/shipments?') && r.url().includes('pageSize=5'));
  await page.goto('/shipments?pageSize=5');
  const { next, items } = (await (await firstPage).json()) as { next: string; items: { code: string }[] };
  expect(next).toBeTruthy();

  // As the list is once past its numbered pages: the cursor in the address, page numbers gone.
  await page.goto(`/shipments?pageSize=5&page=2&after=${next}`);
  await expect(page.getByText('Página 2', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Primera página' })).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(6);
  await expect(page.getByRole('cell', { name: items[0]!.code, exact: true })).toBeHidden();
  await page.screenshot({ path: 'screenshots/scale-list-cursor.png' });

  await page.getByRole('button', { name: 'Siguiente ›' }).click();
  await expect(page).toHaveURL(/page=3/);
  await expect(page.getByText('Página 3', { exact: true })).toBeVisible();
  await expect(page.getByText(/^11–15 de /)).toBeVisible();
  // Back inside the numbered pages, by number again.
  await page.getByRole('button', { name: '‹ Anterior' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page).not.toHaveURL(/after=/);
  await page.getByRole('button', { name: 'Primera página' }).click();
  await expect(page.getByRole('cell', { name: items[0]!.code, exact: true })).toBeVisible();
});
