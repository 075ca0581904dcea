import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, createShipment, loginAndWait, unique } from './support.ts';

/** A Lima calendar day `offset` days from today (AAAA-MM-DD). */
const limaDay = (offset: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Lima' }).format(new Date(Date.now() + offset * 86_400_000));

async function pdfText(request: APIRequestContext, url: string, headers: Record<string, string>, png: string) {
  const res = await request.get(url, { headers });
  expect(res.status(), url).toBe(200);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-e2e-pdf-'));
  const file = path.join(dir, 'doc.pdf');
  fs.writeFileSync(file, await res.body());
  // Rendered to PNG to be looked at (test-results), and read back as text to check what is printed.
  execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', file, path.join('test-results', png)]);
  return execFileSync('pdftotext', ['-layout', file, '-']).toString();
}

/**
 * Issue 36: 'Emitir guías' on a load of two remitentes issues two GRE transportista carrying the
 * MTC registration, the TUC and the semirremolque; the departure waits ('Guía pendiente en SUNAT')
 * until SUNAT accepts them, and the retry lets the truck leave. The guide and the manifest carry
 * the company's logo.
 */
test("'Emitir guías' → two GRE-T → 'Guía pendiente en SUNAT' → retry → departs", async ({ page, request }) => {
  test.setTimeout(150_000);
  const admin = { authorization: `Bearer ${await apiToken(request, 'ADMIN')}` };
  const branches = (await (await request.get('/api/branches', { headers: admin })).json()) as { id: number; name: string }[];
  const id = (name: string) => branches.find((b) => b.name === name)!.id;
  const customer = async (ruc: string) => {
    const found = (await (await request.get(`/api/customers?q=${ruc}`, { headers: admin })).json()) as
      { items?: { id: number }[] } | { id: number }[];
    return (Array.isArray(found) ? found : found.items!)[0]!.id;
  };
  const drivers = (await (await request.get('/api/drivers', { headers: admin })).json()) as
    { id: number; full_name: string }[] | { items: { id: number }[] };
  const driverId = (Array.isArray(drivers) ? drivers : drivers.items)[0]!.id;

  const suffix = String(Math.floor(Math.random() * 900) + 100);
  const trailer = await request.post('/api/transports', {
    headers: admin,
    data: {
      plate_primary: `S${unique('').slice(-1)}R-${suffix}`.slice(0, 7),
      vehicle_type: 'semirremolque',
      tuc_number: `15M${suffix}0004567`,
      origin_branch_id: id('Lima'),
      destination_branch_id: id('Arequipa'),
    },
  });
  expect(trailer.status(), await trailer.text()).toBe(201);
  const truck = await request.post('/api/transports', {
    headers: admin,
    data: {
      plate_primary: `G${unique('').slice(-1)}T-${suffix}`.slice(0, 7),
      vehicle_type: 'tracto',
      tuc_number: `15M${suffix}0001234`,
      trailer_id: ((await trailer.json()) as { id: number }).id,
      capacity_kg: 5000,
      origin_branch_id: id('Lima'),
      destination_branch_id: id('Arequipa'),
      driver_id_1: driverId,
      make: 'Volvo',
    },
  });
  expect(truck.status(), await truck.text()).toBe(201);
  const { id: transportId, plate_primary: plate } = (await truck.json()) as { id: number; plate_primary: string };
  for (const type of ['soat', 'citv'])
    expect(
      (
        await request.post(`/api/transports/${transportId}/documents`, {
          headers: admin,
          data: { type, number: `${type}-${suffix}`, expiresOn: limaDay(200) },
        })
      ).status(),
    ).toBe(201);

  // The company's logo, drawn in the browser and saved with the rest of its data (the demo's).
  await loginAndWait(page, 'ADMIN');
  const logo = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = c.height = 96;
    const g = c.getContext('2d')!;
    g.fillStyle = '#0b7285';
    g.fillRect(0, 0, 96, 96);
    g.fillStyle = '#ffffff';
    g.font = 'bold 64px sans-serif';
    g.fillText('T', 28, 72);
    return c.toDataURL('image/png');
  });
  const company = (await (await request.get('/api/settings/company', { headers: admin })).json()) as Record<string, unknown>;
  const saved = await request.put('/api/settings/company', {
    headers: admin,
    data: {
      ruc: company.ruc,
      name: company.name,
      tradeName: company.tradeName,
      address: company.address,
      mtcRegistration: company.mtcRegistration,
      guidesBeforeDeparture: true,
      logo,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const mtc = ((await saved.json()) as { mtcRegistration: string }).mtcRegistration;
  expect(mtc).toBeTruthy();

  // Two remitentes on one load.
  const [andes, norte] = [await customer('20608123459'), await customer('20605123784')];
  const first = await createShipment(request, { fields: { senderCustomerId: andes, senderName: 'Comercial Los Andes S.A.C.' } });
  const second = await createShipment(request, { fields: { senderCustomerId: norte, senderName: 'Agroexportadora Norte Verde S.A.' } });
  const loaded = await request.post(`/api/transports/${transportId}/assignments`, { headers: admin, data: { shipmentIds: [first.id, second.id] } });
  expect(loaded.status(), await loaded.text()).toBe(201);

  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`/transportistas?tab=asignaciones&transporte=${transportId}`);
  await page.getByRole('button', { name: 'Emitir guías' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Emitir guías' }).click();
  await expect(page.getByText(/^2 guías emitidas: VVV1-\d{8}, VVV1-\d{8}\.$/)).toBeVisible();

  await page.getByRole('button', { name: 'Registrar salida' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Registrar salida' }).click();
  const pending = page.getByRole('status').filter({ hasText: 'Guía pendiente en SUNAT' });
  await expect(pending).toBeVisible();
  await expect(pending).toContainText('La salida espera a que SUNAT la acepte');
  await page.screenshot({ path: 'test-results/fleet-guides-pending-1366.png', fullPage: true });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: 'test-results/fleet-guides-pending-1024.png', fullPage: true });
  await page.setViewportSize({ width: 1366, height: 768 });

  // The e2e server's SUNAT accepts guides after 6 s (playwright.config.ts): the retry asks again and the truck leaves.
  await page.waitForTimeout(6500);
  await pending.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByText(`Salida registrada: ${plate} hacia Arequipa.`)).toBeVisible();
  await expect(page.getByText('En ruta hacia Arequipa')).toBeVisible();

  // The guides as printed: MTC, TUC of both vehicles, delivery to the carrier; and the manifest.
  const guides = (await (await request.get(`/api/billing/documents?shipmentId=${second.id}`, { headers: admin })).json()) as {
    items: { id: number; type: string }[];
  };
  const guide = guides.items.find((d) => d.type === '31')!;
  const text = await pdfText(request, `/api/billing/documents/${guide.id}/pdf`, admin, 'fleet-guides-gre-t');
  expect(text).toContain(`Registro MTC`);
  expect(text).toContain(mtc);
  expect(text).toContain(`TUC/CHV 15M${suffix}0001234`);
  expect(text).toContain(`TUC/CHV 15M${suffix}0004567`);
  // 'Entrega al transportista' wraps in its label column; the day stays on the first line.
  expect(text).toMatch(/Entrega al\s[^\n]*\d{2}\/\d{2}\/\d{4}/);
  const trip = (await (await request.get(`/api/transports/${transportId}/trip`, { headers: admin })).json()) as { id: number };
  // The heading wraps beside the logo: the label and the number print on two lines.
  const manifest = await pdfText(request, `/api/trips/${trip.id}/manifest.pdf`, admin, 'fleet-guides-manifest');
  expect(manifest).toContain('Registro MTC');
  expect(manifest).toContain(mtc);
});
