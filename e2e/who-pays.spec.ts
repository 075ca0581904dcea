import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, createShipment, giveFleetDocuments, loginAndWait, logout, unique } from './support.ts';

const SHOTS = process.env.WHO_PAYS_SHOTS ?? 'test-results/who-pays';

async function headersOf(request: APIRequestContext, username: 'ADMIN' | 'AGENTE1' | 'AGENTE2') {
  return { authorization: `Bearer ${await apiToken(request, username)}` };
}

/** The label as the printer gets it (print CSS sized to the label), as a PDF and its first page as a PNG. */
async function labelPdf(page: Page, width: '58' | '80', name: string) {
  const modal = page.getByRole('dialog', { name: /^Etiqueta TMT-/ });
  await modal.getByText(`${width} mm`).click();
  await expect(modal.getByTestId('label-due').first()).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  const pdf = `${SHOTS}/${name}.pdf`;
  await page.pdf({ path: pdf, preferCSSPageSize: true, printBackground: true });
  await page.emulateMedia({ media: null });
  execFileSync('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', '-singlefile', pdf, `${SHOTS}/${name}`]);
  const text = execFileSync('pdftotext', [pdf, '-']).toString();
  return text;
}

/**
 * Issue 33: AGENTE1 (Lima) registers a pago en destino shipment to Arequipa; it travels; AGENTE2
 * (Arequipa) cannot deliver it unpaid, collects it with a boleta to the recipient in her own cash
 * session from the Entregas screen, then delivers it.
 */
test('pago en destino: Lima registers it, Arequipa cannot deliver unpaid, collects with a boleta, then delivers', async ({ page, request }) => {
  test.setTimeout(180_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const recipientLast = 'Flores Ccori';

  // Lima's counter: the new-shipment form, the recipient pays at the destination.
  await loginAndWait(page, 'AGENTE1');
  await page.goto('/shipments/new');
  await page.getByLabel('Nombre del remitente').fill('Comercial Andina SAC');
  await page.getByLabel('DNI/RUC del destinatario').fill('45879612');
  await page.getByLabel('Nombres').fill('María');
  await page.getByLabel('Apellidos').fill(recipientLast);
  await page.getByRole('combobox', { name: 'Destino' }).click();
  await page.getByRole('option', { name: 'Arequipa' }).click();
  await page.getByLabel('Peso de la línea 1').fill('2.5');
  await page.getByLabel('Clave secreta').fill('clave-7');
  const whoPays = page.getByTestId('who-pays');
  await expect(whoPays.getByRole('radio', { name: 'Remitente' })).toBeChecked();
  await expect(whoPays.getByRole('radio', { name: 'En origen' })).toBeChecked();
  await expect(whoPays.getByText('Crédito')).toHaveCount(0);
  // The sender does not pay at the destination: choosing 'En destino' hands it to the recipient.
  await whoPays.getByText('En destino').click();
  await expect(whoPays.getByRole('radio', { name: 'Destinatario' })).toBeChecked();
  await expect(whoPays).toContainText('por cobrar al entregar');
  await whoPays.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/form.png` });
  await page.getByRole('button', { name: 'Crear envío' }).click();
  const code = (await page.getByTestId('created-code').textContent())!.trim();
  expect(code).toMatch(/^TMT-\d{6}$/);

  const lima = await headersOf(request, 'AGENTE1');
  const created = (await (await request.get(`/api/shipments/code/${code}`, { headers: lima })).json()) as {
    id: number;
    quotedPrice: number;
    payer: string;
    paymentMoment: string;
  };
  expect(created).toMatchObject({ payer: 'destinatario', paymentMoment: 'destino' });
  const due = `S/ ${created.quotedPrice.toFixed(2)}`;
  const refusal = `Cobra el flete antes de entregar: ${due} por cobrar.`;

  // The detail says who pays, when and how much is owed; the label and the 80 mm ticket say it too.
  await page.goto(`/shipments/${created.id}`);
  const box = page.getByTestId('who-pays-box');
  await expect(box).toContainText('Destinatario');
  await expect(box).toContainText('Pago en destino');
  await expect(box).toContainText(due.replace(' ', '\u00a0'));
  await expect(box.getByRole('button', { name: 'Cambiar' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/detail.png`, fullPage: true });
  await page.getByRole('button', { name: 'Imprimir etiqueta' }).click();
  expect((await labelPdf(page, '58', 'label-58')).replace(/\s+/g, ' ')).toContain(`PAGO EN DESTINO ${due}`);
  expect((await labelPdf(page, '80', 'ticket-80')).replace(/\s+/g, ' ')).toContain(`PAGO EN DESTINO ${due}`);
  await page.keyboard.press('Escape');

  // The list's chip.
  await page.goto(`/shipments?q=${code}`);
  await expect(page.getByRole('row', { name: new RegExp(code) }).getByText('Paga destino')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/list.png` });
  await logout(page);

  // The trip: loaded and departed at Lima, arrived at Arequipa.
  const admin = await headersOf(request, 'ADMIN');
  const arequipa = await headersOf(request, 'AGENTE2');
  const branches = (await (await request.get('/api/branches', { headers: admin })).json()) as { id: number; name: string }[];
  const id = (name: string) => branches.find((b) => b.name === name)!.id;
  const transport = await request.post('/api/transports', {
    headers: admin,
    data: {
      plate_primary: `PD-${unique('').slice(-4)}`.slice(0, 7),
      capacity_kg: 500,
      origin_branch_id: id('Lima'),
      destination_branch_id: id('Arequipa'),
    },
  });
  expect(transport.status(), await transport.text()).toBe(201);
  const transportId = ((await transport.json()) as { id: number }).id;
  await giveFleetDocuments(request, admin, 'transports', transportId);
  const step = async (path: string, headers: Record<string, string>, data: unknown, status: number) => {
    const res = await request.post(`/api${path}`, { headers, data });
    expect(res.status(), await res.text()).toBe(status);
  };
  await step(`/transports/${transportId}/assignments`, lima, { shipmentIds: [created.id] }, 201);
  await step(`/transports/${transportId}/departure`, lima, {}, 201);
  await step(`/transports/${transportId}/arrival`, arequipa, {}, 200);

  // Arequipa's /pagos lists it under 'Por cobrar en destino'.
  await loginAndWait(page, 'AGENTE2');
  await page.goto('/pagos');
  const dueList = page.getByRole('table', { name: 'Por cobrar en destino' });
  await expect(dueList.getByRole('row').filter({ hasText: code })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/pagos-por-cobrar-en-destino.png`, fullPage: true });

  // Entregas: the delivery is refused while unpaid, with the API's words.
  await page.goto(`/deliveries?code=${code}`);
  const collect = page.getByTestId('collect-freight');
  await expect(collect).toContainText(refusal);
  const form = page.getByRole('form', { name: 'Confirmar entrega' });
  await form.getByLabel('Clave secreta').fill('clave-7');
  await form.getByRole('button', { name: 'Confirmar entrega' }).click();
  await expect(form.getByText(refusal)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/entregas-unpaid.png` });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: `${SHOTS}/entregas-unpaid-1024.png` });
  await page.setViewportSize({ width: 1366, height: 768 });

  // 'Cobrar': the payment modal, to the recipient who pays; a boleta in AGENTE2's session.
  await collect.getByRole('button', { name: 'Cobrar' }).click();
  const modal = page.getByRole('dialog', { name: 'Registrar pago del envío' });
  await expect(modal.getByLabel('Documento del cliente (DNI o RUC)')).toHaveValue('45879612');
  await expect(modal.getByLabel('Nombre del cliente')).toHaveValue(`María ${recipientLast}`);
  await expect(modal.getByText('Se emitirá una boleta')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/cobrar-modal.png`, fullPage: true });
  await modal.getByRole('button', { name: 'Registrar pago' }).click();
  const viewer = page.getByRole('dialog', { name: /^B\w{3}-\d{8} · ticket$/ });
  await expect(viewer).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('collect-freight')).toHaveCount(0);

  const mine = (await (await request.get('/api/payments/manual', { headers: arequipa })).json()) as {
    items: { shipmentCode: string; status: string; branchId: number; userName: string }[];
  };
  expect(mine.items.find((p) => p.shipmentCode === code)).toMatchObject({ status: 'paid', branchId: id('Arequipa') });

  // Now it goes out.
  await form.getByLabel('Clave secreta').fill('clave-7');
  await form.getByRole('button', { name: 'Confirmar entrega' }).click();
  await expect(page.getByText('Entrega confirmada.')).toBeVisible();
  await expect(page.getByLabel('Entrega registrada')).toContainText('Envío entregado');
});

