import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { MENU, type Role } from '@tramo/domain';
import { loginAndWait } from './support.ts';

/** Every route of the menu for each role, the shipment detail, and the pages outside the shell. */
const USERS: { username: string; role: Role }[] = [
  { username: 'ADMIN', role: 'admin' },
  { username: 'AGENTE1', role: 'agent' },
  { username: 'REPARTIDOR1', role: 'courier' },
];

/** Where, and for contrast the colours axe measured, so a failure says what to fix. */
function describe(node: { target: unknown[]; html: string; any: { data?: unknown }[] }) {
  const data = node.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
  const colours = data?.fgColor ? ` [${data.fgColor} on ${data.bgColor}: ${data.contrastRatio}]` : '';
  return `${node.html.slice(0, 90)}${colours}`;
}

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes.slice(0, 4).map(describe).join(' | ')}`);
}

/** The page has settled: no skeleton left and nothing loading. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.mantine-Skeleton-root[data-visible="true"]')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
}

test('the login page has no serious or critical accessibility violations', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Ingresar' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  // The password toggle speaks Spanish, and the demo box is not an alert.
  await expect(page.getByRole('button', { name: 'Mostrar contraseña' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

for (const { username, role } of USERS) {
  test(`every route as ${role} has no serious or critical accessibility violations`, async ({ page }) => {
    test.setTimeout(180_000);
    await loginAndWait(page, username);
    const paths: string[] = MENU.filter((m) => (m.roles as readonly Role[]).includes(role)).map((m) => m.path);
    // Screens behind a tab of a menu entry.
    if (paths.includes('/billing/preview')) paths.push('/billing/preview?tab=comprobantes');
    // Routes outside the sidebar (spec): reached from the Panel and Pagos.
    if (paths.includes('/pagos')) paths.push('/reports/movimientos', '/cuentas-por-cobrar', '/pagos?tab=caja', '/pagos?tab=cierres');
    const found: Record<string, string[]> = {};
    for (const path of paths) {
      await page.goto(path);
      await settle(page);
      const v = await seriousViolations(page);
      if (v.length) found[path] = v;
    }
    // The detail of the first shipment of the list.
    await page.goto('/shipments');
    await settle(page);
    await page.locator('table tbody tr a[href^="/shipments/"]').first().click();
    await expect(page).toHaveURL(/\/shipments\/[^/]+$/);
    await settle(page);
    const detail = await seriousViolations(page);
    if (detail.length) found['/shipments/:id'] = detail;
    expect(found).toEqual({});
  });
}

test('the username field shows the code as it will be saved', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await page.goto('/users');
  await page.getByRole('button', { name: 'Nuevo usuario' }).click();
  const username = page.getByRole('dialog').getByLabel('Usuario');
  await username.pressSequentially('caja lima2');
  await expect(username).toHaveValue('CAJALIMA2');
});
