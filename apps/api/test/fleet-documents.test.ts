import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addDays, FLEET_DOCUMENT_MESSAGES, FLEET_MESSAGES, limaDay } from '@tramo/domain';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';
import { SIGNATURE_PNG } from './support/proof-images.ts';

/**
 * Issue 36, items 1–3: vehicle and driver master data, documents with expiry, and the gate that
 * keeps an expired truck or driver from loading and departing unless an admin overrides once.
 * This database starts without the fixtures' valid documents: every document here is the test's.
 */
describe.each(engines)('fleet documents (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agentLima: string;
  let courier: string;
  let lima: number;
  let arequipa: number;
  let plateSeq = 100;

  beforeAll(async () => {
    t = await startTestApp(engine, {
      fleetDocuments: 'none',
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '1.4']] }),
    });
    [admin, agentLima, courier] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1'), t.login('REPARTIDOR1')]);
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
  });
  afterAll(() => t?.close());

  const rows = async (query: ReturnType<typeof sql>) => (await t.database.db.execute(query)).rows as Record<string, unknown>[];
  const today = () => limaDay(t.clock.now());
  const ddmmyyyy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

  const newTransport = async (over: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/api/transports', {
      token: admin,
      body: { plate_primary: `DOC-${plateSeq++}`, capacity_kg: 100, origin_branch_id: lima, destination_branch_id: arequipa, ...over },
    });
    if (res.statusCode !== 201) throw new Error(`transport ${res.statusCode} ${res.body}`);
    return res.json() as { id: number; plate_primary: string };
  };
  const newDriver = async (over: Record<string, unknown> = {}) => {
    const dni = String(40_000_000 + plateSeq++);
    const res = await t.call('POST', '/api/drivers', {
      token: admin,
      body: { full_name: `Conductor ${dni}`, dni, license_number: `Q${dni}`, ...over },
    });
    if (res.statusCode !== 201) throw new Error(`driver ${res.statusCode} ${res.body}`);
    return res.json() as { id: number; full_name: string };
  };
  const addDoc = (holder: 'transports' | 'drivers', id: number, body: Record<string, unknown>, token = agentLima) =>
    t.call('POST', `/api/${holder}/${id}/documents`, { token, body });
  const validVehicle = async (id: number, soatExpiresOn = addDays(today(), 200)) => {
    const soat = await addDoc('transports', id, { type: 'soat', number: 'SOAT-1', expiresOn: soatExpiresOn });
    const citv = await addDoc('transports', id, { type: 'citv', number: 'CITV-1', expiresOn: addDays(today(), 200) });
    expect([soat.statusCode, citv.statusCode]).toEqual([201, 201]);
    return soat.json() as { id: number };
  };
  const newShipment = async () => {
    const res = await t.call('POST', '/api/shipments', { token: admin, body: shipmentBody({ originBranchId: lima, destinationBranchId: arequipa }) });
    if (res.statusCode !== 201) throw new Error(`shipment ${res.statusCode} ${res.body}`);
    return res.json() as { id: number; code: string };
  };
  const load = (transportId: number, shipmentIds: number[]) =>
    t.call('POST', `/api/transports/${transportId}/assignments`, { token: agentLima, body: { shipmentIds } });
  const depart = (transportId: number, token = agentLima) => t.call('POST', `/api/transports/${transportId}/departure`, { token, body: {} });
  const loadedCount = async (transportId: number) =>
    Number((await rows(sql`select count(*)::int as n from transport_assignments where transport_id = ${transportId}`))[0]!.n);
  /** The manifest's text as pdftotext reads it, so the test checks what is printed, not what was sent. */
  const manifestText = async (url: string) => {
    const res = await fetch(`${t.baseUrl}${url}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-manifest-'));
    try {
      fs.writeFileSync(path.join(dir, 'm.pdf'), Buffer.from(await res.arrayBuffer()));
      return execFileSync('pdftotext', [path.join(dir, 'm.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const tripCount = async (transportId: number) =>
    Number((await rows(sql`select count(*)::int as n from trips where transport_id = ${transportId}`))[0]!.n);

  describe('master data', () => {
    it('keeps TUC, configuration, payload, axles and a semirremolque on the vehicle, and licence class and expiry on the driver', async () => {
      const trailer = await newTransport({ vehicle_type: 'semirremolque', tuc_number: '15M21012345E' });
      const tracto = await newTransport({
        vehicle_type: 'tracto',
        tuc_number: ' 15m21000111e ',
        configuration: 't3s3',
        payload_kg: '30000',
        axles: '3',
        trailer_id: trailer.id,
      });
      expect(tracto).toMatchObject({
        vehicle_type: 'tracto',
        tuc_number: '15M21000111E',
        configuration: 'T3S3',
        payload_kg: 30000,
        axles: 3,
        trailer_id: trailer.id,
        trailer_plate: trailer.plate_primary,
      });

      const notATrailer = await newTransport();
      const refused = await t.call('POST', '/api/transports', { token: admin, body: { plate_primary: 'DOC-999', trailer_id: notATrailer.id } });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({ error: FLEET_MESSAGES.trailerNotTrailer, fields: { trailer_id: FLEET_MESSAGES.trailerNotTrailer } });
      const badAxles = await t.call('POST', '/api/transports', { token: admin, body: { plate_primary: 'DOC-998', axles: 0 } });
      expect(badAxles.statusCode).toBe(400);
      expect(badAxles.json().fields).toMatchObject({ axles: FLEET_MESSAGES.axlesInvalid });

      const driver = await newDriver({ license_class: 'a-iiic', license_expires_on: '2027-05-31' });
      expect(driver).toMatchObject({ license_class: 'A-IIIC', license_expires_on: '2027-05-31' });
      const badDate = await t.call('POST', '/api/drivers', {
        token: admin,
        body: { full_name: 'Fecha Mala', dni: '49999999', license_number: 'Q1', license_expires_on: '2027-02-30' },
      });
      expect(badDate.statusCode).toBe(400);
      expect(badDate.json().fields).toMatchObject({ license_expires_on: FLEET_MESSAGES.licenseExpiryInvalid });
    });
  });

  describe('documents', () => {
    it('adds, lists, serves the file of and deletes a document, auditing each change', async () => {
      const tr = await newTransport();
      const pdf = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n% documento de prueba\n%%EOF\n').toString('base64')}`;
      const added = await addDoc('transports', tr.id, {
        type: 'soat',
        number: 'SOAT-778899',
        issuedOn: '2026-01-10',
        expiresOn: '2027-01-10',
        file: pdf,
      });
      expect(added.statusCode).toBe(201);
      const doc = added.json();
      expect(doc).toMatchObject({
        transportId: tr.id,
        driverId: null,
        holder: tr.plate_primary,
        type: 'soat',
        number: 'SOAT-778899',
        fileType: 'application/pdf',
      });

      const list = await t.call('GET', `/api/transports/${tr.id}/documents`, { token: agentLima });
      expect(list.json()).toEqual([doc]);
      const file = await t.call('GET', `/api/transports/${tr.id}/documents/${doc.id}/file`, { token: agentLima });
      expect(file.statusCode).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(file.headers.get('content-disposition')).toMatch(/^attachment/);
      expect(file.body.startsWith('%PDF-')).toBe(true);

      const photo = await addDoc('transports', tr.id, { type: 'citv', number: 'CITV-1', expiresOn: '2027-01-10', file: SIGNATURE_PNG });
      expect(photo.statusCode).toBe(201);
      expect(photo.json().fileType).toBe('image/png');

      expect((await t.call('GET', `/api/transports/${tr.id}/documents`, { token: courier })).statusCode).toBe(403);
      const deleted = await t.call('DELETE', `/api/transports/${tr.id}/documents/${doc.id}`, { token: agentLima });
      expect(deleted.statusCode).toBe(204);
      expect((await t.call('GET', `/api/transports/${tr.id}/documents`, { token: agentLima })).json()).toHaveLength(1);
      const audits = await rows(sql`select action from audit_log where entity = 'fleet_document' and entity_id = ${String(doc.id)} order by id`);
      expect(audits.map((a) => a.action)).toEqual(['create', 'delete']);
    });

    it('refuses a document of the wrong holder, a file that is not a photo or a PDF, and dates out of order (400, nothing stored)', async () => {
      const tr = await newTransport();
      const driver = await newDriver();
      const before = (await rows(sql`select count(*)::int as n from fleet_documents`))[0]!.n;
      const cases: [Awaited<ReturnType<TestContext['call']>>, string][] = [
        [await addDoc('transports', tr.id, { type: 'licencia', number: 'L-1', expiresOn: '2027-01-01' }), FLEET_DOCUMENT_MESSAGES.vehicleType],
        [await addDoc('drivers', driver.id, { type: 'soat', number: 'S-1', expiresOn: '2027-01-01' }), FLEET_DOCUMENT_MESSAGES.driverType],
        [
          await addDoc('transports', tr.id, {
            type: 'soat',
            number: 'S-2',
            expiresOn: '2027-01-01',
            file: `data:application/pdf;base64,${Buffer.from('<html>no soy un pdf</html>').toString('base64')}`,
          }),
          FLEET_DOCUMENT_MESSAGES.fileType,
        ],
        [
          await addDoc('transports', tr.id, {
            type: 'soat',
            number: 'S-3',
            expiresOn: '2027-01-01',
            file: `data:image/png;base64,${Buffer.from('%PDF-1.4 disfrazado').toString('base64')}`,
          }),
          FLEET_DOCUMENT_MESSAGES.fileType,
        ],
        [
          await addDoc('transports', tr.id, { type: 'soat', number: 'S-4', issuedOn: '2027-02-01', expiresOn: '2027-01-01' }),
          FLEET_DOCUMENT_MESSAGES.issuedAfterExpiry,
        ],
      ];
      for (const [res, message] of cases) {
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe(message);
      }
      expect((await rows(sql`select count(*)::int as n from fleet_documents`))[0]!.n).toBe(before);
    });

    it('lists what expires within 7, 15 or 30 days or has expired, including the licence on a driver record', async () => {
      const tr = await newTransport();
      await addDoc('transports', tr.id, { type: 'soat', number: 'SOAT-30', expiresOn: addDays(today(), 25) });
      await addDoc('transports', tr.id, { type: 'citv', number: 'CITV-5', expiresOn: addDays(today(), 5) });
      await addDoc('transports', tr.id, { type: 'tuc', number: 'TUC-LEJOS', expiresOn: addDays(today(), 300) });
      const driver = await newDriver({ license_expires_on: addDays(today(), -3) });

      const within = async (days: number) =>
        (
          (await t.call('GET', `/api/fleet-documents?within=${days}`, { token: agentLima })).json() as {
            number: string;
            state: string;
            daysLeft: number;
          }[]
        )
          .filter((d) => ['SOAT-30', 'CITV-5', 'TUC-LEJOS', `Q${driver.full_name.slice(-8)}`].includes(d.number))
          .map((d) => `${d.number}:${d.state}:${d.daysLeft}`);
      expect(await within(7)).toEqual([`Q${driver.full_name.slice(-8)}:vencido:-3`, 'CITV-5:por_vencer:5']);
      expect(await within(30)).toEqual([`Q${driver.full_name.slice(-8)}:vencido:-3`, 'CITV-5:por_vencer:5', 'SOAT-30:por_vencer:25']);
      expect((await t.call('GET', '/api/fleet-documents?within=10', { token: agentLima })).statusCode).toBe(400);
    });
  });

  describe('the gate', () => {
    it('an expired SOAT blocks loading and departure with 422 DOCUMENT_EXPIRED naming it and its date; nothing changes', async () => {
      const tr = await newTransport();
      const valid = await validVehicle(tr.id);
      const [a, b] = [await newShipment(), await newShipment()];
      expect((await load(tr.id, [a.id])).statusCode).toBe(201);

      // The current SOAT is replaced by one that expired yesterday (Lima).
      const expiredOn = addDays(today(), -1);
      await t.call('DELETE', `/api/transports/${tr.id}/documents/${valid.id}`, { token: agentLima });
      await addDoc('transports', tr.id, { type: 'soat', number: 'SOAT-OLD', expiresOn: expiredOn });
      const message = `El SOAT de ${tr.plate_primary} venció el ${ddmmyyyy(expiredOn)}.`;

      const refusedLoad = await load(tr.id, [b.id]);
      expect(refusedLoad.statusCode).toBe(422);
      expect(refusedLoad.json()).toMatchObject({ error: message, code: 'DOCUMENT_EXPIRED' });
      expect(await loadedCount(tr.id)).toBe(1);

      const refusedDeparture = await depart(tr.id);
      expect(refusedDeparture.statusCode).toBe(422);
      expect(refusedDeparture.json()).toMatchObject({ error: message, code: 'DOCUMENT_EXPIRED' });
      expect(await tripCount(tr.id)).toBe(0);
      expect((await rows(sql`select status from shipments where id = ${a.id}`))[0]!.status).toBe('Creado');

      // Valid until 23:59 Lima of its expiry day: a SOAT that expires today still lets it leave.
      await addDoc('transports', tr.id, { type: 'soat', number: 'SOAT-HOY', expiresOn: today() });
      expect((await depart(tr.id)).statusCode).toBe(201);
    });

    it('a missing CITV and a driver with an expired licence block it too', async () => {
      const tr = await newTransport();
      await addDoc('transports', tr.id, { type: 'soat', number: 'SOAT-1', expiresOn: addDays(today(), 100) });
      const s = await newShipment();
      const missing = await load(tr.id, [s.id]);
      expect(missing.statusCode).toBe(422);
      expect(missing.json()).toMatchObject({ error: `${tr.plate_primary} no tiene CITV (revisión técnica) registrado.`, code: 'DOCUMENT_EXPIRED' });

      await addDoc('transports', tr.id, { type: 'citv', number: 'CITV-1', expiresOn: addDays(today(), 100) });
      const expiredOn = addDays(today(), -10);
      const driver = await newDriver({ license_expires_on: expiredOn });
      await t.call('PUT', `/api/transports/${tr.id}`, {
        token: admin,
        body: { plate_primary: tr.plate_primary, capacity_kg: 100, origin_branch_id: lima, destination_branch_id: arequipa, driver_id_1: driver.id },
      });
      const refused = await load(tr.id, [s.id]);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({
        error: `La licencia de ${driver.full_name} venció el ${ddmmyyyy(expiredOn)}.`,
        code: 'DOCUMENT_EXPIRED',
      });

      // A renewed licence uploaded as a document counts (the latest expiry wins).
      await addDoc('drivers', driver.id, { type: 'licencia', number: 'Q-NUEVA', expiresOn: addDays(today(), 1000) });
      expect((await load(tr.id, [s.id])).statusCode).toBe(201);
    });

    it("an admin's override lets exactly one departure through, with its reason audited and on the trip", async () => {
      const tr = await newTransport();
      await validVehicle(tr.id, addDays(today(), -2));
      const s = await newShipment();
      expect((await load(tr.id, [s.id])).statusCode).toBe(422);

      const reason = 'SOAT renovado, certificado en trámite con la aseguradora';
      const byAgent = await t.call('POST', `/api/transports/${tr.id}/compliance-override`, { token: agentLima, body: { reason } });
      expect(byAgent.statusCode).toBe(403);
      const short = await t.call('POST', `/api/transports/${tr.id}/compliance-override`, { token: admin, body: { reason: 'ok' } });
      expect(short.statusCode).toBe(400);
      expect(short.json().error).toBe(FLEET_DOCUMENT_MESSAGES.overrideReasonRequired);

      const override = await t.call('POST', `/api/transports/${tr.id}/compliance-override`, { token: admin, body: { reason } });
      expect(override.statusCode).toBe(201);
      expect(override.json()).toMatchObject({ transportId: tr.id, reason, refusal: expect.stringContaining('El SOAT de'), tripId: null });
      const second = await t.call('POST', `/api/transports/${tr.id}/compliance-override`, { token: admin, body: { reason } });
      expect(second.statusCode).toBe(409);
      expect(second.json().code).toBe('OVERRIDE_EXISTS');

      expect((await load(tr.id, [s.id])).statusCode).toBe(201);
      expect(await manifestText(`/api/transports/${tr.id}/manifest.pdf`)).toContain('SALIDA AUTORIZADA CON DOCUMENTOS VENCIDOS');
      const departed = await depart(tr.id);
      expect(departed.statusCode).toBe(201);
      const trip = departed.json();
      expect(trip.complianceOverride).toMatchObject({ reason, byName: expect.any(String), refusal: expect.stringContaining('venció') });
      const current = await t.call('GET', `/api/transports/${tr.id}/trip`, { token: agentLima });
      expect(current.json().complianceOverride).toMatchObject({ reason });
      const audits = await rows(
        sql`select action, after from audit_log where entity = 'compliance_override' and entity_id = ${String(override.json().id)} order by id`,
      );
      expect(audits.map((a) => a.action)).toEqual(['create', 'use']);
      expect(audits[1]!.after).toMatchObject({ tripId: trip.id, reason });
      const printed = await manifestText(`/api/trips/${trip.id}/manifest.pdf`);
      expect(printed).toContain('SALIDA AUTORIZADA CON DOCUMENTOS VENCIDOS');
      expect(printed).toContain(reason);
      expect(printed).toContain(`venció el ${ddmmyyyy(addDays(today(), -2))}`);

      // Back home, the override is spent: the still-expired truck takes no load and does not leave again.
      expect((await t.call('POST', `/api/transports/${tr.id}/arrival`, { token: admin, body: {} })).statusCode).toBe(200);
      const next = await newShipment();
      const again = await load(tr.id, [next.id]);
      expect(again.statusCode).toBe(422);
      expect(again.json().code).toBe('DOCUMENT_EXPIRED');
      expect(await tripCount(tr.id)).toBe(1);
      const compliance = await t.call('GET', `/api/transports/${tr.id}/compliance`, { token: agentLima });
      expect(compliance.json()).toMatchObject({ refusal: expect.stringContaining('El SOAT de'), override: null });
    });

    it('refuses an override a compliant transport does not need', async () => {
      const tr = await newTransport();
      await validVehicle(tr.id);
      const res = await t.call('POST', `/api/transports/${tr.id}/compliance-override`, {
        token: admin,
        body: { reason: 'por si acaso, sin motivo real' },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: FLEET_DOCUMENT_MESSAGES.overrideNotNeeded, code: 'OVERRIDE_NOT_NEEDED' });
    });
  });
});
