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
