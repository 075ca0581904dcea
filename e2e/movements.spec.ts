import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { loginAndWait } from './support.ts';

/*
 * /reports/movimientos and /cuentas-por-cobrar (issue #14 steps 4–6). The demo data may carry no
 * payment yet: the first test takes one (cash, for a shipment created now) through the API.
 */

const session = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('auth')!) as { token: string; user: { branchId: number } });

/** A new Creado shipment of the agent's branch, paid in cash at the counter (what it owes). */
async function cashPayment(page: Page): Promise<string> {
  const { token, user } = await session(page);
  const headers = { authorization: `Bearer ${token}` };
  const branchId = user.branchId;
  const branches = (await (await page.request.get('/api/branches', { headers })).json()) as { id: number }[];
  const created = await page.request.post('/api/shipments', {
    headers,
    data: {
      senderName: 'Textiles Gamarra SAC',
      recipientDoc: '40112233',
      recipientFirstName: 'Rosa',
      recipientLastName: 'Huamán Ccama',
      originBranchId: branchId,
      destinationBranchId: branches.find((b) => b.id !== branchId)!.id,
      lines: [{ productType: 'liviano', weightKg: 2 }],
      secretCode: 'clave1',
    },
  });
  expect(created.status()).toBe(201);
  const shipment = (await created.json()) as { id: number; code: string; quotedPrice: number };
  const paid = await page.request.post('/api/payments/manual', {
    headers,
    data: {
      shipmentId: shipment.id,
      customerName: 'Rosa Quispe Mamani',
      customerDocNumber: '45678912',
      amount: shipment.quotedPrice,
      methodCode: 'cash',
    },
  });
  expect(paid.status()).toBe(201);
  return shipment.code;
}

