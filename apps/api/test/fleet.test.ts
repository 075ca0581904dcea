import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { FLEET_MESSAGES } from '@tramo/domain';
import { seedLimaPrices } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/** One price table of this file only (Lima→Arequipa liviano), enough to register shipments through the API. */

describe.each(engines)('fleet (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let courier: string;
  let lima: number;
  let arequipa: number;
  let dniSeq = 40_000_000;

  beforeAll(async () => {
    t = await startTestApp(engine, { seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa', 'Cusco'], { liviano: [[1, 1000, '1.4']] }) });
    [admin, agent, courier] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1'), t.login('REPARTIDOR1')]);
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
  });
  afterAll(() => t?.close());

  const rows = async (query: ReturnType<typeof sql>) => (await t.database.db.execute(query)).rows as Record<string, unknown>[];
  const scalar = async (query: ReturnType<typeof sql>) => Number((await rows(query))[0]!.n);
  const counts = async () => ({
    transports: await scalar(sql`select count(*) as n from transports`),
    drivers: await scalar(sql`select count(*) as n from drivers`),
    assignments: await scalar(sql`select count(*) as n from transport_assignments`),
    events: await scalar(sql`select count(*) as n from shipment_events where kind = 'transport'`),
    audits: await scalar(sql`select count(*) as n from audit_log`),
  });

  const newDriver = async (over: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/api/drivers', {
      token: admin,
      body: { full_name: 'Juan Quispe Mamani', dni: String(dniSeq++), license_number: `Q${dniSeq}`, ...over },
    });
    if (res.statusCode !== 201) throw new Error(`driver ${res.statusCode} ${res.body}`);
    return res.json();
  };
  let plateSeq = 100;
  const newTransport = async (over: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/api/transports', { token: admin, body: { plate_primary: `TRK-${plateSeq++}`, capacity_kg: 10, ...over } });
    if (res.statusCode !== 201) throw new Error(`transport ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const newShipment = async (weightKg = 2.5, route: { originBranchId?: number; destinationBranchId?: number } = {}) => {
    const res = await t.call('POST', '/api/shipments', {
      token: admin,
      body: {
        senderName: 'Comercial Andina SAC',
        recipientDoc: '45879612',
        recipientFirstName: 'María',
        recipientLastName: 'Flores Ccori',
        originBranchId: lima,
        destinationBranchId: arequipa,
        ...route,
        lines: [{ productType: 'liviano', weightKg }],
        secretCode: 'clave-1',
      },
    });
    if (res.statusCode !== 201) throw new Error(`shipment ${res.statusCode} ${res.body}`);
    return res.json() as { id: number; code: string };
  };
  const load = (transportId: number, shipmentIds: number[], token = agent) =>
    t.call('POST', `/api/transports/${transportId}/assignments`, { token, body: { shipmentIds } });

  describe('drivers', () => {
    it('creates, lists as an array, edits and deletes, auditing each change', async () => {
      const created = await t.call('POST', '/api/drivers', {
        token: agent,
        body: { full_name: '  Pedro Huamán Condori ', dni: ' 42871564 ', license_number: ' q42871564', phone: ' ', note: '' },
      });
      expect(created.statusCode).toBe(201);
      const d = created.json();
      expect(d).toEqual({
        id: expect.any(Number),
        full_name: 'Pedro Huamán Condori',
        dni: '42871564',
        license_number: 'Q42871564',
        license_class: null,
        license_expires_on: null,
        phone: null,
        note: null,
      });

      const list = await t.call('GET', '/api/drivers', { token: agent });
      expect(list.statusCode).toBe(200);
      expect(Array.isArray(list.json())).toBe(true);
      expect(list.json()).toContainEqual(d);

      const updated = await t.call('PUT', `/api/drivers/${d.id}`, {
        token: agent,
        body: { full_name: 'Pedro Huamán C.', dni: '42871564', license_number: 'Q42871564', phone: '986 112 457', note: 'Ruta sur' },
      });
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject({ full_name: 'Pedro Huamán C.', phone: '986 112 457', note: 'Ruta sur' });

      expect((await t.call('DELETE', `/api/drivers/${d.id}`, { token: agent })).statusCode).toBe(204);
      expect((await t.call('DELETE', `/api/drivers/${d.id}`, { token: agent })).statusCode).toBe(404);
      const audits = await rows(sql`select action from audit_log where entity = 'driver' and entity_id = ${String(d.id)} order by id`);
      expect(audits.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
    });

    it('refuses a duplicate DNI (409) and bad input (400) without changing anything', async () => {
      const d = await newDriver({ dni: '47315602' });
      const before = await counts();
      const dup = await t.call('POST', '/api/drivers', { token: admin, body: { full_name: 'Otro', dni: '47315602', license_number: 'Q1' } });
      expect(dup.statusCode).toBe(409);
      expect(dup.json()).toMatchObject({ error: FLEET_MESSAGES.duplicateDni, fields: { dni: FLEET_MESSAGES.duplicateDni } });
      const bad = await t.call('POST', '/api/drivers', { token: admin, body: { full_name: ' ', dni: '123', license_number: '' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields).toMatchObject({
        full_name: FLEET_MESSAGES.fullNameRequired,
        dni: FLEET_MESSAGES.dniLength,
        license_number: FLEET_MESSAGES.licenseRequired,
      });
      const badEdit = await t.call('PUT', `/api/drivers/${d.id}`, { token: admin, body: { full_name: 'X', dni: '1234567a', license_number: 'Q1' } });
      expect(badEdit.statusCode).toBe(400);
      expect((await t.call('POST', '/api/drivers', { token: admin, body: 'no es json' })).statusCode).toBe(400);
      expect(await counts()).toEqual(before);
      const [stored] = await rows(sql`select dni from drivers where id = ${d.id}`);
      expect(stored!.dni).toBe('47315602');
    });
  });

  describe('transports', () => {
    it('follows a branch rename in its route text, so the route filter finds it by the new name', async () => {
      const trujillo = t.branchIds.get('Trujillo')!;
      const tr = await newTransport({ origin_branch_id: trujillo, destination_branch_id: lima });
      expect(tr.route).toBe('Trujillo – Lima');
      const branch = (await t.call('GET', `/api/branches/${trujillo}`, { token: admin })).json();
      const renamed = await t.call('PUT', `/api/branches/${trujillo}`, { token: admin, body: { ...branch, id: undefined, name: 'Trujillo Centro' } });
      expect(renamed.statusCode).toBe(200);
      try {
        const found = (await t.call('GET', `/api/transports?route=${encodeURIComponent('Trujillo Centro')}`, { token: agent })).json().items;
        expect(found.map((x: { id: number; route: string }) => [x.id, x.route])).toEqual([[tr.id, 'Trujillo Centro – Lima']]);
      } finally {
        await t.call('PUT', `/api/branches/${trujillo}`, { token: admin, body: { ...branch, id: undefined } });
      }
    });

    it('creates with a normalised plate, a derived route and driver objects; refuses a duplicate plate', async () => {
      const d1 = await newDriver({ full_name: 'Juan Carlos Quispe' });
      const d2 = await newDriver({ full_name: 'Miguel Flores' });
      const res = await t.call('POST', '/api/transports', {
        token: agent,
        body: {
          plate_primary: '  abc123 ',
          plate_secondary: 't1a456',
          make: ' Volvo ',
          model: 'FH 460',
          capacity_kg: 28000,
          net_weight_kg: '9200.5',
          status: 'en_ruta',
          origin_branch_id: lima,
          destination_branch_id: String(arequipa),
          route: 'ignorada',
          driver_id_1: d1.id,
          driver_id_2: d2.id,
        },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({
        id: expect.any(Number),
        plate_primary: 'ABC-123',
        plate_secondary: 'T1A-456',
        make: 'Volvo',
        model: 'FH 460',
        capacity_kg: 28000,
        net_weight_kg: 9200.5,
        status: 'en_ruta',
        route: 'Lima – Arequipa',
        origin_branch_id: lima,
        destination_branch_id: arequipa,
        driver_id_1: d1.id,
        driver_id_2: d2.id,
        driver1: { id: d1.id, full_name: 'Juan Carlos Quispe' },
        driver2: { id: d2.id, full_name: 'Miguel Flores' },
        vehicle_type: 'camion',
        tuc_number: null,
        configuration: null,
        payload_kg: null,
        axles: null,
        trailer_id: null,
        trailer_plate: null,
        loaded_count: 0,
        loaded_weight_kg: 0,
      });

      const before = await counts();
      for (const plate of ['ABC-123', 'abc 123', ' Abc-123']) {
        const dup = await t.call('POST', '/api/transports', { token: admin, body: { plate_primary: plate } });
        expect(dup.statusCode).toBe(409);
        expect(dup.json()).toMatchObject({ error: FLEET_MESSAGES.duplicatePlate, fields: { plate_primary: FLEET_MESSAGES.duplicatePlate } });
      }
      const other = await newTransport();
      const dupEdit = await t.call('PUT', `/api/transports/${other.id}`, { token: admin, body: { plate_primary: 'abc-123' } });
      expect(dupEdit.statusCode).toBe(409);
      expect((await counts()).transports).toBe(before.transports + 1);
    });

    it('lists with status and route filters and pages', async () => {
      await newTransport({ plate_primary: 'PGA-001', status: 'mantenimiento', origin_branch_id: arequipa, destination_branch_id: lima });
      await newTransport({ plate_primary: 'PGA-002', status: 'mantenimiento', origin_branch_id: arequipa, destination_branch_id: lima });
      await newTransport({ plate_primary: 'PGA-003', status: 'disponible', origin_branch_id: arequipa, destination_branch_id: lima });
      const res = await t.call('GET', '/api/transports?status=mantenimiento&route=arequipa%20%E2%80%93%20lima&limit=1&page=2', { token: agent });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ total: 2, page: 2, pageSize: 1 });
      expect(body.items.map((i: { plate_primary: string }) => i.plate_primary)).toEqual(['PGA-002']);
      const byRoute = await t.call('GET', '/api/transports?route=arequipa%20%E2%80%93&limit=50', { token: agent });
      expect(byRoute.json().items.map((i: { plate_primary: string }) => i.plate_primary)).toEqual(['PGA-001', 'PGA-002', 'PGA-003']);
      expect((await t.call('GET', '/api/transports?status=roto', { token: agent })).statusCode).toBe(400);
      expect((await t.call('GET', '/api/transports?limit=0', { token: agent })).statusCode).toBe(400);
    });

    it('edits, clearing optional fields to null, and audits before/after', async () => {
      const tr = await newTransport({ make: 'Hino', origin_branch_id: lima, destination_branch_id: arequipa });
      const res = await t.call('PUT', `/api/transports/${tr.id}`, {
        token: agent,
        body: {
          plate_primary: tr.plate_primary,
          make: '  ',
          capacity_kg: '',
          status: 'mantenimiento',
          origin_branch_id: arequipa,
          destination_branch_id: lima,
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ make: null, capacity_kg: null, status: 'mantenimiento', route: 'Arequipa – Lima' });
      const [audit] = await rows(
        sql`select before, after from audit_log where entity = 'transport' and entity_id = ${String(tr.id)} and action = 'update'`,
      );
      expect(audit!.before).toMatchObject({ make: 'Hino', route: 'Lima – Arequipa' });
      expect(audit!.after).toMatchObject({ make: null, route: 'Arequipa – Lima' });
    });

    it('refuses bad input with Spanish messages and changes nothing', async () => {
      const tr = await newTransport({ make: 'Isuzu' });
      const before = await counts();
      const cases: [Record<string, unknown>, string, string][] = [
        [{ plate_primary: '  ' }, 'plate_primary', FLEET_MESSAGES.plateRequired],
        [{ plate_primary: 'A1' }, 'plate_primary', FLEET_MESSAGES.plateInvalid],
        [{ plate_primary: 'XYZ-999', capacity_kg: -5 }, 'capacity_kg', FLEET_MESSAGES.numberInvalid],
        [{ plate_primary: 'XYZ-999', net_weight_kg: 'diez' }, 'net_weight_kg', FLEET_MESSAGES.numberInvalid],
        [{ plate_primary: 'XYZ-999', status: 'volando' }, 'status', FLEET_MESSAGES.statusInvalid],
        [{ plate_primary: 'XYZ-999', origin_branch_id: lima, destination_branch_id: lima }, 'destination_branch_id', FLEET_MESSAGES.sameBranches],
        [{ plate_primary: 'XYZ-999', driver_id_1: 3, driver_id_2: 3 }, 'driver_id_2', FLEET_MESSAGES.sameDrivers],
      ];
      for (const [body, field, message] of cases) {
        const res = await t.call('POST', '/api/transports', { token: admin, body });
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().fields[field]).toBe(message);
        const edit = await t.call('PUT', `/api/transports/${tr.id}`, { token: admin, body });
        expect(edit.statusCode).toBe(400);
      }
      const unknownBranch = await t.call('POST', '/api/transports', { token: admin, body: { plate_primary: 'XYZ-999', origin_branch_id: 999999 } });
      expect(unknownBranch.statusCode).toBe(422);
      expect(unknownBranch.json().fields.origin_branch_id).toBe(FLEET_MESSAGES.branchNotFound);
      const unknownDriver = await t.call('POST', '/api/transports', { token: admin, body: { plate_primary: 'XYZ-999', driver_id_1: 999999 } });
      expect(unknownDriver.statusCode).toBe(422);
      expect((await t.call('PUT', '/api/transports/999999', { token: admin, body: { plate_primary: 'XYZ-999' } })).statusCode).toBe(404);
      expect((await t.call('PUT', '/api/transports/abc', { token: admin, body: { plate_primary: 'XYZ-999' } })).statusCode).toBe(400);
      expect(await counts()).toEqual(before);
      const [stored] = await rows(sql`select make from transports where id = ${tr.id}`);
      expect(stored!.make).toBe('Isuzu');
    });
  });

  describe('loading shipments', () => {
    it('loads several shipments at once, writing a history event and an audit row for each', async () => {
      const tr = await newTransport({ plate_primary: 'lod-101', capacity_kg: 5 });
      const [a, b, c] = [await newShipment(2.5), await newShipment(1.75), await newShipment(1.1)];
      const res = await load(tr.id, [c!.id, a!.id, b!.id]);
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.items.map((i: { code: string }) => i.code).sort()).toEqual([a!.code, b!.code, c!.code].sort());
      expect(body.items[0]).toMatchObject({
        id: expect.any(Number),
        shipmentId: expect.any(Number),
        senderName: 'Comercial Andina SAC',
        recipientName: 'María Flores Ccori',
        recipientDoc: '45879612',
        loaded_at: expect.any(String),
        createdAt: expect.any(String),
      });
      // 2.5 + 1.75 + 1.1 = 5.35 exactly, above the 5 kg capacity: shown, not refused.
      expect(body).toMatchObject({ totalWeightKg: 5.35, capacityKg: 5 });
      expect((await t.call('GET', `/api/transports/${tr.id}/assignments`, { token: admin })).json()).toEqual(body);

      for (const s of [a!, b!, c!]) {
        const detail = (await t.call('GET', `/api/shipments/${s.id}`, { token: admin })).json();
        expect(detail.checkpoints.at(-1)).toMatchObject({ name: 'Cargado en LOD-101', kind: 'transport', userName: 'Luis Ramírez' });
        const audits = await rows(
          sql`select after from audit_log where entity = 'shipment' and entity_id = ${String(s.id)} and action = 'transport.load'`,
        );
        expect(audits).toHaveLength(1);
        expect(audits[0]!.after).toMatchObject({ transportId: tr.id, plate: 'LOD-101' });
      }
      const listed = (await t.call('GET', '/api/transports?route=&limit=200', { token: admin })).json();
      expect(listed.items.find((i: { id: number }) => i.id === tr.id)).toMatchObject({ loaded_count: 3, loaded_weight_kg: 5.35 });
    });

    it('refuses a batch holding a non-Creado shipment and loads none of it', async () => {
      const tr = await newTransport();
      const ok = await newShipment();
      const cancelled = await newShipment();
      expect((await t.call('DELETE', `/api/shipments/${cancelled.id}`, { token: admin })).statusCode).toBe(200);
      const before = await counts();
      const res = await load(tr.id, [ok.id, cancelled.id]);
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe(`Solo se pueden cargar envíos en estado Creado: ${cancelled.code} está Anulado.`);
      expect(await counts()).toEqual(before);
      expect((await t.call('GET', `/api/transports/${tr.id}/assignments`, { token: admin })).json().items).toEqual([]);
    });

    it('refuses a shipment already on another transport, naming the plate', async () => {
      const first = await newTransport({ plate_primary: 'ONE-111' });
      const second = await newTransport({ plate_primary: 'TWO-222' });
      const s = await newShipment();
      const free = await newShipment();
      expect((await load(first.id, [s.id])).statusCode).toBe(201);
      const before = await counts();
      const res = await load(second.id, [free.id, s.id]);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe(`El envío ${s.code} ya está cargado en ONE-111. Quítalo de ese transporte antes de cargarlo en otro.`);
      expect(await counts()).toEqual(before);
      expect((await load(first.id, [s.id])).statusCode).toBe(409);
    });

    it('refuses to cancel a loaded shipment, naming the plate, and cancels it once unloaded', async () => {
      const truck = await newTransport({ plate_primary: 'CAN-333' });
      const s = await newShipment();
      const loaded = await load(truck.id, [s.id]);
      expect(loaded.statusCode).toBe(201);
      const refused = await t.call('DELETE', `/api/shipments/${s.id}`, { token: admin });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error).toBe('No se puede anular un envío cargado en un transporte (CAN-333). Descárgalo primero en Transportistas.');
      // A status change to Anulado is the same cancellation and meets the same refusal.
      const byStatus = await t.call('PATCH', `/api/shipments/${s.id}/status`, { token: admin, body: { status: 'Anulado', note: 'cliente desiste' } });
      expect(byStatus.statusCode).toBe(422);
      expect(byStatus.json().fields).toEqual({ status: refused.json().error });
      expect((await t.call('GET', `/api/shipments/${s.id}`, { token: admin })).json().status).toBe('Creado');
      const assignments = (await t.call('GET', `/api/transports/${truck.id}/assignments`, { token: admin })).json().items;
      const unload = await t.call('DELETE', `/api/transports/${truck.id}/assignments/${assignments[0].id}`, { token: admin });
      expect(unload.statusCode).toBe(204);
      const cancelled = await t.call('DELETE', `/api/shipments/${s.id}`, { token: admin });
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json().status).toBe('Anulado');
    });

    it('loads the same shipment concurrently on two transports onto exactly one', async () => {
      const a = await newTransport();
      const b = await newTransport();
      for (let round = 0; round < 3; round++) {
        const s = await newShipment();
        const results = await Promise.all([load(a.id, [s.id]), load(b.id, [s.id], admin)]);
        expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
        expect(await scalar(sql`select count(*) as n from transport_assignments where shipment_id = ${s.id}`)).toBe(1);
        expect(await scalar(sql`select count(*) as n from shipment_events where shipment_id = ${s.id} and kind = 'transport'`)).toBe(1);
      }
    });

    it('refuses bad load requests with 400/404 and changes nothing', async () => {
      const tr = await newTransport();
      const before = await counts();
      for (const body of [{}, { shipmentIds: [] }, { shipmentIds: ['x'] }, { shipmentIds: [-1] }, { shipmentIds: 3 }]) {
        const res = await t.call('POST', `/api/transports/${tr.id}/assignments`, { token: admin, body });
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
      }
      expect(
        (await t.call('POST', `/api/transports/${tr.id}/assignments`, { token: admin, body: { shipmentIds: [] } })).json().fields.shipmentIds,
      ).toBe(FLEET_MESSAGES.noShipments);
      expect((await load(tr.id, [99_999_999])).statusCode).toBe(422);
      expect((await load(99_999_999, [1])).statusCode).toBe(404);
      expect(await counts()).toEqual(before);
    });

    it('unloads one package with a history event and an audit row; it can then be loaded again', async () => {
      const tr = await newTransport({ plate_primary: 'UNL-333' });
      const [s1, s2] = [await newShipment(), await newShipment()];
      const loaded = (await load(tr.id, [s1!.id, s2!.id])).json();
      const target = loaded.items.find((i: { shipmentId: number }) => i.shipmentId === s1!.id);
      const other = await newTransport();
      expect((await t.call('DELETE', `/api/transports/${other.id}/assignments/${target.id}`, { token: agent })).statusCode).toBe(404);
      const res = await t.call('DELETE', `/api/transports/${tr.id}/assignments/${target.id}`, { token: agent });
      expect(res.statusCode).toBe(204);
      const after = (await t.call('GET', `/api/transports/${tr.id}/assignments`, { token: agent })).json();
      expect(after.items.map((i: { shipmentId: number }) => i.shipmentId)).toEqual([s2!.id]);
      const detail = (await t.call('GET', `/api/shipments/${s1!.id}`, { token: admin })).json();
      expect(detail.checkpoints.slice(-2).map((c: { name: string }) => c.name)).toEqual(['Cargado en UNL-333', 'Descargado de UNL-333']);
      expect(
        await scalar(
          sql`select count(*) as n from audit_log where entity = 'shipment' and entity_id = ${String(s1!.id)} and action = 'transport.unload'`,
        ),
      ).toBe(1);
      expect((await t.call('DELETE', `/api/transports/${tr.id}/assignments/${target.id}`, { token: agent })).statusCode).toBe(404);
      expect((await load(other.id, [s1!.id])).statusCode).toBe(201);
    });

    it('offers only Creado shipments on no transport to load', async () => {
      const tr = await newTransport();
      const [free, onTruck, cancelled] = [await newShipment(), await newShipment(), await newShipment()];
      await load(tr.id, [onTruck!.id]);
      await t.call('DELETE', `/api/shipments/${cancelled!.id}`, { token: admin });
      const all = (await t.call('GET', '/api/transports/loadable-shipments', { token: agent })).json() as { id: number }[];
      expect(all.map((s) => s.id)).toContain(free!.id);
      expect(all.map((s) => s.id)).not.toContain(onTruck!.id);
      expect(all.map((s) => s.id)).not.toContain(cancelled!.id);
      for (const code of [onTruck!.code, cancelled!.code]) {
        expect((await t.call('GET', `/api/transports/loadable-shipments?q=${code}`, { token: agent })).json()).toEqual([]);
      }
      const byCode = (await t.call('GET', `/api/transports/loadable-shipments?q=${free!.code.toLowerCase()}`, { token: agent })).json();
      expect(byCode).toEqual([
        expect.objectContaining({ id: free!.id, code: free!.code, weightKg: 2.5, originName: 'Lima', destinationName: 'Arequipa' }),
      ]);
      expect((await t.call('GET', '/api/transports/loadable-shipments?q=andina', { token: agent })).json().length).toBeGreaterThan(0);
    });
    it('offers and loads for an agent only the shipments of their branch, as the shipment list does', async () => {
      const tr = await newTransport();
      const trujillo = t.branchIds.get('Trujillo')!;
      const cusco = t.branchIds.get('Cusco')!;
      const table = await t.call('POST', '/api/weight-factors', {
        token: admin,
        body: { origin_branch_id: trujillo, destination_branch_id: cusco, product_type: 'liviano', name: 'Trujillo – Cusco', currency: 'PEN' },
      });
      expect(table.statusCode).toBe(201);
      const elsewhere = await newShipment(2.5, { originBranchId: trujillo, destinationBranchId: cusco });
      const offered = async (token: string) =>
        ((await t.call('GET', `/api/transports/loadable-shipments?q=${elsewhere.code}`, { token })).json() as { id: number }[]).map((s) => s.id);
      expect(await offered(agent)).toEqual([]);
      expect(await offered(admin)).toEqual([elsewhere.id]);

      const before = await counts();
      const refused = await load(tr.id, [elsewhere.id]);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('No tienes acceso a este envío.');
      expect(await counts()).toEqual(before);

      expect((await load(tr.id, [elsewhere.id], admin)).statusCode).toBe(201);
      // Where it travels is as private as the shipment itself.
      expect((await t.call('GET', `/api/shipments/${elsewhere.id}/assignment`, { token: courier })).statusCode).toBe(403);
      expect((await t.call('GET', `/api/shipments/${elsewhere.id}/assignment`, { token: admin })).json()).toMatchObject({ id: tr.id });
    });
  });

  describe('delete refusals', () => {
    it('refuses to delete a transport holding loaded shipments, and a driver assigned to a transport', async () => {
      const d = await newDriver({ full_name: 'Walter Cárdenas' });
      const tr = await newTransport({ plate_primary: 'DEL-444', driver_id_2: d.id });
      const s = await newShipment();
      const loaded = (await load(tr.id, [s.id])).json();
      const before = await counts();

      const refusedTransport = await t.call('DELETE', `/api/transports/${tr.id}`, { token: admin });
      expect(refusedTransport.statusCode).toBe(409);
      expect(refusedTransport.json().error).toBe(FLEET_MESSAGES.transportHasLoad);
      const refusedDriver = await t.call('DELETE', `/api/drivers/${d.id}`, { token: admin });
      expect(refusedDriver.statusCode).toBe(409);
      expect(refusedDriver.json().error).toBe('No se puede eliminar el conductor: está asignado al transporte DEL-444.');
      expect(await counts()).toEqual(before);

      await t.call('DELETE', `/api/transports/${tr.id}/assignments/${loaded.items[0].id}`, { token: admin });
      expect((await t.call('DELETE', `/api/transports/${tr.id}`, { token: admin })).statusCode).toBe(204);
      expect((await t.call('DELETE', `/api/drivers/${d.id}`, { token: admin })).statusCode).toBe(204);
    });
  });

  describe('shipment assignment', () => {
    it('answers the transport of a shipment, null when none, 404 when the shipment does not exist', async () => {
      const d = await newDriver({ full_name: 'Hugo Ccori Sánchez' });
      const tr = await newTransport({
        plate_primary: 'ASG-555',
        plate_secondary: 'T9Z-001',
        driver_id_1: d.id,
        origin_branch_id: lima,
        destination_branch_id: arequipa,
      });
      const s = await newShipment();
      const none = await t.call('GET', `/api/shipments/${s.id}/assignment`, { token: courier });
      expect(none.statusCode).toBe(200);
      expect(none.json()).toBeNull();
      await load(tr.id, [s.id]);
      for (const key of [String(s.id), s.code]) {
        const res = await t.call('GET', `/api/shipments/${key}/assignment`, { token: courier });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          id: tr.id,
          assignmentId: expect.any(Number),
          plate_primary: 'ASG-555',
          plate_secondary: 'T9Z-001',
          status: 'disponible',
          route: 'Lima – Arequipa',
          driver1: { id: d.id, full_name: 'Hugo Ccori Sánchez' },
          driver2: null,
          loaded_at: expect.any(String),
        });
      }
      expect((await t.call('GET', '/api/shipments/999999/assignment', { token: admin })).statusCode).toBe(404);
      expect((await t.call('GET', '/api/shipments/xyz/assignment', { token: admin })).statusCode).toBe(404);
      expect((await t.call('GET', `/api/shipments/${s.id}/assignment`)).statusCode).toBe(401);
    });
  });

  describe('roles', () => {
    it('keeps couriers out (403) and anonymous callers out (401), changing nothing', async () => {
      const tr = await newTransport();
      const d = await newDriver();
      const s = await newShipment();
      const before = await counts();
      const calls: [string, string, unknown?][] = [
        ['GET', '/api/transports'],
        ['POST', '/api/transports', { plate_primary: 'CUR-001' }],
        ['PUT', `/api/transports/${tr.id}`, { plate_primary: 'CUR-001' }],
        ['DELETE', `/api/transports/${tr.id}`],
        ['GET', '/api/drivers'],
        ['POST', '/api/drivers', { full_name: 'X', dni: '12345678', license_number: 'Q1' }],
        ['PUT', `/api/drivers/${d.id}`, { full_name: 'X', dni: '12345678', license_number: 'Q1' }],
        ['DELETE', `/api/drivers/${d.id}`],
        ['GET', `/api/transports/${tr.id}/assignments`],
        ['POST', `/api/transports/${tr.id}/assignments`, { shipmentIds: [s.id] }],
        ['DELETE', `/api/transports/${tr.id}/assignments/1`],
        ['GET', '/api/transports/loadable-shipments'],
      ];
      for (const [method, url, body] of calls) {
        expect((await t.call(method, url, { token: courier, body })).statusCode, `${method} ${url}`).toBe(403);
        expect((await t.call(method, url, { body })).statusCode, `${method} ${url}`).toBe(401);
      }
      expect(await counts()).toEqual(before);
    });
  });

  describe('branch scope of a load (issue 12, item 2)', () => {
    it("an agent of another branch neither sees nor unloads a package they cannot open; the truck's weight still counts it", async () => {
      const arequipaAgent = await t.login('AGENTE2');
      const transport = await newTransport({ capacity_kg: 100 });
      const toCusco = await newShipment(3, { destinationBranchId: t.branchIds.get('Cusco')! });
      const toArequipa = await newShipment(2);
      expect((await load(transport.id, [toCusco.id, toArequipa.id], admin)).statusCode).toBe(201);

      const seen = (await t.call('GET', `/api/transports/${transport.id}/assignments`, { token: arequipaAgent })).json();
      expect(seen.items.map((i: { code: string }) => i.code)).toEqual([toArequipa.code]);
      expect(JSON.stringify(seen)).not.toContain(toCusco.code);
      expect(seen.totalWeightKg).toBe(5);

      const all = (await t.call('GET', `/api/transports/${transport.id}/assignments`, { token: admin })).json();
      const cuscoAssignment = all.items.find((i: { code: string }) => i.code === toCusco.code).id;
      const eventsBefore = await counts();
      const refused = await t.call('DELETE', `/api/transports/${transport.id}/assignments/${cuscoAssignment}`, { token: arequipaAgent });
      expect(refused.statusCode).toBe(403);
      expect(await counts()).toEqual(eventsBefore);
      expect((await t.call('DELETE', `/api/transports/${transport.id}/assignments/${cuscoAssignment}`, { token: agent })).statusCode).toBe(204);
    });
  });
});
