import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiToken, createShipment, loginAndWait, unique } from './support.ts';

/** A Lima calendar day `offset` days from today, as the API takes it (AAAA-MM-DD). */
const limaDay = (offset: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Lima' }).format(new Date(Date.now() + offset * 86_400_000));
const ddmmyyyy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/**
 * Issue 36: a truck whose SOAT expired is stopped at loading and departure; its documents are kept
 * from the Transportes list; an admin authorises one departure with a reason, it leaves, and the
 * manifest prints the authorisation.
 */
test('expired SOAT → the gate refuses → the admin authorises one departure → it departs, and the manifest says so', async ({ page, request }) => {
  test.setTimeout(150_000);
  const admin = { authorization: `Bearer ${await apiToken(request, 'ADMIN')}` };
  const branches = (await (await request.get('/api/branches', { headers: admin })).json()) as { id: number; name: string }[];
  const id = (name: string) => branches.find((b) => b.name === name)!.id;
  const plate = `V${unique('').slice(-2)}-${String(Math.floor(Math.random() * 900) + 100)}`.slice(0, 7);
  const created = await request.post('/api/transports', {
    headers: admin,
    data: { plate_primary: plate, capacity_kg: 500, origin_branch_id: id('Lima'), destination_branch_id: id('Arequipa'), make: 'Volvo' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: transportId, plate_primary: savedPlate } = (await created.json()) as { id: number; plate_primary: string };
  const expiredOn = limaDay(-3);
  const soat = await request.post(`/api/transports/${transportId}/documents`, {
    headers: admin,
    data: { type: 'soat', number: 'SOAT-E2E-1', expiresOn: expiredOn },
  });
  expect(soat.status(), await soat.text()).toBe(201);
  const shipment = await createShipment(request);
  const refusal = `El SOAT de ${savedPlate} venció el ${ddmmyyyy(expiredOn)}.`;

  await loginAndWait(page, 'ADMIN');
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/transportistas');
  await page.getByRole('searchbox', { name: 'Filtrar por ruta' }).fill('Lima – Arequipa');
  await page.getByRole('searchbox', { name: 'Filtrar por ruta' }).press('Enter');

  // The vehicle's documents: the CITV is added from the list with its PDF; the SOAT shows as expired.
  await page.getByRole('button', { name: `Documentos ${savedPlate}` }).click();
  const drawer = page.getByRole('dialog', { name: `Documentos de ${savedPlate}` });
  await expect(drawer.getByRole('row').filter({ hasText: 'SOAT-E2E-1' })).toContainText('Vencido');
  await drawer.getByRole('button', { name: 'Registrar documento' }).click();
  await expect(drawer.getByText('El número del documento es obligatorio')).toBeVisible();
  await drawer.getByRole('combobox', { name: 'Documento' }).click();
  await page.getByRole('option', { name: 'CITV (revisión técnica)' }).click();
  await drawer.getByLabel('Número').fill('CITV-E2E-9');
  await drawer.getByLabel('Fecha de emisión').fill(limaDay(-100));
  await drawer.getByLabel('Fecha de vencimiento').fill(limaDay(265));
  await drawer.locator('input[type="file"]').setInputFiles({
    name: 'citv.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
  });
  await drawer.getByRole('button', { name: 'Registrar documento' }).click();
  await expect(page.getByText('CITV (revisión técnica) registrado.')).toBeVisible();
  const citvRow = drawer.getByRole('row').filter({ hasText: 'CITV-E2E-9' });
  await expect(citvRow).toContainText('Vigente');
  await expect(citvRow.getByRole('button', { name: /^Descargar/ })).toBeVisible();
  await page.screenshot({ path: 'test-results/fleet-documents-1366.png' });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: 'test-results/fleet-documents-1024.png' });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.keyboard.press('Escape');

  // The gate: loading is refused naming the SOAT and its date, and the departure waits.
  await page.goto(`/transportistas?tab=asignaciones&transporte=${transportId}`);
  const gate = page.getByRole('alert').filter({ hasText: 'No puede cargar ni salir' });
  await expect(gate).toContainText(refusal);
  await page.getByRole('textbox', { name: 'Código del envío a cargar' }).fill(shipment.code);
  await page.getByRole('textbox', { name: 'Código del envío a cargar' }).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: refusal })).toBeVisible();
  await expect(page.getByText('Paquetes cargados (0)')).toBeVisible();
  await page.screenshot({ path: 'test-results/fleet-gate-1366.png', fullPage: true });

  // The admin's override: a reason of at least 10 characters, then one departure may go.
  await gate.getByRole('button', { name: 'Autorizar salida' }).click();
  const modal = page.getByRole('dialog', { name: `Autorizar una salida de ${savedPlate}` });
  await modal.getByLabel('Motivo').fill('corto');
  await modal.getByRole('button', { name: 'Autorizar salida' }).click();
  await expect(modal.getByText('Indica el motivo de la excepción (mínimo 10 caracteres).')).toBeVisible();
  const reason = 'SOAT renovado ayer, la aseguradora envía la póliza el lunes';
  await modal.getByLabel('Motivo').fill(reason);
  await modal.getByRole('button', { name: 'Autorizar salida' }).click();
  await expect(modal).toBeHidden();
  const granted = page.getByRole('status').filter({ hasText: 'Salida autorizada con documentos vencidos' });
  await expect(granted).toContainText(reason);

  await page.getByRole('textbox', { name: 'Código del envío a cargar' }).fill(shipment.code);
  await page.getByRole('textbox', { name: 'Código del envío a cargar' }).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: `${shipment.code} cargado en ${savedPlate}.` })).toBeVisible();
  await page.screenshot({ path: 'test-results/fleet-override-1366.png', fullPage: true });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: 'test-results/fleet-override-1024.png', fullPage: true });
  await page.setViewportSize({ width: 1366, height: 768 });

  await page.getByRole('button', { name: 'Registrar salida' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Registrar salida' }).click();
  await expect(page.getByText(`Salida registrada: ${savedPlate} hacia Arequipa.`)).toBeVisible();
  await expect(page.getByText('En ruta hacia Arequipa')).toBeVisible();

  // The trip's manifest prints the authorisation; rendered to PNG to be looked at.
  const trip = (await (await request.get(`/api/transports/${transportId}/trip`, { headers: admin })).json()) as { id: number };
  const manifest = await request.get(`/api/trips/${trip.id}/manifest.pdf`, { headers: admin });
  expect(manifest.status()).toBe(200);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-e2e-manifest-'));
  fs.writeFileSync(path.join(dir, 'manifest.pdf'), await manifest.body());
  const text = execFileSync('pdftotext', [path.join(dir, 'manifest.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  expect(text).toContain('SALIDA AUTORIZADA CON DOCUMENTOS VENCIDOS');
  expect(text).toContain(refusal);
  expect(text).toContain(shipment.code);
  fs.mkdirSync('test-results', { recursive: true });
  execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', path.join(dir, 'manifest.pdf'), 'test-results/fleet-override-manifest']);
  fs.rmSync(dir, { recursive: true, force: true });

  // Spent: back in Lima, the still-expired truck is stopped again.
  const back = await request.post(`/api/transports/${transportId}/arrival`, { headers: admin, data: {} });
  expect(back.status(), await back.text()).toBe(200);
  await page.reload();
  await expect(page.getByRole('alert').filter({ hasText: 'No puede cargar ni salir' })).toContainText(refusal);
});

/** Issue 36: the company's data, where the MTC registration of every GRE transportista is kept. */
test("an admin keeps the company's data and MTC registration in 'Empresa'; an agent has no entry", async ({ page }) => {
  await loginAndWait(page, 'ADMIN');
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.getByRole('link', { name: 'Empresa' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Empresa' })).toBeVisible();
  await expect(page.getByLabel('RUC')).toHaveValue(/^\d{11}$/);
  await page.getByLabel('Registro MTC').fill('15 32');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Registro MTC inválido: de 1 a 20 letras o números, sin espacios (p. ej. 1532CXNO).')).toBeVisible();
  await page.getByLabel('Registro MTC').fill('1532cxno');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Datos de la empresa guardados.')).toBeVisible();
  await expect(page.getByLabel('Registro MTC')).toHaveValue('1532CXNO');
  await page.reload();
  await expect(page.getByLabel('Registro MTC')).toHaveValue('1532CXNO');
  await expect(page.getByText(/Última modificación: /)).toBeVisible();
  await page.screenshot({ path: 'test-results/company-1366.png', fullPage: true });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: 'test-results/company-1024.png', fullPage: true });
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();

  await loginAndWait(page, 'AGENTE1');
  await expect(page.getByRole('link', { name: 'Empresa' })).toHaveCount(0);
  await page.goto('/configuracion/empresa');
  await expect(page).toHaveURL(/\/forbidden$/);
});
