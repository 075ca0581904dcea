import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO, loginAndWait } from './support.ts';

/**
 * Issue 18, the customer's side: the public page opened from the label's QR on a phone, and a
 * delivery with a photo and a signature whose POD PDF carries both.
 */

async function apiToken(request: APIRequestContext, username: keyof typeof DEMO) {
  const res = await request.post('/api/auth/login', { data: { username, password: DEMO[username] } });
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { token: string }).token;
}

/** A new Lima → Arequipa shipment (secret 1234) for Luis Mendoza → María Peña. */
async function newShipment(request: APIRequestContext): Promise<{ id: number; code: string }> {
  const headers = { authorization: `Bearer ${await apiToken(request, 'AGENTE1')}` };
  const branches = (await (await request.get('/api/branches', { headers })).json()) as { id: number; name: string }[];
  const id = (name: string) => branches.find((b) => b.name === name)!.id;
  const res = await request.post('/api/shipments', {
    headers,
    data: {
      senderName: 'Luis Mendoza',
      recipientDoc: '45879612',
      recipientFirstName: 'María',
      recipientLastName: 'Peña Ccori',
      originBranchId: id('Lima'),
      destinationBranchId: id('Arequipa'),
      lines: [{ productType: 'liviano', weightKg: 2.5 }],
      secretCode: '1234',
      recipientEmail: 'maria@correo.pe',
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: number; code: string };
}

/** A 48×32 JPEG 'photo' (drawn once in Chromium). */
const PHOTO = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wAARCAAgADADASIAAhEBAxEB/8QAFwABAQEBAAAAAAAAAAAAAAAABAIFBv/EABYQAAMAAAAAAAAAAAAAAAAAAAACA//EABUBAQEAAAAAAAAAAAAAAAAAAAQF/8QAFREBAQAAAAAAAAAAAAAAAAAAAgD/2gAMAwEAAhEDEQA/AM2aiZqRNRE1DtUkGuaiZqRNRE1BtTAa5qJmpE1ETUI1LBuamomakTUTNR7UAGuaiJqRNRM1CNSwa5qImpE1EzUI1MBv/9k=',
  'base64',
);

test('the label QR opens the public page on a 360 px phone: masked names, timeline, small bundle, same 404 for any bad code', async ({
  page,
  browser,
  request,
}) => {
  const shipment = await newShipment(request);
  await loginAndWait(page, 'AGENTE1');
  await page.goto(`/shipments/${shipment.id}`);
  await page.getByRole('button', { name: 'Imprimir etiqueta' }).click();
  const qr = page.getByRole('dialog').getByTestId('tracking-qr');
  await expect(qr).toBeVisible();
  const url = await qr.getAttribute('data-url');
  // With the link's key (issue 31): the code alone shows only the status.
  expect(url).toMatch(new RegExp(`/seguimiento/${shipment.code}\\?k=[A-Za-z0-9_-]{10}$`));
  // The detail page carries the same link for the counter to share.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('link', { name: url! })).toBeVisible();

  // Issue #38: what staff type stays internal unless they mark it 'Visible para el cliente'.
  const eventForm = page.getByRole('form', { name: 'Agregar evento' });
  const eventName = eventForm.getByRole('textbox', { name: 'Evento' });
  const history = page.getByLabel('Historial');
  await eventName.fill('Cliente llamó para consultar');
  await eventForm.getByRole('button', { name: 'Agregar evento' }).click();
  await expect(history).toContainText('Cliente llamó para consultar');
  await expect(history).toContainText(' · Interno');
  await eventName.fill('Llegó a almacén central');
  const visible = eventForm.getByRole('checkbox', { name: 'Visible para el cliente' });
  await expect(visible).not.toBeChecked();
  await visible.check();
  for (const width of [1366, 1024]) {
    await page.setViewportSize({ width, height: 768 });
    await eventForm.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/add-event-visible-${width}.png` });
  }
  await eventForm.getByRole('button', { name: 'Agregar evento' }).click();
  await expect(history).toContainText('Llegó a almacén central');
  await expect(history).toContainText('Visible para el cliente');
  await expect(visible).not.toBeChecked();

  // A customer's phone: no session, 360 px wide.
  const phone = await browser.newContext({
    viewport: { width: 360, height: 740 },
    locale: 'es-PE',
    timezoneId: 'America/Lima',
    isMobile: true,
    hasTouch: true,
  });
  const customer = await phone.newPage();
  await customer.goto(url!);
  const card = customer.locator('article.card');
  await expect(card.getByRole('heading', { name: shipment.code })).toBeVisible();
  await expect(card).toContainText('Creado');
  await expect(card).toContainText('Lima → Arequipa');
  await expect(card).toContainText('L*** M******');
  await expect(card).toContainText('M**** P*** C****');
  await expect(card).not.toContainText('45879612');
  await expect(card).not.toContainText('María');
  // Milestones and the one event marked visible; the clerk's note stays internal.
  await expect(card.getByRole('listitem')).toHaveText([/Llegó a almacén central/, /Creado/]);
  await expect(card).not.toContainText('Cliente llamó');
  // Nothing wider than the phone.
  expect(await customer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await customer.screenshot({ path: 'test-results/public-tracking-360.png', fullPage: true });
  for (const width of [1366, 1024]) {
    await customer.setViewportSize({ width, height: 768 });
    await customer.screenshot({ path: `test-results/public-tracking-${width}.png`, fullPage: true });
  }
  await customer.setViewportSize({ width: 360, height: 740 });

  // The code typed alone (codes are sequential): the status, and the document digits open the rest.
  await customer.goto(`/seguimiento/${shipment.code}`);
  await expect(card.locator('.chip')).toHaveText('Creado');
  await expect(card).not.toContainText('Lima → Arequipa');
  await expect(card).not.toContainText('M**** P*** C****');
  const digits = card.getByRole('textbox', { name: 'Últimos 3 dígitos del documento' });
  await expect(digits).toBeFocused();
  await customer.screenshot({ path: 'test-results/public-tracking-360-no-key.png', fullPage: true });
  await digits.fill('611');
  await digits.press('Enter');
  await expect(card.getByRole('alert')).toHaveText('Los dígitos no coinciden con el documento del destinatario.');
  await digits.fill('612');
  await digits.press('Enter');
  await expect(customer.locator('article.card')).toContainText('Lima → Arequipa');
  await expect(customer.locator('article.card')).toContainText('M**** P*** C****');
  await expect(customer.locator('article.card').getByRole('listitem')).toHaveText([/Llegó a almacén central/, /Creado/]);

  // Its own bundle: no staff app, and well under 60 kB of compressed JavaScript.
  const scripts = await customer.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((r) => r.name.endsWith('.js'))
      .map((r) => ({ name: r.name, bytes: (r as PerformanceResourceTiming).encodedBodySize })),
  );
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.every((s) => !/\/main-/.test(s.name))).toBe(true);
  expect(scripts.reduce((sum, s) => sum + s.bytes, 0)).toBeLessThan(60_000);

  // The search box, and the same answer for an unknown and a malformed code.
  await customer.goto('/seguimiento');
  const box = customer.getByRole('searchbox', { name: 'Código de envío' });
  await expect(box).toBeFocused();
  for (const code of ['TMT-999999', 'no-es-un-codigo']) {
    await box.fill(code);
    await box.press('Enter');
    await expect(customer.getByRole('alert')).toHaveText('No encontramos ese envío.');
  }
  await box.fill(shipment.code.toLowerCase());
  await box.press('Enter');
  await expect(customer.getByRole('heading', { name: shipment.code })).toBeVisible();
  await phone.close();
});

test('a delivery with a photo and a drawn signature gives a POD PDF with both images; the public page offers the constancia', async ({
  page,
  browser,
  request,
}) => {
  const shipment = await newShipment(request);
  await loginAndWait(page, 'ADMIN');
  await page.goto(`/deliveries?code=${shipment.code}`);
  const form = page.getByRole('form', { name: 'Confirmar entrega' });
  await form.getByLabel('Clave secreta').fill('1234');
  await form.getByRole('combobox', { name: 'Entregado por' }).click();
  await page.getByRole('option', { name: /REPARTIDOR1/ }).click();
  await form.locator('input[type=file]').setInputFiles({ name: 'entrega.jpg', mimeType: 'image/jpeg', buffer: PHOTO });
  await expect(form.getByRole('img', { name: 'Foto de la entrega' })).toBeVisible();
  // A signature drawn with the mouse.
  const pad = form.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const area = (await pad.boundingBox())!;
  await page.mouse.move(area.x + 20, area.y + 90);
  await page.mouse.down();
  for (let i = 1; i <= 25; i++) await page.mouse.move(area.x + 20 + i * 12, area.y + 90 - Math.sin(i / 3) * 40, { steps: 2 });
  await page.mouse.up();
  await expect(form.getByText('Firma registrada.')).toBeVisible();
  await form.getByRole('button', { name: 'Confirmar entrega' }).click();

  const delivered = page.getByRole('region', { name: 'Entrega registrada' });
  await expect(delivered.getByRole('img', { name: 'Foto de la entrega' })).toBeVisible();
  await expect(delivered.getByRole('img', { name: 'Firma de quien recibió' })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    delivered.getByRole('button', { name: 'Descargar constancia (PDF)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`constancia-${shipment.code}.pdf`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-pod-e2e-'));
  try {
    const pdf = path.join(dir, 'pod.pdf');
    await download.saveAs(pdf);
    // Rendered, and two images in it: the photo and the signature (a PNG's transparency mask aside).
    execFileSync('pdftoppm', ['-png', '-r', '60', pdf, path.join(dir, 'page')]);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('page') && f.endsWith('.png'))).toHaveLength(1);
    const images = execFileSync('pdfimages', ['-list', pdf], { encoding: 'utf8' }).trim().split('\n').slice(2);
    expect(images.filter((line) => !/\bsmask\b/.test(line))).toHaveLength(2);
    expect(execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' })).toContain('Jorge Mamani');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  // The customer's page: delivered, with the constancia (no photo or signature in it).
  const phone = await browser.newContext({
    viewport: { width: 360, height: 740 },
    locale: 'es-PE',
    timezoneId: 'America/Lima',
    acceptDownloads: true,
  });
  const customer = await phone.newPage();
  await customer.goto(`/seguimiento/${shipment.code}`);
  await expect(customer.locator('.chip')).toHaveText('Entregado');
  await expect(customer.getByRole('link', { name: 'Descargar constancia' })).toHaveCount(0);
  const digits = customer.getByRole('textbox', { name: 'Últimos 3 dígitos del documento' });
  await digits.fill('612');
  await digits.press('Enter');
  const [publicCopy] = await Promise.all([customer.waitForEvent('download'), customer.getByRole('link', { name: 'Descargar constancia' }).click()]);
  const publicPdf = path.join(os.tmpdir(), `tramo-pod-public-${Date.now()}.pdf`);
  await publicCopy.saveAs(publicPdf);
  try {
    expect(execFileSync('pdfimages', ['-list', publicPdf], { encoding: 'utf8' }).trim().split('\n').slice(2)).toEqual([]);
  } finally {
    fs.rmSync(publicPdf, { force: true });
  }
  await phone.close();
});
