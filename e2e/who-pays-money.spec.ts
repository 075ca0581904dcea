import { expect, test, type Page } from '@playwright/test';
import { loginAndWait } from './support.ts';

/*
 * Issue 33 in the admin's settings and the money views: 'Reglas de cobro', and a pago en destino
 * Lima → Arequipa seen from Arequipa in the Panel, Cuentas por cobrar, Movimientos and Mi caja.
 */

const SHOTS = process.env.E2E_SHOTS_DIR;
const shoot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  for (const width of [1366, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 768 });
};

const auth = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('auth')!) as { token: string; user: { branchId: number } });

test('Reglas de cobro: the admin edits limits, routes and methods; a bad amount is refused on its field', async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await page.getByRole('link', { name: 'Reglas de cobro' }).click();
  await expect(page).toHaveURL(/\/configuracion\/reglas-de-cobro$/);
  const max = page.getByLabel('Flete máximo para pago en destino (S/)');
  await expect(max).toHaveValue('500.00');
  await shoot(page, 'reglas-de-cobro');

  await max.fill('mucho');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Flete máximo inválido: un monto de 0 a 100000.')).toBeVisible();
  await max.fill('450');
  await page.getByLabel('Peso desde el que se paga en origen (kg)').fill('40');
  await page.getByLabel('Lima → Cusco: admite pago en destino').uncheck();
  await page.getByLabel('Trujillo: Tarjeta en línea').uncheck();
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Reglas de cobro guardadas')).toBeVisible();

  await page.reload();
  await expect(max).toHaveValue('450.00');
  await expect(page.getByLabel('Lima → Cusco: admite pago en destino')).not.toBeChecked();
  await expect(page.getByLabel('Lima → Arequipa: admite pago en destino')).toBeChecked();
  await expect(page.getByLabel('Trujillo: Tarjeta en línea')).not.toBeChecked();
  await expect(page.getByLabel('Trujillo: Efectivo')).toBeChecked();

  // Every method of a branch off: its own message, nothing saved.
  for (const m of ['Efectivo', 'Tarjeta (POS)', 'Transferencia bancaria', 'Yape (QR)', 'Plin (QR)', 'Tarjeta en línea']) {
    await page.getByLabel(`Piura: ${m}`).uncheck();
  }
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Piura: Elige al menos un medio de pago para la sucursal.')).toBeVisible();
  await shoot(page, 'reglas-de-cobro-error');

  // Back to the defaults for the other specs.
  const { token } = await auth(page);
  const reset = await page.request.put('/api/settings/who-pays', {
    headers: { authorization: `Bearer ${token}` },
    data: { maxDestinationFreight: 500, originOnlyAboveKg: null },
  });
  expect(reset.status()).toBe(200);
});

test("Arequipa sees 'Por cobrar en destino' on the Panel and in Cuentas por cobrar, the collection in Mi caja and Movimientos", async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  const admin = await auth(page);
  const headers = { authorization: `Bearer ${admin.token}` };
  const branches = (await (await page.request.get('/api/branches', { headers })).json()) as { id: number; name: string }[];
  const lima = branches.find((b) => b.name === 'Lima')!.id;
  const arequipa = branches.find((b) => b.name === 'Arequipa')!.id;
  const arrived = async () => {
    const res = await page.request.post('/api/shipments', {
      headers,
      data: {
        senderName: 'Distribuidora Misti SAC',
        recipientDoc: '45879612',
        recipientFirstName: 'María',
        recipientLastName: 'Flores Ccori',
        originBranchId: lima,
        destinationBranchId: arequipa,
        lines: [{ productType: 'liviano', weightKg: 2 }],
        secretCode: 'clave1',
        payer: 'destinatario',
        paymentMoment: 'destino',
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    const s = (await res.json()) as { id: number; code: string; quotedPrice: number };
    for (const status of ['En tránsito', 'En agencia']) {
      const moved = await page.request.patch(`/api/shipments/${s.id}/status`, { headers, data: { status } });
      expect(moved.status(), await moved.text()).toBe(200);
    }
    return s;
  };
  const [toCollect, waiting] = [await arrived(), await arrived()];

  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await loginAndWait(page, 'AGENTE2');
  const agent = await auth(page);
  const paid = await page.request.post('/api/payments/manual', {
    headers: { authorization: `Bearer ${agent.token}` },
    data: {
      shipmentId: toCollect.id,
      customerName: 'María Flores Ccori',
      customerDocNumber: '45879612',
      amount: toCollect.quotedPrice,
      methodCode: 'cash',
    },
  });
  expect(paid.status(), await paid.text()).toBe(201);

  await page.goto('/');
  const card = page.getByLabel('Contador Por cobrar en destino');
  await expect(card).toContainText('Arequipa');
  await expect(card.getByTestId('counter-destination-due')).not.toHaveText('0');
  await shoot(page, 'panel-por-cobrar-destino');

  await page.goto('/cuentas-por-cobrar');
  const balances = page.getByRole('table', { name: 'Por cobrar en destino' });
  await expect(balances.getByRole('row', { name: /Arequipa/ })).toBeVisible();
  await shoot(page, 'cuentas-por-cobrar-destino');

  await page.goto('/pagos?tab=caja');
  await expect(page.getByTestId('cash-destination')).toContainText('Cobrado en destino');
  await shoot(page, 'mi-caja-destino');
  await page.goto('/pagos?tab=cierres');
  await expect(page.getByTestId('cash-destination').first()).toBeVisible();
  await shoot(page, 'cierres-del-dia-destino');

  await page.goto(`/reports/movimientos?soldBranchId=${lima}`);
  const row = page.getByRole('row').filter({ hasText: toCollect.code });
  await expect(row).toContainText('Lima');
  await expect(row).toContainText('Arequipa');
  await expect(row).toContainText('Pago en destino');
  await expect(page.getByRole('combobox', { name: 'Sucursal de venta' })).toHaveValue('Lima');
  await shoot(page, 'movimientos-sucursal-venta');
  expect(waiting.id).toBeGreaterThan(0);
});
