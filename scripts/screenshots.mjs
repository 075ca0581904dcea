// Every route, for each role, at the counter PC (1366×768) and the couriers' tablet (1024×768):
//   npm run screenshots                       → against a running app on http://127.0.0.1:3000
//   npm run screenshots -- http://host:port   → another address
// Writes screenshots/<width>/<role>/<route>.png (full page), so anyone can look at the whole product
// in a minute. The routes follow the menu of packages/domain (MENU) plus the shipment detail.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const [base = 'http://127.0.0.1:3000'] = process.argv.slice(2);
const out = path.resolve('screenshots');
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1024, height: 768 },
];
const ALL = ['admin', 'agent', 'courier'];
const STAFF = ['admin', 'agent'];
/** Mirrors MENU in packages/domain/src (the sidebar): path and who may open it. */
const ROUTES = [
  ['/', ALL],
  ['/shipments', ALL],
  ['/shipments/new', STAFF],
  ['/deliveries', ALL],
  ['/tracking', ALL],
  ['/pagos', STAFF],
  ['/factor-peso', STAFF],
  ['/billing/preview', STAFF],
  ['/customers', STAFF],
  ['/branches', ['admin']],
  ['/transportistas', STAFF],
  ['/users', ['admin']],
];
const USERS = [
  { role: 'admin', username: 'ADMIN', password: 'admin123' },
  { role: 'agent', username: 'AGENTE1', password: 'agente123' },
  { role: 'courier', username: 'REPARTIDOR1', password: 'reparto123' },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

async function shot(page, file) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(400);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
  console.log(path.relative(process.cwd(), file));
}

const name = (p) => p.replace(/^\//, '').replace(/[/?&=]/g, '_') || 'panel';

for (const viewport of SIZES) {
  const dir = path.join(out, String(viewport.width));
  for (const user of USERS) {
    const context = await browser.newContext({ viewport, locale: 'es-PE', timezoneId: 'America/Lima' });
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    if (user === USERS[0]) await shot(page, path.join(dir, 'login.png'));
    await page.getByLabel('Usuario').fill(user.username);
    await page.getByLabel('Contraseña', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    for (const [route, roles] of ROUTES) {
      if (!roles.includes(user.role)) continue;
      await page.goto(`${base}${route}`);
      await shot(page, path.join(dir, user.role, `${name(route)}.png`));
    }
    // The detail of the newest shipment of the list.
    await page.goto(`${base}/shipments`);
    await page.waitForLoadState('networkidle');
    const first = page.locator('table tbody tr a[href^="/shipments/"]').first();
    if (await first.count()) {
      await first.click();
      await page.waitForURL(/\/shipments\/[^/]+$/);
      await shot(page, path.join(dir, user.role, 'shipment-detail.png'));
    }
    await context.close();
  }
}
await browser.close();
