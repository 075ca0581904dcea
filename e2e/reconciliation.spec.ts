import { expect, test } from '@playwright/test';
import { LEDGER_CHECK_TEXTS, LEDGER_CHECKS, type Reconciliation } from '@tramo/domain';
import { apiToken, loginAndWait, logout } from './support.ts';

test('an admin opens Conciliación from the menu: every check with OK or its records, checked again on demand; agents have no entry', async ({
  page,
  request,
}) => {
  const headers = { authorization: `Bearer ${await apiToken(request, 'ADMIN')}` };
  const expected = (await (await request.get('/api/reconciliation', { headers })).json()) as Reconciliation;

  await loginAndWait(page, 'ADMIN');
  await page.getByRole('link', { name: 'Conciliación' }).click();
  await expect(page).toHaveURL(/\/conciliacion$/);
  await expect(page.getByRole('heading', { name: 'Conciliación', level: 1 })).toBeVisible();
  for (const check of LEDGER_CHECKS) {
    const card = page
      .getByRole('heading', { name: LEDGER_CHECK_TEXTS[check].name, level: 2 })
      .locator('xpath=ancestor::div[contains(@class, "mantine-Paper-root")][1]');
    const count = expected.checks.find((c) => c.check === check)!.count;
    if (count === 0) await expect(card.getByText('OK', { exact: true })).toBeVisible();
    else {
      await expect(card.getByText(new RegExp(`^${count} violaci(ón|ones)$`))).toBeVisible();
      await expect(card.getByRole('row')).toHaveCount(Math.min(count, 100) + 1);
    }
  }
  await expect(
    page.getByText(expected.ok ? `Todo cuadra: ${expected.checks.length} comprobaciones sin violaciones.` : /violaci(ón|ones) en \d+ comprobaci/),
  ).toBeVisible();
  await page.screenshot({ path: 'reports/conciliacion.png' });

  const again = page.waitForResponse((res) => res.url().endsWith('/api/reconciliation') && res.status() === 200);
  await page.getByRole('button', { name: 'Volver a revisar' }).click();
  await again;
  await logout(page);

  await loginAndWait(page, 'AGENTE1');
  await expect(page.getByRole('link', { name: 'Conciliación' })).toHaveCount(0);
  await page.goto('/conciliacion');
  await expect(page).toHaveURL(/\/forbidden$/);
});
