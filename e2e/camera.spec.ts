import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import JsBarcode from 'jsbarcode';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import config from '../playwright.config.ts';
import { createShipment, DEMO, giveFleetDocuments, loginAndWait, unique } from './support.ts';

/**
 * Issue 17 item 4: the 'Cámara' button reads a label's barcode through the tablet's camera. Chromium
 * plays a file as its camera; the file is one frame made here from the Code 128 bars of a shipment
 * created now, drawn by JsBarcode as the printed label draws them. Chromium on Linux has no
 * BarcodeDetector, so this reads through zxing-wasm.
 */
const baseURL = config.use!.baseURL!;
const video = path.join(os.tmpdir(), `tramo-camera-${new URL(baseURL).port}.y4m`);

test.use({
  launchOptions: {
    ...config.use!.launchOptions,
    args: [
      ...config.use!.launchOptions!.args!,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  },
});

/** One Y4M frame (4:2:0, grey) of `code`'s Code 128 bars, black on white, quiet zones included. */
function writeBarcodeVideo(file: string, code: string) {
  const encoded: { encodings?: { data: string }[] } = {};
  JsBarcode(encoded, code, { format: 'CODE128' });
  const modules = '0'.repeat(10) + encoded.encodings!.map((e) => e.data).join('') + '0'.repeat(10);
  const [width, height, moduleWidth, barTop, barBottom] = [640, 480, 3, 140, 340];
  expect(modules.length * moduleWidth).toBeLessThan(width);
  const left = Math.floor((width - modules.length * moduleWidth) / 2);
  // Studio-range luma: 235 white, 16 black; chroma 128 is no colour.
  const luma = Buffer.alloc(width * height, 235);
  for (let y = barTop; y < barBottom; y++)
    for (let x = 0; x < modules.length * moduleWidth; x++) if (modules[Math.floor(x / moduleWidth)] === '1') luma[y * width + left + x] = 16;
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\nFRAME\n`), luma, chroma]));
}

let shipmentCode = '';
let transportId = 0;
let plate = '';

test.beforeAll(async () => {
  // Before the browser starts, so its camera plays this shipment's label.
  const api = await playwrightRequest.newContext({ baseURL });
  const login = await api.post('/api/auth/login', { data: { username: 'ADMIN', password: DEMO.ADMIN } });
  const admin = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const branches = (await (await api.get('/api/branches', { headers: admin })).json()) as { id: number; name: string }[];
  const id = (name: string) => branches.find((b) => b.name === name)!.id;
  const transport = await api.post('/api/transports', {
    headers: admin,
    data: {
      plate_primary: `CAM-${unique('').slice(-3)}`,
      capacity_kg: 500,
      origin_branch_id: id('Lima'),
      destination_branch_id: id('Arequipa'),
      make: 'Hino',
    },
  });
  expect(transport.status(), await transport.text()).toBe(201);
  ({ id: transportId, plate_primary: plate } = (await transport.json()) as { id: number; plate_primary: string });
  await giveFleetDocuments(api, admin, 'transports', transportId);
  shipmentCode = (await createShipment(api)).code;
  writeBarcodeVideo(video, shipmentCode);
  await api.dispose();
});

test.afterAll(() => fs.rmSync(video, { force: true }));

test('the camera reads a label: Asignaciones loads the shipment, Entregas opens it; the decoder comes from our server only when the camera opens', async ({
  page,
}) => {
  // Every stream the page opens, to see that closing the camera stops it.
  await page.addInitScript(() => {
    const streams: MediaStream[] = [];
    (window as unknown as { cameraStreams: MediaStream[] }).cameraStreams = streams;
    const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await open(constraints);
      streams.push(stream);
      return stream;
    };
  });
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  const liveTracks = () =>
    page.evaluate(
      () =>
        (window as unknown as { cameraStreams: MediaStream[] }).cameraStreams.flatMap((s) => s.getTracks()).filter((t) => t.readyState === 'live')
          .length,
    );

  await loginAndWait(page, 'AGENTE1');
  await page.goto(`/transportistas?tab=asignaciones&transporte=${transportId}`);
  await expect(page.getByRole('textbox', { name: 'Código del envío a cargar' })).toBeFocused();
  expect(
    requested.filter((u) => /zxing/.test(u)),
    'the decoder is not part of the first load',
  ).toEqual([]);

  await page.getByRole('button', { name: 'Cámara: Cargar escaneando con la cámara' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cargar escaneando con la cámara' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('status')).toHaveText(`${shipmentCode} cargado en ${plate}.`, { timeout: 30_000 });
  await expect(dialog.getByLabel('Imagen de la cámara')).toHaveAttribute('data-engine', 'zxing');
  // The same label still in front of the lens is not loaded twice ('ya está cargado' would show).
  await page.waitForTimeout(2500);
  await expect(dialog.getByRole('status')).toHaveText(`${shipmentCode} cargado en ${plate}.`);
  expect(await liveTracks()).toBeGreaterThan(0);
  await page.screenshot({ path: 'reports/camera-modal.png' });
  const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  const wasm = requested.filter((u) => u.endsWith('.wasm'));
  expect(wasm).toHaveLength(1);
  expect(new URL(wasm[0]!).origin, 'the .wasm is our own file, not a CDN').toBe(new URL(baseURL).origin);
  expect(requested.filter((u) => !u.startsWith(new URL(baseURL).origin) && !u.startsWith('data:') && !u.startsWith('blob:'))).toEqual([]);

  await dialog.getByRole('button', { name: 'Cerrar', exact: true }).click();
  await expect(dialog).toBeHidden();
  expect(await liveTracks(), 'closing the camera stops it').toBe(0);
  await expect(page.getByRole('textbox', { name: 'Código del envío a cargar' })).toBeFocused();
  await expect(page.getByText('Paquetes cargados (1)')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `${shipmentCode} cargado en ${plate}.` })).toBeVisible();

  // Entregas: one read opens the shipment and closes the camera.
  await page.goto('/deliveries');
  await page.getByRole('button', { name: 'Cámara: Escanear el envío con la cámara' }).click();
  await expect(page).toHaveURL(new RegExp(`code=${shipmentCode}`), { timeout: 30_000 });
  await expect(page.getByRole('dialog', { name: 'Escanear el envío con la cámara' })).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Código de envío' })).toHaveValue(shipmentCode);
  expect(await liveTracks()).toBe(0);
});
