import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { MENU, type Role } from '@tramo/domain';
import { apiToken, createShipment, DEMO, loginAndWait, type ApiShipment } from './support.ts';

/** The demo users, one per role: every route is visited as each role that may open it. */
const USERS: { username: keyof typeof DEMO; role: Role }[] = [
  { username: 'ADMIN', role: 'admin' },
  { username: 'AGENTE1', role: 'agent' },
  { username: 'REPARTIDOR1', role: 'courier' },
];
const STAFF: readonly Role[] = ['admin', 'agent'];
const EVERYONE: readonly Role[] = ['admin', 'agent', 'courier'];

/**
 * The routes of the router beyond the sidebar's (MENU), with who may open them: the tabs of a menu
 * entry, the pages reached from the Panel and Pagos, the user's own pages and the error pages.
 * `:transport` and the shipment detail are filled in once the data is there.
 */
const MORE_ROUTES: [string, readonly Role[]][] = [
  ['/pagos?tab=caja', STAFF],
  ['/pagos?tab=cierres', STAFF],
  ['/billing/preview?tab=comprobantes', STAFF],
  ['/billing/preview?tab=guia', STAFF],
  ['/billing/preview?tab=retencion', STAFF],
  ['/billing/preview?tab=percepcion', STAFF],
  ['/transportistas?tab=conductores', STAFF],
  ['/transportistas?tab=asignaciones', STAFF],
  ['/transportistas/:transport/viajes', STAFF],
  ['/reports/movimientos', STAFF],
  ['/cuentas-por-cobrar', STAFF],
  ['/change-password', EVERYONE],
  ['/forbidden', EVERYONE],
  ['/no-existe', EVERYONE],
];

/**
 * The movements report keeps the CSV's 16 columns (spec section 3) and scrolls sideways inside its
 * box on purpose, on the counter PC too; its rows hold links to shipments, no actions. The Registro
 * de Ventas keeps SUNAT's columns: at 1024 the amounts show and the rest scrolls inside its box.
 */
const SCROLLS_ON_PURPOSE = ['/reports/movimientos', '/billing/registro-ventas'];

/** Where, and for contrast the colours axe measured, so a failure says what to fix. */
function describe(node: { target: unknown[]; html: string; any: { data?: unknown }[] }) {
  const data = node.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
  const colours = data?.fgColor ? ` [${data.fgColor} on ${data.bgColor}: ${data.contrastRatio}]` : '';
  return `${node.html.slice(0, 90)}${colours}`;
}

