import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PROOF_LIMITS } from '@tramo/domain';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';
import { jpegOfSize, PHOTO_JPEG, SIGNATURE_PNG } from './support/proof-images.ts';

/** Issue 18: photo and signature on 'Confirmar entrega', the company rule, and the POD PDF. */
describe.each(engines)('proof of delivery (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agentLima: string;
  let agentArequipa: string;
  let courierArequipa: string;
  let lima: number;
  let arequipa: number;
  let trujillo: number;

  beforeAll(async () => {
    t = await startTestApp(engine, {
      config: { trustProxy: true },
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa', 'Trujillo'], { liviano: [[1, 1000, '1.4']] }),
    });
    [admin, agentLima, agentArequipa, courierArequipa] = await Promise.all([
      t.login('ADMIN'),
      t.login('AGENTE1'),
      t.login('AGENTE2'),
      t.login('REPARTIDOR1'),
    ]);
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
    trujillo = t.branchIds.get('Trujillo')!;
  });
  afterAll(() => t?.close());

  const scalar = async (query: ReturnType<typeof sql>) => Number(((await t.database.db.execute(query)).rows[0] as { n: number | string }).n);
  const proofRows = (id: number) => scalar(sql`select count(*) as n from delivery_proofs where shipment_id = ${id}`);
  const status = async (id: number) => (await t.call('GET', `/api/shipments/${id}`, { token: admin })).json().status as string;

  const create = async (destination = arequipa) => {
    const res = await t.call('POST', '/api/shipments', {
      token: agentLima,
      body: shipmentBody({ originBranchId: lima, destinationBranchId: destination }, { senderName: 'Luis Mendoza' }),
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number; code: string };
  };
  const deliver = (id: number, over: Record<string, unknown> = {}, token = courierArequipa) =>
    t.call('POST', `/api/shipments/${id}/deliver`, {
      token,
      body: { secretCode: 'clave-7', receiverName: 'Rosa Quispe', receiverDoc: '40111222', deliveredByName: 'Jorge Mamani', ...over },
    });
  const setRequired = (proofRequired: boolean, token = admin) => t.call('PUT', '/api/deliveries/settings', { token, body: { proofRequired } });

  it('stores the photo and the signature with the delivery and shows them to staff of the branches', async () => {
    const s = await create();
    const res = await deliver(s.id, { photo: PHOTO_JPEG, signature: SIGNATURE_PNG });
    expect(res.statusCode).toBe(200);
    expect(res.json().deliveredInfo).toMatchObject({ hasPhoto: true, hasSignature: true });
    for (const token of [admin, agentLima, agentArequipa, courierArequipa]) {
      const proof = await t.call('GET', `/api/shipments/${s.id}/proof`, { token });
      expect(proof.statusCode).toBe(200);
      // As the server encoded them again (issue 31): photos.test.ts checks their pixels.
      expect(proof.json()).toEqual({
        photo: expect.stringMatching(/^data:image\/jpeg;base64,/),
        signature: expect.stringMatching(/^data:image\/png;base64,/),
      });
    }
  });

  it('delivers without proof by default, and says so', async () => {
    const s = await create();
    expect((await t.call('GET', '/api/deliveries/settings', { token: courierArequipa })).json()).toEqual({ proofRequired: false });
    const res = await deliver(s.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().deliveredInfo).not.toHaveProperty('hasPhoto');
    expect(res.json().deliveredInfo).not.toHaveProperty('hasSignature');
    expect(await proofRows(s.id)).toBe(0);
    expect((await t.call('GET', `/api/shipments/${s.id}/proof`, { token: admin })).json()).toEqual({ photo: null, signature: null });
  });

  it('refuses a wrong type, bytes that are not the claimed image, or an oversized image with a Spanish 400, and writes nothing', async () => {
    const s = await create();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ photo: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' }, 'photo', 'La foto debe ser una imagen JPG o PNG.'],
      [{ photo: 'https://example.com/foto.jpg' }, 'photo', 'La foto debe ser una imagen JPG o PNG.'],
      [{ photo: 'data:image/jpeg;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==' }, 'photo', 'La foto debe ser una imagen JPG o PNG.'],
      [{ photo: SIGNATURE_PNG.replace('image/png', 'image/jpeg') }, 'photo', 'La foto debe ser una imagen JPG o PNG.'],
      [{ photo: 12 }, 'photo', 'La foto debe ser una imagen JPG o PNG.'],
      [{ photo: jpegOfSize(PROOF_LIMITS.photo.maxBytes + 3) }, 'photo', 'La foto no puede pesar más de 1 MB.'],
      [{ signature: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=' }, 'signature', 'La firma debe ser una imagen PNG o JPG.'],
      [{ signature: jpegOfSize(PROOF_LIMITS.signature.maxBytes + 3) }, 'signature', 'La firma no puede pesar más de 200 KB.'],
    ];
    for (const [over, field, message] of cases) {
      const res = await deliver(s.id, over);
      expect(res.statusCode, JSON.stringify(over).slice(0, 60)).toBe(400);
      expect(res.json().fields?.[field]).toBe(message);
    }
    expect(await status(s.id)).toBe('Creado');
    expect(await proofRows(s.id)).toBe(0);
    // Just under the limit passes the size rule (a real JPEG is refused only by its bytes here).
    expect((await deliver(s.id, { photo: jpegOfSize(PROOF_LIMITS.photo.maxBytes) })).statusCode).toBe(200);
    // Its bytes past the header are not an image: the constancia still renders.
    expect((await t.call('GET', `/api/shipments/${s.id}/proof.pdf`, { token: admin })).statusCode).toBe(200);
  });

  it('requires both when the admin turns the company rule on (audited); a missing one is a 400 that counts no wrong code', async () => {
    expect((await setRequired(true, agentLima)).statusCode).toBe(403);
    const on = await setRequired(true);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ proofRequired: true });
    expect(await scalar(sql`select count(*) as n from audit_log where entity = 'settings' and action = 'update'`)).toBeGreaterThan(0);
    try {
      const s = await create();
      const missing = await deliver(s.id, { photo: PHOTO_JPEG, secretCode: 'otra-clave' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({
        error: 'La firma de quien recibe es obligatoria.',
        fields: { signature: 'La firma de quien recibe es obligatoria.' },
      });
      const none = await deliver(s.id);
      expect(none.json().fields).toEqual({ photo: 'La foto de la entrega es obligatoria.', signature: 'La firma de quien recibe es obligatoria.' });
      expect(await scalar(sql`select count(*) as n from delivery_attempts where shipment_id = ${s.id}`)).toBe(0);
      expect(await status(s.id)).toBe('Creado');
      expect((await deliver(s.id, { photo: PHOTO_JPEG, signature: SIGNATURE_PNG })).statusCode).toBe(200);
    } finally {
      await setRequired(false);
    }
  });

  it("refuses another branch's agent and courier the proof and its PDF (403); a shipment not delivered has none (404)", async () => {
    const s = await create(trujillo);
    expect((await t.call('GET', `/api/shipments/${s.id}/proof`, { token: admin })).statusCode).toBe(404);
    expect((await deliver(s.id, { photo: PHOTO_JPEG, signature: SIGNATURE_PNG }, admin)).statusCode).toBe(200);
    for (const token of [agentArequipa, courierArequipa]) {
      for (const url of [`/api/shipments/${s.id}/proof`, `/api/shipments/${s.id}/proof.pdf`]) {
        const res = await t.call('GET', url, { token });
        expect(res.statusCode).toBe(403);
        expect(res.body).not.toContain('base64');
      }
    }
    expect((await t.call('GET', `/api/shipments/${s.id}/proof`, { token: agentLima })).statusCode).toBe(200);
  });

  it('renders the POD PDF with the photo and the signature; the public copy has neither, nor names or the document', async () => {
    const s = await create();
    expect((await deliver(s.id, { photo: PHOTO_JPEG, signature: SIGNATURE_PNG, notes: 'Dejado en recepción' })).statusCode).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-pod-'));
    try {
      const staff = await fetch(`${t.baseUrl}/api/shipments/${s.id}/proof.pdf`, { headers: { authorization: `Bearer ${agentArequipa}` } });
      expect(staff.status).toBe(200);
      expect(staff.headers.get('content-type')).toBe('application/pdf');
      fs.writeFileSync(path.join(dir, 'staff.pdf'), Buffer.from(await staff.arrayBuffer()));
      const text = execFileSync('pdftotext', [path.join(dir, 'staff.pdf'), '-'], { encoding: 'utf8' });
      for (const expected of [s.code, 'Rosa Quispe', '40111222', 'Jorge Mamani', 'Constancia de entrega', 'Dejado en recepción'])
        expect(text).toContain(expected);
      const images = execFileSync('pdfimages', ['-list', path.join(dir, 'staff.pdf')], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .slice(2);
      // The photo and the signature (pdfkit adds the PNG's transparency as a mask image of its own).
      expect(images.filter((line) => !/\bsmask\b/.test(line))).toHaveLength(2);

      // Without the link's key or the recipient's document digits, not even the masked copy (issue 31, F10).
      const url = `${t.baseUrl}/api/public/tracking/${s.code}/proof.pdf`;
      const codeAlone = await fetch(url, { headers: { 'x-forwarded-for': '198.51.100.7' } });
      expect(codeAlone.status).toBe(403);
      const pub = await fetch(`${url}?k=${t.app.trackingLinks.key(s.code)}`, { headers: { 'x-forwarded-for': '198.51.100.7' } });
      expect(pub.status).toBe(200);
      fs.writeFileSync(path.join(dir, 'public.pdf'), Buffer.from(await pub.arrayBuffer()));
      const publicText = execFileSync('pdftotext', [path.join(dir, 'public.pdf'), '-'], { encoding: 'utf8' });
      expect(publicText).toContain(s.code);
      expect(publicText).toContain('R*** Q*****');
      for (const hidden of ['Rosa', 'Quispe', '40111222', 'Jorge', 'Dejado']) expect(publicText).not.toContain(hidden);
      expect(
        execFileSync('pdfimages', ['-list', path.join(dir, 'public.pdf')], { encoding: 'utf8' })
          .trim()
          .split('\n')
          .slice(2),
      ).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers the public copy of a shipment not delivered like an unknown code', async () => {
    const s = await create();
    const from = { headers: { 'x-forwarded-for': '198.51.100.8' } };
    const pending = await t.call('GET', `/api/public/tracking/${s.code}/proof.pdf`, from);
    const unknown = await t.call('GET', '/api/public/tracking/TMT-999999/proof.pdf', from);
    expect(pending.statusCode).toBe(404);
    expect(pending.body).toBe(unknown.body);
  });
});