test('movements: filters reload the list and its totals; an invalid range asks nothing', async ({ page }) => {
  await loginAndWait(page, 'AGENTE1');
  const code = await cashPayment(page);
  await page.goto('/reports/movimientos');
  await expect(page.getByRole('heading', { name: 'Movimientos', level: 1 })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: code })).toBeVisible();
  // An agent is held to their branch: shown, read-only.
  await expect(page.getByRole('combobox', { name: 'Sucursal', exact: true })).not.toHaveValue('');
  await expect(page.getByRole('combobox', { name: 'Sucursal', exact: true })).toHaveAttribute('readonly', '');
  const totals = page.getByRole('region', { name: 'Totales del filtro' });
  await expect(totals).toContainText('Pagado');
  await expect(totals).toContainText('Efectivo');

  // The method filter settles, then reloads from page 1: a cash payment is not a Yape one.
  const reload = page.waitForResponse((r) => r.url().includes('/payments/report/movements?') && r.url().includes('method=yape_qr'));
  await page.getByRole('combobox', { name: 'Método' }).click();
  await page.getByRole('option', { name: 'Yape (QR)' }).click();
  await reload;
  await expect(page.getByRole('row').filter({ hasText: code })).toHaveCount(0);
  await expect(page).toHaveURL(/method=yape_qr/);
  await page.getByRole('button', { name: 'Limpiar' }).click();
  await expect(page.getByRole('row').filter({ hasText: code })).toBeVisible();

  // 'from' after 'to': the warning, and no request at all.
  let asked = false;
  page.on('request', (r) => {
    if (r.url().includes('/payments/report/movements?') && r.url().includes('dateFrom=2026-12-31')) asked = true;
  });
  await page.goto('/reports/movimientos?dateFrom=2026-12-31&dateTo=2026-12-01');
  await expect(page.getByRole('alert').filter({ hasText: 'Rango de fechas inválido' })).toBeVisible();
  await expect(page.getByText('Sin resultados con los filtros actuales.')).toBeVisible();
  await page.waitForTimeout(600);
  expect(asked).toBe(false);
  await page.getByRole('link', { name: 'Volver al Panel' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('movements CSV: the whole filtered set as movimientos_filtrados.csv, BOM and sep= line first', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await page.goto('/reports/movimientos');
  await expect(page.getByRole('heading', { name: 'Movimientos', level: 1 })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
  expect(download.suggestedFilename()).toBe('movimientos_filtrados.csv');
  const bytes = await readFile((await download.path())!);
  // UTF-8 BOM, then the separator of es-PE (decimal point → comma), then the 16 headers.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString('utf8');
  expect(text.startsWith('sep=,\r\n')).toBe(true);
  const header = text.split('\r\n')[1]!;
  expect(header.split(',')).toHaveLength(16);
  expect(header.startsWith('Fecha,Sucursal,Cobrado por')).toBe(true);
  await expect(page.getByRole('button', { name: 'Exportar CSV' })).toBeEnabled();
});

test('receivables: the balances per customer load, with their total, and the search narrows them', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await page.goto('/cuentas-por-cobrar');
  await expect(page.getByRole('heading', { name: 'Cuentas por cobrar', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Total por cobrar' })).toContainText('S/');
  const rows = page.locator('main table tbody tr');
  await expect(rows.first()).toBeVisible();
  const first = (await rows.first().locator('td').first().locator('p, a').first().textContent())!.trim();
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill(first);
  await page.getByRole('button', { name: 'Buscar' }).click();
  await expect(page).toHaveURL(/q=/);
  await expect(rows.first()).toContainText(first);
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill('zzzz-nadie-con-este-nombre');
  await page.keyboard.press('Enter');
  await expect(page.getByText('No hay saldos pendientes')).toBeVisible();

  // A registered customer's row opens 'Facturar envíos' with that customer chosen and their shipments.
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill('');
  await page.getByRole('button', { name: 'Buscar' }).click();
  const registered = page.locator('main table tbody tr a').first();
  const name = (await registered.textContent())!.trim();
  await registered.click();
  await expect(page).toHaveURL(/tab=comprobantes&facturar=\d+/);
  const dialog = page.getByRole('dialog', { name: 'Facturar envíos de un cliente' });
  await expect(dialog.getByLabel('Cliente remitente')).toHaveValue(name);
  await expect(
    dialog
      .getByRole('checkbox', { name: /^Elegir TMT-/ })
      .first()
      .or(dialog.getByText('Este cliente no tiene envíos por facturar.')),
  ).toBeVisible();
});

test('movements CSV: progress while it comes, Cancelar stops it, a failure says why', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await page.goto('/reports/movimientos');
  await expect(page.getByRole('heading', { name: 'Movimientos', level: 1 })).toBeVisible();
  // A slow export: the progress shows and 'Cancelar' ends it without a file.
  await page.route('**/api/payments/report/movements.csv*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await route.fulfill({ status: 200, contentType: 'text/csv', body: '\uFEFFsep=,\r\nFecha\r\n' }).catch(() => undefined);
  });
  let downloaded = false;
  page.on('download', () => {
    downloaded = true;
  });
  await page.getByRole('button', { name: 'Exportar CSV' }).click();
  await expect(page.getByText(/Exportando… 0 filas/)).toBeVisible();
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByRole('button', { name: 'Exportar CSV' })).toBeVisible();
  await page.waitForTimeout(500);
  expect(downloaded).toBe(false);
  await expect(page.getByText('No se pudo exportar el CSV')).toHaveCount(0);

  // The server refuses: its message; no message: the fallback.
  await page.unroute('**/api/payments/report/movements.csv*');
  await page.route('**/api/payments/report/movements.csv*', (route) =>
    route.fulfill({
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'Solo puedes ver los movimientos de tu sucursal.' }),
    }),
  );
  await page.getByRole('button', { name: 'Exportar CSV' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Solo puedes ver los movimientos de tu sucursal.' })).toBeVisible();
  await page.unroute('**/api/payments/report/movements.csv*');
  await page.route('**/api/payments/report/movements.csv*', (route) => route.fulfill({ status: 500, body: '' }));
  await page.getByRole('button', { name: 'Exportar CSV' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'No se pudo exportar el CSV' })).toBeVisible();
  expect(downloaded).toBe(false);
});

// Issue 19: past the numbered pages the movements go on by cursor ('Siguiente' / 'Anterior'), as the shipments list.
test('movements page by cursor with Siguiente and Anterior', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  const firstPage = page.waitForResponse((r) => r.url().includes('/api/payments/report/movements?') && r.url().includes('pageSize=20'));
  await page.goto('/reports/movimientos');
  const { next, items, total } = (await (await firstPage).json()) as { next: string; total: number; items: { id: number }[] };
  expect(next).toBeTruthy();
  expect(total).toBeGreaterThan(40);

  // As the list is once past its numbered pages: the cursor in the address, page numbers gone.
  await page.goto(`/reports/movimientos?page=2&after=${next}`);
  const table = page.getByRole('region', { name: 'Tabla de movimientos' });
  await expect(page.getByText('Página 2', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Primera página' })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(21);
  await expect(page.getByText(/^21–40 de /)).toBeVisible();
  await page.screenshot({ path: 'screenshots/movements-cursor.png' });

  await page.getByRole('button', { name: 'Siguiente ›' }).click();
  await expect(page).toHaveURL(/page=3/);
  await expect(page.getByText('Página 3', { exact: true })).toBeVisible();
  await expect(page.getByText(/^41–/)).toBeVisible();
  // Back inside the numbered pages, by number again.
  await page.getByRole('button', { name: '‹ Anterior' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page).not.toHaveURL(/after=/);
  await page.getByRole('button', { name: 'Primera página' }).click();
  await expect(page).not.toHaveURL(/page=/);
  expect(items.length).toBe(20);
});
