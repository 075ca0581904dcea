import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, loginAndWait, logout } from './support.ts';

/** The demo seed gives every shipment the secret code 1234 (apps/api/src/seed/shipments.ts). */
const DEMO_SECRET = '1234';

interface ShipmentRow {
  id: number;
  code: string;
  status: string;
  recipientName: string;
  recipientDoc: string;
  destinationBranch: { name: string };
  paymentMoment: string;
}

/**
 * A demo shipment on its way to Arequipa (REPARTIDOR1's branch). The oldest in the list, so a test
 * of another screen that takes the newest one does not race this one.
 */
async function demoShipmentToArequipa(request: APIRequestContext, status: 'En tránsito' | 'Creado'): Promise<ShipmentRow> {
  const token = await apiToken(request, 'ADMIN');
  const headers = { authorization: `Bearer ${token}` };
  const branches = (await (await request.get('/api/branches', { headers })).json()) as { id: number; name: string }[];
  const arequipa = branches.find((b) => b.name === 'Arequipa')!;
  const res = await request.get('/api/shipments', {
    headers,
    params: { destinationBranchId: arequipa.id, status, pageSize: 100 },
  });
  // Pago en destino waits for its money before delivery (issue 33, e2e/who-pays.spec.ts): this one is paid at origin.
  const items = ((await res.json()) as { items: ShipmentRow[] }).items.filter((s) => s.paymentMoment !== 'destino');
  expect(items.length).toBeGreaterThan(0);
  return items.at(-1)!;
}

test('tracking finds a demo shipment by code and by recipient name and shows its history', async ({ page, request }) => {
  const shipment = await demoShipmentToArequipa(request, 'Creado');
  await loginAndWait(page, 'REPARTIDOR1');
  await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Rastreo' }).click();
  const box = page.getByRole('searchbox', { name: 'Buscar envío' });
  await expect(box).toBeFocused();

  // A barcode scanner types the code and Enter: the shipment opens at once.
  await box.fill(shipment.code);
  await box.press('Enter');
  const detail = page.getByRole('region', { name: `Envío ${shipment.code}` });
  await expect(detail.getByRole('heading', { name: shipment.code })).toBeVisible();
  await expect(detail.getByText('Arequipa')).toBeVisible();
  await expect(detail.getByText(`${shipment.recipientName} · ${shipment.recipientDoc}`)).toBeVisible();
  const history = page.getByRole('region', { name: 'Historial del envío' });
  await expect(history.getByText('Creado', { exact: true }).first()).toBeVisible();

  await box.fill('zzz-nadie-se-llama-asi');
  await box.press('Enter');
  await expect(page.getByText('Sin resultados.')).toBeVisible();

  await box.fill(shipment.recipientName);
  await box.press('Enter');
  const row = page.getByRole('row', { name: new RegExp(shipment.code) });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: /Abrir/ }).click();
  await expect(page.getByRole('region', { name: `Envío ${shipment.code}` })).toBeVisible();
});

test('REPARTIDOR1 delivers a demo shipment at Arequipa: wrong code, then the right one, then the delivered box', async ({ page, request }) => {
  const shipment = await demoShipmentToArequipa(request, 'En tránsito');
  await loginAndWait(page, 'REPARTIDOR1');
  await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Entregas' }).click();
  await expect(page.getByRole('heading', { name: 'Entregas' })).toBeVisible();

  // Search by document first: the result table, then open.
  await page.getByRole('searchbox', { name: 'Buscar por nombre o documento' }).fill(shipment.recipientDoc);
  await page.getByRole('searchbox', { name: 'Buscar por nombre o documento' }).press('Enter');
  const row = page.getByRole('row', { name: new RegExp(shipment.code) });
  await expect(row).toContainText(shipment.recipientDoc);
  await expect(row).toContainText('En tránsito');

  // Then as a scanner would: the code and Enter.
  const codeBox = page.getByRole('textbox', { name: 'Código de envío' });
  await codeBox.fill(shipment.code.toLowerCase());
  await codeBox.press('Enter');
  await expect(page.getByRole('region', { name: `Envío ${shipment.code}` })).toBeVisible();

  const form = page.getByRole('form', { name: 'Confirmar entrega' });
  await expect(form.getByLabel('Nombre de quien recibe')).toHaveValue(shipment.recipientName);
  await expect(form.getByLabel('Documento de quien recibe')).toHaveValue(shipment.recipientDoc);
  await expect(form.getByRole('combobox', { name: 'Entregado por' })).toHaveValue('REPARTIDOR1 — Jorge Mamani');

  // Client rules first: nothing is sent.
  await form.getByRole('button', { name: 'Confirmar entrega' }).click();
  await expect(form.getByText('Clave requerida')).toBeVisible();
  await form.getByLabel('Documento de quien recibe').fill('12');
  await form.getByRole('button', { name: 'Confirmar entrega' }).click();
  await expect(form.getByText('Documento inválido')).toBeVisible();
  await form.getByLabel('Documento de quien recibe').fill(shipment.recipientDoc);

  await form.getByLabel('Clave secreta').fill('9999');
  await form.getByRole('button', { name: 'Confirmar entrega' }).click();
  await expect(form.getByText('Clave secreta inválida')).toBeVisible();

  await form.getByLabel('Clave secreta').fill(DEMO_SECRET);
  await form.getByLabel('Notas').fill('Recibió el titular en mostrador');
  await form.getByRole('button', { name: 'Confirmar entrega' }).click();
  await expect(page.getByText('Entrega confirmada.')).toBeVisible();

  const box = page.getByLabel('Entrega registrada');
  await expect(box).toContainText('Envío entregado');
  await expect(box).toContainText(shipment.recipientName);
  await expect(box).toContainText('Jorge Mamani');
  await expect(box).toContainText('Recibió el titular en mostrador');
  await expect(page.getByRole('form', { name: 'Confirmar entrega' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: `Envío ${shipment.code}` }).getByText('Entregado', { exact: true })).toBeVisible();

  // Tracking now shows the delivery in the history.
  await page.goto(`/tracking?q=${shipment.code}`);
  const history = page.getByRole('region', { name: 'Historial del envío' });
  await expect(history.getByText(`Entregado a ${shipment.recipientName}`, { exact: false })).toBeVisible();

  // A delivered shipment is closed: its manager sees no way to rewrite its history (issue 12, item 15).
  await logout(page);
  await loginAndWait(page, 'ADMIN');
  await page.goto(`/shipments/${shipment.id}`);
  await expect(page.getByText("El envío está 'Entregado': su historial, descripción y clave ya no cambian.")).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cambiar descripción' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cambiar clave secreta' })).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Cambiar estado' })).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Agregar evento' })).toHaveCount(0);
});
