import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO, giveFleetDocuments, loginAndWait, logout, unique } from './support.ts';

async function apiHeaders(request: APIRequestContext, username: keyof typeof DEMO) {
  const res = await request.post('/api/auth/login', { data: { username, password: DEMO[username] } });
  expect(res.ok()).toBeTruthy();
  return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
}

/**
 * Issue 17 end to end: a Lima counter loads three parcels by typing their codes + Enter as a USB
 * scanner does (keyboard only, issue 16), prints the manifest and registers the departure;
 * Arequipa scans two of the three off the truck and closes the check; the Panel shows the incident
 * of the third.
 */
test('load by scanning, print the manifest, depart, receive two of three, see the incident on the Panel', async ({ page, request }) => {
  const admin = await apiHeaders(request, 'ADMIN');
  const branches = (await (await request.get('/api/branches', { headers: admin })).json()) as { id: number; name: string }[];
  const id = (name: string) => branches.find((b) => b.name === name)!.id;
  const plate = `E2E-${unique('').slice(-3)}`.slice(0, 7);
  const transport = await request.post('/api/transports', {
    headers: admin,
    data: { plate_primary: plate, capacity_kg: 500, origin_branch_id: id('Lima'), destination_branch_id: id('Arequipa'), make: 'Hino' },
  });
  expect(transport.status(), await transport.text()).toBe(201);
  const { id: transportId, plate_primary: savedPlate } = (await transport.json()) as { id: number; plate_primary: string };
  await giveFleetDocuments(request, admin, 'transports', transportId);

  const agent = await apiHeaders(request, 'AGENTE1');
  const newShipment = async (destination: string, weightKg: number) => {
    const res = await request.post('/api/shipments', {
      headers: agent,
      data: {
        senderName: 'Comercial Andina SAC',
        recipientDoc: '45879612',
        recipientFirstName: 'María',
        recipientLastName: 'Flores',
        originBranchId: id('Lima'),
        destinationBranchId: id(destination),
        description: 'Caja',
        lines: [{ productType: 'liviano', weightKg }],
        secretCode: 'clave-1',
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { code: string }).code;
  };
  const codes = [await newShipment('Arequipa', 3), await newShipment('Arequipa', 4.5), await newShipment('Arequipa', 2)];
  const toCusco = await newShipment('Cusco', 1);

  // Lima: keyboard only. The scan box has the focus and keeps it after every read.
  await loginAndWait(page, 'AGENTE1');
  await page.goto(`/transportistas?tab=asignaciones&transporte=${transportId}`);
  const box = page.getByRole('textbox', { name: 'Código del envío a cargar' });
  await expect(box).toBeFocused();
  for (const code of codes) {
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: `${code} cargado en ${savedPlate}.` })).toBeVisible();
    await expect(box).toBeFocused();
    await expect(box).toHaveValue('');
  }
  await page.keyboard.type(codes[0]!.toLowerCase());
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: `${codes[0]} ya está cargado en ${savedPlate}.` })).toBeVisible();
  await page.keyboard.type(toCusco);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: `El envío ${toCusco} va a Cusco, este transporte va a Arequipa` })).toBeVisible();
  await page.keyboard.type('TMT-999999');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'No existe el envío TMT-999999.' })).toBeVisible();
  await expect(page.getByText('Paquetes cargados (3)')).toBeVisible();
  await expect(page.getByLabel('Peso cargado')).toContainText('9.50 kg');
  await page.screenshot({ path: 'reports/trips-load.png', fullPage: true });

  // The manifest opens inside the page as a PDF.
  const manifest = page.waitForResponse((r) => r.url().includes(`/api/transports/${transportId}/manifest.pdf`));
  await page.getByRole('button', { name: 'Manifiesto de carga' }).click();
  const pdf = await manifest;
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  await expect(page.getByTitle(`PDF manifiesto-${savedPlate}`)).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Registrar salida' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Registrar salida' }).click();
  await expect(page.getByText(`Salida registrada: ${savedPlate} hacia Arequipa.`)).toBeVisible();
  await expect(page.getByText('En ruta hacia Arequipa')).toBeVisible();
  await expect(page.getByText('La llegada la registra la agencia de Arequipa.')).toBeVisible();
  await logout(page);

  // Arequipa: the unload check. Two of the three come off the truck.
  await loginAndWait(page, 'AGENTE2');
  await page.goto(`/transportistas?tab=asignaciones&transporte=${transportId}`);
  const unload = page.getByRole('textbox', { name: 'Código del envío que baja' });
  await expect(unload).toBeFocused();
  for (const code of codes.slice(0, 2)) {
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: `${code} bajó del transporte.` })).toBeVisible();
  }
  await expect(page.getByRole('table', { name: 'Faltantes' })).toContainText(codes[2]!);
  await expect(page.getByRole('table', { name: 'Escaneados' })).toContainText(codes[0]!);
  await page.screenshot({ path: 'reports/trips-unload.png', fullPage: true });
  await page.getByRole('button', { name: 'Registrar llegada' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('Falta 1 envío');
  await confirm.getByRole('button', { name: 'Registrar llegada' }).click();
  await expect(page.getByText('Llegada registrada en Arequipa.')).toBeVisible();

  // The Panel counts the incident of the third and opens the shipments that have one.
  await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Panel' }).click();
  const card = page.getByLabel('Contador Incidencias abiertas');
  await expect(card.getByTestId('counter-incidents')).not.toHaveText('0');
  await expect(card).toContainText(`Última: ${codes[2]} · Faltante en desembarque`);
  await card.getByRole('link', { name: 'Ver envíos' }).click();
  await expect(page).toHaveURL(/incidencia=abierta/);
  await expect(page.getByRole('row').filter({ hasText: codes[2]! })).toContainText('En tránsito');
  await expect(page.getByRole('row').filter({ hasText: codes[0]! })).toHaveCount(0);

  // The shipment's detail shows the incident; closing it takes the shipment out of the filter.
  await page
    .getByRole('row')
    .filter({ hasText: codes[2]! })
    .getByRole('link', { name: `Ver ${codes[2]}` })
    .click();
  const incidentsBox = page.getByLabel('Incidencias', { exact: true });
  await expect(incidentsBox).toContainText('Faltante en desembarque');
  await expect(incidentsBox).toContainText('Abierta');
  await page.screenshot({ path: 'reports/trips-incident-detail.png', fullPage: true });
  await incidentsBox.getByRole('button', { name: 'Cerrar' }).click();
  await expect(incidentsBox).toContainText('Cerrada');
});

