import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';
import { PHOTO_JPEG, SIGNATURE_PNG } from './support/proof-images.ts';

/** Issue 31, F11: every stored photo is decoded and encoded again by the server; anything else is a 400. */
describe.each(engines)('stored photos (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let lima: number;
  let arequipa: number;

  beforeAll(async () => {
    t = await startTestApp(engine, { seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '1.4']] }) });
    admin = await t.login('ADMIN');
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
  });
  afterAll(() => t?.close());

  const create = async () => {
    const res = await t.call('POST', '/api/shipments', { token: admin, body: shipmentBody({ originBranchId: lima, destinationBranchId: arequipa }) });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number; code: string };
  };
  const count = async (query: ReturnType<typeof sql>) => Number(((await t.database.db.execute(query)).rows[0] as { n: number | string }).n);
  const dataUrl = (type: string, text: string) => `data:${type};base64,${Buffer.from(text).toString('base64')}`;
  const bytesOf = (url: string) => Buffer.from(url.split(',')[1]!, 'base64');

  // Bytes a browser would run if they were ever served back as what they are.
  const SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>';
  const HTML = '<!doctype html><html><body><script>alert(1)</script></body></html>';
  // The PNG signature followed by a script: the old first-bytes check let it through.
  const PNG_HEADED_SCRIPT = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('<script>alert(1)</script>')]);
  const notImages = [
    ['SVG', dataUrl('image/png', SVG)],
    ['HTML', dataUrl('image/png', HTML)],
    ['a PNG signature and a script', `data:image/png;base64,${PNG_HEADED_SCRIPT.toString('base64')}`],
    ['a PNG sent as a JPEG', SIGNATURE_PNG.replace('image/png', 'image/jpeg')],
  ];

  it.each(notImages)('an incident photo of %s is refused with a 400 and nothing is stored', async (_, photo) => {
    const s = await create();
    const res = await t.call('POST', `/api/shipments/${s.id}/incidents`, { token: admin, body: { reason: 'dañado', photo } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'La foto no es una imagen válida.', fields: { photo: 'La foto no es una imagen válida.' } });
    expect(await count(sql`select count(*) as n from incidents where shipment_id = ${s.id}`)).toBe(0);
    expect(await count(sql`select count(*) as n from shipment_events where shipment_id = ${s.id} and kind = 'incident'`)).toBe(0);
  });

  it.each(notImages)('a delivery photo or signature of %s is refused with a 400 and nothing is stored', async (_, image) => {
    const s = await create();
    for (const [field, message] of [
      ['photo', 'La foto debe ser una imagen JPG o PNG.'],
      ['signature', 'La firma debe ser una imagen PNG o JPG.'],
    ] as const) {
      const res = await t.call('POST', `/api/shipments/${s.id}/deliver`, {
        token: admin,
        body: { secretCode: 'clave-7', receiverName: 'Rosa Quispe', receiverDoc: '40111222', deliveredByName: 'Jorge Mamani', [field]: image },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual({ [field]: message });
    }
    expect(await count(sql`select count(*) as n from delivery_proofs where shipment_id = ${s.id}`)).toBe(0);
    expect((await t.call('GET', `/api/shipments/${s.id}`, { token: admin })).json().status).toBe('Creado');
  });

  it('a real incident photo is stored as the server encoded it, without the bytes the client sent', async () => {
    const s = await create();
    const res = await t.call('POST', `/api/shipments/${s.id}/incidents`, { token: admin, body: { reason: 'dañado', photo: PHOTO_JPEG } });
    expect(res.statusCode).toBe(201);
    const [stored] = (await t.call('GET', `/api/shipments/${s.id}/incidents`, { token: admin })).json() as { photo: string }[];
    expect(stored!.photo).toMatch(/^data:image\/jpeg;base64,/);
    expect(stored!.photo).not.toBe(PHOTO_JPEG);
    // Chromium's JPEG carried an ICC profile; the re-encoded one has none and the same size.
    expect(bytesOf(PHOTO_JPEG).includes('ICC_PROFILE')).toBe(true);
    expect(bytesOf(stored!.photo).includes('ICC_PROFILE')).toBe(false);
    expect(await sharp(bytesOf(stored!.photo)).metadata()).toMatchObject({ format: 'jpeg', width: 48, height: 32 });
  });

  it('a real delivery photo and signature are stored as the server encoded them', async () => {
    const s = await create();
    const res = await t.call('POST', `/api/shipments/${s.id}/deliver`, {
      token: admin,
      body: {
        secretCode: 'clave-7',
        receiverName: 'Rosa Quispe',
        receiverDoc: '40111222',
        deliveredByName: 'Jorge Mamani',
        photo: PHOTO_JPEG,
        signature: SIGNATURE_PNG,
      },
    });
    expect(res.statusCode).toBe(200);
    const proof = (await t.call('GET', `/api/shipments/${s.id}/proof`, { token: admin })).json() as { photo: string; signature: string };
    expect(proof.photo).not.toBe(PHOTO_JPEG);
    expect(bytesOf(proof.photo).includes('ICC_PROFILE')).toBe(false);
    expect(await sharp(bytesOf(proof.photo)).metadata()).toMatchObject({ format: 'jpeg', width: 48, height: 32 });
    expect(await sharp(bytesOf(proof.signature)).metadata()).toMatchObject({ format: 'png', width: 60, height: 24 });
  });
});