/** Moderate issues too (missing h1, skipped heading levels, content outside landmarks), not only serious ones. */
async function violations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'moderate' || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes.slice(0, 4).map(describe).join(' | ')}`);
}

/**
 * The couriers' tablet: at 1024 wide no table scrolls sideways (nor the page), and no button or
 * link sits outside the viewport or outside the box that clips it (an 'Anular' hidden to the right),
 * and no status chip is cut short ('Pendi…').
 */
async function tabletProblems(page: Page, tableMayScroll = false): Promise<string[]> {
  await page.setViewportSize({ width: 1024, height: 768 });
  // The layout (and the media queries of the editable tables) settle on the next frames.
  await page.waitForTimeout(300);
  const problems = await page.evaluate((tableMayScroll) => {
    const found: string[] = [];
    const label = (el: Element) => `${el.tagName.toLowerCase()} '${(el.textContent ?? '').trim().slice(0, 40)}'`;
    const clips = (el: Element) => ['auto', 'scroll', 'hidden'].includes(getComputedStyle(el).overflowX);
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) found.push(`the page scrolls sideways (${root.scrollWidth} px)`);
    for (const table of tableMayScroll ? [] : Array.from(document.querySelectorAll('main table'))) {
      for (let box = table.parentElement; box && box !== document.body; box = box.parentElement) {
        if (!clips(box)) continue;
        if (box.scrollWidth > box.clientWidth + 1)
          found.push(`a table scrolls sideways (${box.scrollWidth} px in ${box.clientWidth}): ${label(table.querySelector('th') ?? table)}`);
        break;
      }
    }
    for (const chip of Array.from(document.querySelectorAll('main .mantine-Badge-label'))) {
      if (chip.scrollWidth > chip.clientWidth + 1) found.push(`cut chip: ${label(chip)}`);
    }
    for (const el of Array.from(document.querySelectorAll('main button, main a[href], main [role="button"]'))) {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      if (tableMayScroll && el.closest('table')) continue;
      if (rect.left < -1 || rect.right > window.innerWidth + 1) {
        found.push(`off screen: ${label(el)}`);
        continue;
      }
      for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
        if (!clips(box)) continue;
        const outer = box.getBoundingClientRect();
        if (rect.left < outer.left - 1 || rect.right > outer.right + 1) found.push(`cut off: ${label(el)}`);
        break;
      }
    }
    return found;
  }, tableMayScroll);
  await page.setViewportSize({ width: 1366, height: 768 });
  return problems;
}

/** The page has settled: no skeleton left, nothing loading, and its title (the one h1) shown. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.mantine-Skeleton-root[data-visible="true"]')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

test('the login page has no moderate, serious or critical accessibility violations', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Ingresar' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  // The password toggle speaks Spanish, and the demo box is not an alert.
  await expect(page.getByRole('button', { name: 'Mostrar contraseña' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(await tabletProblems(page)).toEqual([]);
});

test.describe('every route', () => {
  // A sender name of one 60-letter word (typed without spaces), and a recipient document of its own to find it by.
  const longWord = 'Transportesyservicioslogisticosdelsurandinoperuanointegrados'.slice(0, 60);
  const recipientDoc = String(40_000_000 + Math.floor(Math.random() * 9_999_999));
  let shipment: ApiShipment;
  let transportId: number;

  test.beforeAll(async ({ request }) => {
    expect(longWord).toHaveLength(60);
    shipment = await createShipment(request, { fields: { senderName: longWord, recipientDoc } });
    const headers = { authorization: `Bearer ${await apiToken(request, 'ADMIN')}` };
    const transports = (await (await request.get('/api/transports', { headers, params: { limit: 1 } })).json()) as { items: { id: number }[] };
    transportId = transports.items[0]!.id;
  });

  for (const { username, role } of USERS) {
    test(`as ${role}: no moderate, serious or critical accessibility violations, and at 1024 wide nothing scrolls sideways or is cut off`, async ({
      page,
    }) => {
      test.setTimeout(300_000);
      await loginAndWait(page, username);
      const paths: string[] = [
        ...MENU.filter((m) => (m.roles as readonly Role[]).includes(role)).map((m) => m.path),
        ...MORE_ROUTES.filter(([, roles]) => roles.includes(role)).map(([path]) => path.replace(':transport', String(transportId))),
        // The shipment with the long word: its detail, and where it is found by its recipient.
        `/shipments/${shipment.id}`,
        `/deliveries?q=${recipientDoc}`,
        `/deliveries?code=${shipment.code}`,
        `/tracking?q=${recipientDoc}`,
      ];
      const found: Record<string, string[]> = {};
      for (const path of paths) {
        await page.goto(path);
        await settle(page);
        const problems = [...(await violations(page)), ...(await tabletProblems(page, SCROLLS_ON_PURPOSE.includes(path)))];
        if (problems.length) found[path] = problems;
      }
      expect(found).toEqual({});
    });
  }
});

test('the username field shows the code as it will be saved', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await page.goto('/users');
  await page.getByRole('button', { name: 'Nuevo usuario' }).click();
  const username = page.getByRole('dialog').getByLabel('Usuario');
  await username.pressSequentially('caja lima2');
  await expect(username).toHaveValue('CAJALIMA2');
});