test('the list shows the plate of a loaded shipment and offers no Anular; the assign dialog puts the route first and refuses maintenance', async ({
  page,
  request,
}) => {
  const agent = await apiHeaders(request, 'AGENTE1');
  const branches = (await (await request.get('/api/branches', { headers: agent })).json()) as { id: number; name: string }[];
  const id = (name: string) => branches.find((b) => b.name === name)!.id;
  const create = async () => {
    const res = await request.post('/api/shipments', {
      headers: agent,
      data: {
        senderName: 'Distribuidora Sur',
        recipientDoc: '45879612',
        recipientFirstName: 'Ana',
        recipientLastName: 'Quispe',
        originBranchId: id('Lima'),
        destinationBranchId: id('Arequipa'),
        lines: [{ productType: 'liviano', weightKg: 2 }],
        secretCode: 'clave-1',
      },
    });
    expect(res.status()).toBe(201);
    return (await res.json()) as { id: number; code: string };
  };
  const [loaded, free] = [await create(), await create()];
  const transports = (await (await request.get('/api/transports', { headers: agent, params: { limit: 200 } })).json()) as {
    items: { id: number; plate_primary: string; status: string; origin_branch_id: number | null; destination_branch_id: number | null }[];
  };
  const truck = transports.items.find((t) => t.plate_primary === 'ABC-123')!;
  expect((await request.post(`/api/transports/${truck.id}/assignments`, { headers: agent, data: { shipmentIds: [loaded.id] } })).status()).toBe(201);

  await loginAndWait(page, 'AGENTE1');
  await page.goto(`/shipments?q=${loaded.code}`);
  const row = page.getByRole('row').filter({ hasText: loaded.code });
  await expect(row.getByLabel('Cargado en ABC-123')).toBeVisible();
  await expect(row.getByRole('button', { name: `Anular ${loaded.code}` })).toHaveCount(0);
  await expect(row.getByRole('button', { name: `Asignar ${loaded.code} a transporte` })).toHaveCount(0);

  await page.goto(`/shipments?q=${free.code}`);
  await page
    .getByRole('row')
    .filter({ hasText: free.code })
    .getByRole('button', { name: `Asignar ${free.code} a transporte` })
    .click();
  const dialog = page.getByRole('dialog');
  const radios = dialog.getByRole('radio');
  await expect(radios.first()).toBeVisible();
  // The first offered transport runs Lima – Arequipa, the shipment's route; maintenance comes last and disabled.
  await expect(dialog.getByRole('paragraph').filter({ hasText: 'Lima – Arequipa' }).first()).toBeVisible();
  const first = dialog.locator('.mantine-Paper-root').first();
  await expect(first).toContainText('Lima – Arequipa');
  await expect(first).toContainText('Ruta del envío');
  await expect(dialog.getByText('Otra ruta').first()).toBeVisible();
  const maintenance = transports.items.filter((t) => t.status === 'mantenimiento');
  expect(maintenance.length).toBeGreaterThan(0);
  await expect(dialog.getByRole('radio', { disabled: true })).toHaveCount(maintenance.length);
  await expect(dialog.locator('.mantine-Paper-root').last()).toContainText('En mantenimiento: no se puede cargar.');
  await page.screenshot({ path: 'reports/trips-assign-dialog.png' });
  await page.keyboard.press('Escape');

  // Transportes shows each load's share of the capacity.
  await page.goto('/transportistas');
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: 'ABC-123' })
      .getByLabel(/Carga al \d+% de la capacidad/),
  ).toBeVisible();
  await page.screenshot({ path: 'reports/trips-transports.png' });
});
