// Screenshots of pages for a human look: node scripts/screenshots.mjs [baseUrl] [user] [path…]
// Writes screenshots/<path>.png at the counter PC size (1366×768).
import fs from 'node:fs';
import { chromium } from '@playwright/test';

const [base = 'http://127.0.0.1:3000', user = 'ADMIN', ...paths] = process.argv.slice(2);
const passwords = { ADMIN: 'admin123', AGENTE1: 'agente123', AGENTE2: 'agente123', REPARTIDOR1: 'reparto123' };
fs.mkdirSync('screenshots', { recursive: true });

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1366, height: 768 }, locale: 'es-PE', timezoneId: 'America/Lima' });
await page.goto(`${base}/login`);
await page.waitForLoadState('networkidle');
await page.screenshot({ path: 'screenshots/login.png' });
await page.getByLabel('Usuario').fill(user);
await page.getByLabel('Contraseña', { exact: true }).fill(passwords[user] ?? user);
await page.getByRole('button', { name: 'Ingresar' }).click();
await page.waitForURL((url) => !url.pathname.startsWith('/login'));
for (const p of paths) {
  await page.goto(`${base}${p}`);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(400);
  const name = p.replace(/^\//, '').replace(/[/?&=]/g, '_') || 'root';
  await page.screenshot({ path: `screenshots/${name}.png`, fullPage: true });
  console.log(`screenshots/${name}.png`);
}
await browser.close();
