import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { limaDay, parseCsv, type DocumentPage, type SalesRegister } from '@tramo/domain';
import { apiToken, loginAndWait, logout } from './support.ts';

/** Where the screenshots of the pages this spec covers go (SHOTS_DIR, else the reports folder). */
const shots = process.env.SHOTS_DIR ?? 'reports';

test('an admin opens the Registro de Ventas of the month from the menu, reconciled, and downloads its PLE file and CSV; agents have no entry', async ({
  page,
  request,
}) => {
  const month = limaDay(new Date()).slice(0, 7);
  const headers = { authorization: `Bearer ${await apiToken(request, 'ADMIN')}` };
  const expected = (await (await request.get(`/api/billing/registro-ventas?mes=${month}`, { headers })).json()) as SalesRegister;
  expect(expected.rows.length).toBeGreaterThan(0);

  await page.setViewportSize({ width: 1366, height: 768 });
  await loginAndWait(page, 'ADMIN');
  await page.getByRole('link', { name: 'Registro de Ventas' }).click();
  await expect(page).toHaveURL(/\/billing\/registro-ventas$/);
  await expect(page.getByRole('heading', { name: 'Registro de Ventas', level: 1 })).toBeVisible();
  await expect(page.getByText(/^Cuadra con el registro de comprobantes/)).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(expected.rows.length + 2);
  await page.screenshot({ path: `${shots}/registro-ventas-1366.png`, fullPage: false });
  await page.screenshot({ path: `${shots}/registro-ventas-1366-full.png`, fullPage: true });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: `${shots}/registro-ventas-1024.png`, fullPage: false });

  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar CSV' }).click();
  const csv = parseCsv(await readFile((await (await csvDownload).path())!, 'utf8'));
  const totalColumn = csv[0]!.indexOf('Total');
  expect(csv).toHaveLength(expected.totals.count + 2);
  expect(Number(csv.at(-1)![totalColumn]!.replace(',', '.'))).toBe(expected.totals.total);

  const pleDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Descargar PLE 14.1' }).click();
  const ple = await pleDownload;
  expect(ple.suggestedFilename()).toBe(expected.pleFileName);
  const lines = (await readFile((await ple.path())!, 'utf8')).split('\r\n').filter(Boolean);
  expect(lines).toHaveLength(expected.totals.count);
  expect(lines.every((l) => l.split('|').length === 36)).toBe(true);

  // A voided receipt of the demo: its drawer offers the RA or RC that voided it.
  const voided = (await (await request.get('/api/billing/documents?status=anulado&pageSize=5', { headers })).json()) as DocumentPage;
  if (voided.items[0]) {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`/billing/preview?tab=comprobantes&doc=${voided.items[0].id}`);
    await expect(page.getByRole('button', { name: /^(Comunicación de baja|Resumen diario) \(XML\)$/ })).toBeVisible();
    await page.screenshot({ path: `${shots}/comprobante-anulado-1366.png` });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }
  await logout(page);

  await loginAndWait(page, 'AGENTE1');
  await expect(page.getByRole('link', { name: 'Registro de Ventas' })).toHaveCount(0);
  await page.goto('/billing/registro-ventas');
  await expect(page).toHaveURL(/\/forbidden$/);
});