test('the public page says what the recipient pays at the destination', async ({ page, request }) => {
  const lima = await headersOf(request, 'AGENTE1');
  const branches = (await (await request.get('/api/branches', { headers: lima })).json()) as { id: number; name: string }[];
  const id = (name: string) => branches.find((b) => b.name === name)!.id;
  const res = await request.post('/api/shipments', {
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
      payer: 'destinatario',
      paymentMoment: 'destino',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const shipment = (await res.json()) as { code: string; quotedPrice: number };
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/seguimiento/${shipment.code}`);
  const digits = page.getByRole('textbox', { name: 'Últimos 3 dígitos del documento' });
  await digits.fill('612');
  await digits.press('Enter');
  await expect(page.locator('article.card')).toContainText(`Pago en destino: S/ ${shipment.quotedPrice.toFixed(2)}`);
  await page.screenshot({ path: `${SHOTS}/public-360.png`, fullPage: true });
});

test('the origin changes who pays from the detail while the shipment waits at the counter: a third party at the destination', async ({
  page,
  request,
}) => {
  const shipment = await createShipment(request);
  await loginAndWait(page, 'AGENTE1');
  await page.goto(`/shipments/${shipment.id}`);
  const box = page.getByTestId('who-pays-box');
  await expect(box).toContainText('Remitente');
  await expect(box).toContainText('Contado en origen');
  await box.getByRole('button', { name: 'Cambiar' }).click();
  const modal = page.getByRole('dialog', { name: `Pago del flete · ${shipment.code}` });
  await modal.getByText('Tercero').click();
  await modal.getByText('En destino').click();
  await modal.getByRole('button', { name: 'Guardar' }).click();
  await expect(modal.getByText('Indica el documento y el nombre del tercero que paga.').first()).toBeVisible();
  await modal.getByLabel(/Documento del tercero/).fill('20123456786');
  await modal.getByLabel(/Nombre del tercero/).fill('Importaciones Sur SAC');
  await page.screenshot({ path: `${SHOTS}/cambiar-modal.png` });
  await modal.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Pago del flete actualizado.')).toBeVisible();
  await expect(box).toContainText('Importaciones Sur SAC');
  await expect(box).toContainText('RUC 20123456786');
  await expect(box).toContainText('Pago en destino');
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: `${SHOTS}/detail-tercero-1024.png`, fullPage: true });
});
