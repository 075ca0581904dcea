import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO, giveFleetDocuments, loginAndWait, unique } from './support.ts';

/** A small JPEG, as a phone camera would hand it over. */
const PHOTO = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wAARCAAgADADASIAAhEBAxEB/8QAFwABAQEBAAAAAAAAAAAAAAAABAIFBv/EABYQAAMAAAAAAAAAAAAAAAAAAAACA//EABUBAQEAAAAAAAAAAAAAAAAAAAQF/8QAFREBAQAAAAAAAAAAAAAAAAAAAgD/2gAMAwEAAhEDEQA/AM2aiZqRNRE1DtUkGuaiZqRNRE1BtTAa5qJmpE1ETUI1LBuamomakTUTNR7UAGuaiJqRNRM1CNSwa5qImpE1EzUI1MBv/9k=',
  'base64',
);

async function apiHeaders(request: APIRequestContext, username: keyof typeof DEMO) {
  const res = await request.post('/api/auth/login', { data: { username, password: DEMO[username] } });
  expect(res.ok()).toBeTruthy();
  return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
}

/**
 * Issue 17: a parcel travels Lima → Arequipa; the Arequipa counter returns it to its origin from the
 * shipment's page and both shipments link to each other; the transport's trips page lists the trip
 * and opens its manifest.
 */
test('return a shipment En agencia, see both linked, then open the trips page and its manifest', async ({ page, request }) => {
  const admin = await apiHeaders(request, 'ADMIN');
  const lima = await apiHeaders(request, 'AGENTE1');
  const arequipa = await apiHeaders(request, 'AGENTE2');
  const branches = (await (await request.get('/api/branches', { headers: admin })).json()) as { id: number; name: string }[];
  const id = (name: string) => branches.find((b) => b.name === name)!.id;
  const plate = `RT-${unique('').slice(-4)}`.slice(0, 7);
  const transport = await request.post('/api/transports', {
    headers: admin,
    data: { plate_primary: plate, capacity_kg: 500, origin_branch_id: id('Lima'), destination_branch_id: id('Arequipa') },
  });
  expect(transport.status(), await transport.text()).toBe(201);
  const { id: transportId, plate_primary: savedPlate } = (await transport.json()) as { id: number; plate_primary: string };
  await giveFleetDocuments(request, admin, 'transports', transportId);
  const created = await request.post('/api/shipments', {
    headers: lima,
    data: {
      senderName: 'Comercial Andina SAC',
      recipientDoc: '45879612',
      recipientFirstName: 'María',
      recipientLastName: 'Flores',
      originBranchId: id('Lima'),
      destinationBranchId: id('Arequipa'),
      lines: [{ productType: 'liviano', weightKg: 3 }],
      secretCode: 'clave-1',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const shipment = (await created.json()) as { id: number; code: string };
  const step = async (path: string, headers: Record<string, string>, data: unknown, status: number) => {
    const res = await request.post(`/api${path}`, { headers, data });
    expect(res.status(), await res.text()).toBe(status);
  };
  await step(`/transports/${transportId}/assignments`, lima, { shipmentIds: [shipment.id] }, 201);
  await step(`/transports/${transportId}/departure`, lima, {}, 201);
  await step(`/transports/${transportId}/arrival`, arequipa, {}, 200);

  // Arequipa holds the parcel (En agencia): it sends it back.
  await loginAndWait(page, 'AGENTE2');
  await page.goto(`/shipments/${shipment.id}`);
  await expect(page.getByText('En agencia').first()).toBeVisible();
  await page.getByRole('button', { name: 'Devolver a origen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Devolver a origen' });
  await dialog.getByRole('button', { name: 'Devolver a origen' }).click();
  await expect(dialog.getByText('Indica el motivo de la devolución.')).toBeVisible();
  await dialog.getByLabel('Motivo').fill('Destinatario no ubicable');
  await dialog.getByLabel('Clave secreta del retorno').fill('vuelta-1');
  await page.screenshot({ path: '/tmp/returns2-shots/return-dialog.png', fullPage: true });
  // The first answer is lost on its way back, after the server made the return: the agent submits
  // again and, with the dialog's same Idempotency-Key, gets that return, not 'ya fue devuelto'.
  let answers = 0;
  await page.route('**/api/shipments/*/return', async (route) => {
    if (answers++ > 0) return route.continue();
    await route.fetch();
    await route.abort('failed');
  });
  await dialog.getByRole('button', { name: 'Devolver a origen' }).click();
  await expect(page.getByText('Error de red')).toBeVisible();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Devolver a origen' }).click();
  await expect(dialog).toBeHidden();
  expect(answers).toBe(2);
  await page.unrouteAll();

  const returnedAs = page.getByText(/Devuelto como/);
  await expect(returnedAs).toBeVisible();
  await expect(page.getByText('Devuelto', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Devuelto a origen: Destinatario no ubicable')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Devolver a origen' })).toHaveCount(0);
  await page.screenshot({ path: '/tmp/returns2-shots/returned-original.png', fullPage: true });
  await returnedAs.getByRole('link').click();
  await expect(page.getByText(`Retorno de ${shipment.code}`, { exact: true })).toBeVisible();
  await expect(page.getByText('Creado').first()).toBeVisible();
  await page.screenshot({ path: '/tmp/returns2-shots/return-leg.png', fullPage: true });

  // An incident with a photo: it is sent and the Incidencias box shows it.
  const box = page.getByLabel('Incidencias');
  await box.getByRole('button', { name: 'Registrar incidencia' }).click();
  await box.getByRole('combobox', { name: 'Motivo' }).click();
  await page.getByRole('option').first().click();
  await box.locator('input[type=file]').setInputFiles({ name: 'caja.jpg', mimeType: 'image/jpeg', buffer: PHOTO });
  await expect(box.getByRole('img', { name: 'Foto de la incidencia' })).toBeVisible();
  await page.screenshot({ path: '/tmp/returns2-shots/incident-form-photo.png', fullPage: true });
  const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/incidents'));
  await box.getByRole('button', { name: 'Registrar', exact: true }).click();
  expect(((await sent).postDataJSON() as { photo?: string }).photo).toMatch(/^data:image\/jpeg;base64,/);
  await expect(box.getByRole('img', { name: /^Foto de la incidencia: / })).toBeVisible();
  await page.screenshot({ path: '/tmp/returns2-shots/incident-shown.png', fullPage: true });
  await page.getByRole('link', { name: shipment.code }).click();
  await expect(page).toHaveURL(new RegExp(`/shipments/${shipment.id}$`));

  // The transport's trips: from Transportes to its page, then the trip's manifest.
  await page.goto(`/transportistas/${transportId}/viajes`);
  await expect(page.getByRole('heading', { name: `Viajes de ${savedPlate}` })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'Lima → Arequipa' });
  await expect(row).toContainText('Llegó');
  await expect(row).toContainText('3.00 kg');
  await page.screenshot({ path: '/tmp/returns2-shots/trips-page.png', fullPage: true });
  const manifest = page.waitForResponse((r) => /\/api\/trips\/\d+\/manifest\.pdf/.test(r.url()));
  await row.getByRole('button', { name: 'Manifiesto' }).click();
  const pdf = await manifest;
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  await expect(page.getByTitle(`PDF manifiesto-${savedPlate}-viaje-`, { exact: false })).toBeVisible();
});
