import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { seedLimaPrices } from './fixtures.ts';
import { engines, startTestApp, statusCounts, type TestContext } from './harness.ts';
import { SIGNATURE_PNG } from './support/proof-images.ts';

/** Issue 17: trips (departure, arrival), scanning to load, the unload check, branch scoping. */
describe.each(engines)('trips (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agentLima: string;
  let agentArequipa: string;
  let lima: number;
  let arequipa: number;
  let cusco: number;
  let plateSeq = 100;

  beforeAll(async () => {
    t = await startTestApp(engine, { seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa', 'Cusco'], { liviano: [[1, 1000, '1.4']] }) });
    [admin, agentLima, agentArequipa] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1'), t.login('AGENTE2')]);
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
    cusco = t.branchIds.get('Cusco')!;
  });
  afterAll(() => t?.close());

  const rows = async (query: ReturnType<typeof sql>) => (await t.database.db.execute(query)).rows as Record<string, unknown>[];
  const scalar = async (query: ReturnType<typeof sql>) => Number((await rows(query))[0]!.n);

  const newTransport = async (over: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/api/transports', {
      token: admin,
      body: { plate_primary: `TRP-${plateSeq++}`, capacity_kg: 100, origin_branch_id: lima, destination_branch_id: arequipa, ...over },
    });
    if (res.statusCode !== 201) throw new Error(`transport ${res.statusCode} ${res.body}`);
    return res.json() as { id: number; plate_primary: string };
  };
  const newShipment = async (weightKg = 2.5, destinationBranchId = arequipa) => {
    const res = await t.call('POST', '/api/shipments', {
      token: admin,
      body: {
        senderName: 'Comercial Andina SAC',
        recipientDoc: '45879612',
        recipientFirstName: 'María',
        recipientLastName: 'Flores Ccori',
        originBranchId: lima,
        destinationBranchId,
        lines: [{ productType: 'liviano', weightKg }],
        secretCode: 'clave-1',
      },
    });
    if (res.statusCode !== 201) throw new Error(`shipment ${res.statusCode} ${res.body}`);
    return res.json() as { id: number; code: string };
  };
  const load = (transportId: number, shipmentIds: number[], token = agentLima) =>
    t.call('POST', `/api/transports/${transportId}/assignments`, { token, body: { shipmentIds } });
  const depart = (transportId: number, token = agentLima, body: Record<string, unknown> = {}) =>
    t.call('POST', `/api/transports/${transportId}/departure`, { token, body });
  const arrive = (transportId: number, token = agentArequipa, body: Record<string, unknown> = {}) =>
    t.call('POST', `/api/transports/${transportId}/arrival`, { token, body });
  const scan = (transportId: number, code: string, token = agentLima) =>
    t.call('POST', `/api/transports/${transportId}/scan`, { token, body: { code } });
  const statusOf = async (id: number) => (await rows(sql`select status from shipments where id = ${id}`))[0]!.status;
  const lastEvent = async (id: number) =>
    (await rows(sql`select name, status_from, status_to from shipment_events where shipment_id = ${id} order by id desc limit 1`))[0];

  describe('departure and arrival', () => {
    it('departs exactly the loaded shipments with their history line, and arrives them at the destination agency', async () => {
      const tr = await newTransport();
      const [a, b, other] = [await newShipment(2), await newShipment(3), await newShipment(1)];
      expect((await load(tr.id, [a.id, b.id])).statusCode).toBe(201);

      const res = await depart(tr.id);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        plate: tr.plate_primary,
        originName: 'Lima',
        destinationName: 'Arequipa',
        weightKg: 5,
        shipmentCount: 2,
        arrivedAt: null,
      });
      for (const s of [a, b]) {
        expect(await statusOf(s.id)).toBe('En tránsito');
        expect(await lastEvent(s.id)).toEqual({
          name: `Salió en ${tr.plate_primary} hacia Arequipa`,
          status_from: 'Creado',
          status_to: 'En tránsito',
        });
      }
      expect(await statusOf(other.id)).toBe('Creado');
      expect((await rows(sql`select status from transports where id = ${tr.id}`))[0]!.status).toBe('en_ruta');
      expect((await t.call('GET', `/api/transports/${tr.id}/trip`, { token: agentLima })).json()).toMatchObject({ id: res.json().id });

      // A departed transport is loaded and unloaded by nobody until it arrives.
      const refused = await load(tr.id, [other.id]);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        code: 'TRANSPORT_DEPARTED',
        error: `El transporte ${tr.plate_primary} está en ruta: no se puede cargar ni descargar hasta que llegue.`,
      });
      expect((await scan(tr.id, other.code)).statusCode).toBe(409);
      const assignment = (await t.call('GET', `/api/transports/${tr.id}/assignments`, { token: admin })).json().items[0].id;
      expect((await t.call('DELETE', `/api/transports/${tr.id}/assignments/${assignment}`, { token: admin })).statusCode).toBe(409);
      expect(await scalar(sql`select count(*) as n from transport_assignments where transport_id = ${tr.id}`)).toBe(2);

      // Lima cannot receive what goes to Arequipa; Arequipa can.
      const wrongBranch = await arrive(tr.id, agentLima);
      expect(wrongBranch.statusCode).toBe(403);
      expect(wrongBranch.json().error).toBe('Solo la agencia de destino del viaje registra su llegada.');
      expect(await statusOf(a.id)).toBe('En tránsito');

      const arrived = await arrive(tr.id);
      expect(arrived.statusCode).toBe(200);
      expect(arrived.json().arrivedAt).not.toBeNull();
      for (const s of [a, b]) {
        expect(await statusOf(s.id)).toBe('En agencia');
        expect(await lastEvent(s.id)).toEqual({ name: 'Llegó a agencia Arequipa', status_from: 'En tránsito', status_to: 'En agencia' });
      }
      // The trip is closed: the truck is empty, available and can be loaded again.
      expect(await scalar(sql`select count(*) as n from transport_assignments where transport_id = ${tr.id}`)).toBe(0);
      expect((await t.call('GET', `/api/transports/${tr.id}/trip`, { token: agentLima })).json()).toBeNull();
      expect((await load(tr.id, [other.id])).statusCode).toBe(201);
      expect((await arrive(tr.id)).statusCode).toBe(422);
      // Each move is audited.
      expect(
        await scalar(
          sql`select count(*) as n from audit_log where action in ('trip.depart', 'trip.arrive') and entity_id in (${String(a.id)}, ${String(b.id)})`,
        ),
      ).toBe(4);
    });

    it('refuses another branch, maintenance, an empty load and a transport without route, changing nothing', async () => {
      const tr = await newTransport();
      const s = await newShipment();
      expect((await depart(tr.id)).json()).toMatchObject({ code: 'EMPTY_LOAD' });
      expect((await load(tr.id, [s.id])).statusCode).toBe(201);

      const other = await depart(tr.id, agentArequipa);
      expect(other.statusCode).toBe(403);
      expect(other.json().error).toBe('Solo la agencia de origen del transporte registra su salida.');

      const put = await t.call('PUT', `/api/transports/${tr.id}`, {
        token: admin,
        body: { plate_primary: tr.plate_primary, capacity_kg: 100, status: 'mantenimiento', origin_branch_id: lima, destination_branch_id: arequipa },
      });
      expect(put.statusCode).toBe(200);
      const maintenance = await depart(tr.id);
      expect(maintenance.statusCode).toBe(422);
      expect(maintenance.json().error).toBe(`El transporte ${tr.plate_primary} está en mantenimiento: no puede salir.`);
      // In the shop it takes no parcels either (the assign dialog says so); what it carries can come off.
      const another = await newShipment();
      const refusedLoad = await load(tr.id, [another.id]);
      expect(refusedLoad.statusCode).toBe(422);
      expect(refusedLoad.json()).toMatchObject({
        code: 'MAINTENANCE',
        error: `El transporte ${tr.plate_primary} está en mantenimiento: no se puede cargar.`,
      });
      expect(await scalar(sql`select count(*) as n from transport_assignments where shipment_id = ${another.id}`)).toBe(0);

      const noRoute = await newTransport({ origin_branch_id: null, destination_branch_id: null });
      const s2 = await newShipment();
      expect((await load(noRoute.id, [s2.id], admin)).statusCode).toBe(201);
      expect((await depart(noRoute.id, admin)).json()).toMatchObject({ code: 'NO_ROUTE' });

      expect(await statusOf(s.id)).toBe('Creado');
      expect(await statusOf(s2.id)).toBe('Creado');
      expect(await scalar(sql`select count(*) as n from trips where transport_id in (${tr.id}, ${noRoute.id})`)).toBe(0);
    });

    it('asks a second confirmation to depart beyond the capacity', async () => {
      const tr = await newTransport({ capacity_kg: 4 });
      const [a, b] = [await newShipment(2), await newShipment(2.5)];
      expect((await load(tr.id, [a.id, b.id])).statusCode).toBe(201);
      const refused = await depart(tr.id);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({
        code: 'OVERLOADED',
        error: 'La carga (4.50 kg) supera la capacidad del transporte (4.00 kg). Confirma para salir con sobrecarga.',
      });
      expect(await statusOf(a.id)).toBe('Creado');
      const confirmed = await depart(tr.id, agentLima, { confirmOverload: true });
      expect(confirmed.statusCode).toBe(201);
      expect(confirmed.json()).toMatchObject({ overloaded: true, weightKg: 4.5, capacityKg: 4 });
    });

    it('two concurrent departures of one transport give one trip', async () => {
      const tr = await newTransport();
      const s = await newShipment();
      expect((await load(tr.id, [s.id])).statusCode).toBe(201);
      const results = await Promise.all([depart(tr.id), depart(tr.id, admin), depart(tr.id)]);
      expect(statusCounts(results.map((r) => r.statusCode))).toEqual({ 201: 1, 409: 2 });
      expect(await scalar(sql`select count(*) as n from trips where transport_id = ${tr.id}`)).toBe(1);
      expect(await scalar(sql`select count(*) as n from shipment_events where shipment_id = ${s.id} and status_to = 'En tránsito'`)).toBe(1);
    });

    it('a failure half-way moves none of the shipments', async () => {
      const tr = await newTransport();
      const [a, b, c] = [await newShipment(1), await newShipment(1), await newShipment(1)];
      expect((await load(tr.id, [a.id, b.id, c.id])).statusCode).toBe(201);
      // The third shipment's history line fails after the first two were written.
      await t.database.db.execute(
        sql.raw(`create function fail_trip_event() returns trigger language plpgsql as $$
          begin if new.shipment_id = ${c.id} and new.status_to = 'En tránsito' then raise exception 'simulated failure'; end if; return new; end $$`),
      );
      await t.database.db.execute(
        sql`create trigger fail_trip_event before insert on shipment_events for each row execute function fail_trip_event()`,
      );
      try {
        const res = await depart(tr.id);
        expect(res.statusCode).toBe(500);
      } finally {
        await t.database.db.execute(sql`drop trigger fail_trip_event on shipment_events`);
        await t.database.db.execute(sql`drop function fail_trip_event()`);
      }
      for (const s of [a, b, c]) expect(await statusOf(s.id)).toBe('Creado');
      expect(await scalar(sql`select count(*) as n from trips where transport_id = ${tr.id}`)).toBe(0);
      expect(await scalar(sql`select count(*) as n from shipment_events where shipment_id in (${a.id}, ${b.id}) and status_to = 'En tránsito'`)).toBe(
        0,
      );
      expect((await depart(tr.id)).statusCode).toBe(201);
    });
  });

  describe('scanning to load', () => {
    it('answers loaded, already loaded, wrong destination, not Creado and unknown code', async () => {
      const tr = await newTransport({ capacity_kg: 3 });
      const s = await newShipment(2);
      const toCusco = await newShipment(1, cusco);
      const cancelled = await newShipment(1);
      expect((await t.call('DELETE', `/api/shipments/${cancelled.id}`, { token: admin })).statusCode).toBeLessThan(300);

      const loaded = await scan(tr.id, s.code.toLowerCase().replace('-', ''));
      expect(loaded.statusCode).toBe(200);
      expect(loaded.json()).toEqual({ outcome: 'loaded', code: s.code, message: `${s.code} cargado en ${tr.plate_primary}.`, overCapacity: false });
      expect((await scan(tr.id, s.code)).json()).toMatchObject({ outcome: 'already' });

      const wrong = await scan(tr.id, toCusco.code);
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json()).toMatchObject({ code: 'WRONG_DESTINATION', error: `El envío ${toCusco.code} va a Cusco, este transporte va a Arequipa` });

      const notCreated = await scan(tr.id, cancelled.code);
      expect(notCreated.statusCode).toBe(422);
      expect(notCreated.json().code).toBe('NOT_LOADABLE');

      const unknown = await scan(tr.id, 'TMT-999999');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toBe('No existe el envío TMT-999999.');
      expect((await scan(tr.id, 'hola')).statusCode).toBe(400);

      // Beyond the capacity, the scan asks first and loads nothing; confirmed, it loads.
      const heavy = await newShipment(1.5);
      const asked = await scan(tr.id, heavy.code);
      expect(asked.json()).toEqual({
        outcome: 'overload',
        code: heavy.code,
        message: `Con ${heavy.code} la carga llegaría a 3.50 kg y supera la capacidad (3.00 kg). ¿Cargarlo igual?`,
        overCapacity: true,
      });
      expect(await scalar(sql`select count(*) as n from transport_assignments where shipment_id = ${heavy.id}`)).toBe(0);
      const confirmed = await t.call('POST', `/api/transports/${tr.id}/scan`, {
        token: agentLima,
        body: { code: heavy.code, confirmOverload: true },
      });
      expect(confirmed.json()).toMatchObject({ outcome: 'loaded', overCapacity: true });
      const codes = (await t.call('GET', `/api/transports/${tr.id}/assignments`, { token: admin })).json().items.map((i: { code: string }) => i.code);
      expect(codes).toEqual([s.code, heavy.code]);
    });
  });

  describe('unload check (desembarque)', () => {
    it('lists expected, scanned, missing and extra; closing with missing records an incident on each', async () => {
      const tr = await newTransport();
      const [a, b, c] = [await newShipment(1), await newShipment(1), await newShipment(1)];
      const stray = await newShipment(1);
      expect((await load(tr.id, [a.id, b.id, c.id])).statusCode).toBe(201);
      expect((await depart(tr.id)).statusCode).toBe(201);

      // Lima may not check what comes off a truck in Arequipa.
      expect((await t.call('GET', `/api/transports/${tr.id}/unload-check`, { token: agentLima })).statusCode).toBe(403);
      const unloadScan = (code: string) => t.call('POST', `/api/transports/${tr.id}/unload-scans`, { token: agentArequipa, body: { code } });
      expect((await unloadScan(a.code)).json()).toMatchObject({ outcome: 'scanned' });
      expect((await unloadScan(a.code)).json()).toMatchObject({ outcome: 'already' });
      expect((await unloadScan(b.code)).json()).toMatchObject({ outcome: 'scanned' });
      const extra = await unloadScan(stray.code);
      expect(extra.json()).toMatchObject({ outcome: 'extra', message: `${stray.code} no viaja en este transporte: queda como sobrante.` });
      const check = extra.json().check;
      const codes = (list: { code: string }[]) => list.map((r) => r.code);
      expect(codes(check.expected)).toEqual([a.code, b.code, c.code].sort());
      expect(codes(check.scanned)).toEqual([a.code, b.code].sort());
      expect(codes(check.missing)).toEqual([c.code]);
      expect(codes(check.extra)).toEqual([stray.code]);

      const closed = await arrive(tr.id, agentArequipa, { receive: 'scanned' });
      expect(closed.statusCode).toBe(200);
      expect(await statusOf(a.id)).toBe('En agencia');
      expect(await statusOf(b.id)).toBe('En agencia');
      expect(await statusOf(c.id)).toBe('En tránsito');
      expect(await statusOf(stray.id)).toBe('Creado');
      expect(await rows(sql`select shipment_id, reason, closed_at from incidents where trip_id = ${closed.json().id}`)).toEqual([
        { shipment_id: c.id, reason: 'faltante en desembarque', closed_at: null },
      ]);
    });
  });

  describe('cargo manifest', () => {
    it('prints the load as a draft before departure and the trip after it, as an A4 PDF', async () => {
      const tr = await newTransport();
      const s = await newShipment(2);
      expect((await load(tr.id, [s.id])).statusCode).toBe(201);
      const draft = await t.call('GET', `/api/transports/${tr.id}/manifest.pdf`, { token: agentLima });
      expect(draft.statusCode).toBe(200);
      expect(draft.headers.get('content-type')).toContain('application/pdf');
      expect(draft.body.startsWith('%PDF-')).toBe(true);
      // An empty page is about 1 kB; a drawn manifest more than twice that.
      expect(draft.body.length).toBeGreaterThan(2000);
      const trip = (await depart(tr.id)).json();
      const printed = await t.call('GET', `/api/trips/${trip.id}/manifest.pdf`, { token: agentArequipa });
      expect(printed.statusCode).toBe(200);
      expect(printed.headers.get('content-disposition')).toContain(`manifiesto-viaje-${trip.id}.pdf`);
      expect((await t.call('GET', '/api/trips/999999/manifest.pdf', { token: admin })).statusCode).toBe(404);
    });

    it('refuses an agent who may not see a shipment on it', async () => {
      const tr = await newTransport({ origin_branch_id: lima, destination_branch_id: cusco });
      const s = await newShipment(2, cusco);
      expect((await load(tr.id, [s.id], admin)).statusCode).toBe(201);
      expect((await t.call('GET', `/api/transports/${tr.id}/manifest.pdf`, { token: agentArequipa })).statusCode).toBe(403);
    });
  });

  describe('incidents', () => {
    it('records an incident with a reason, counts it as open, filters the list by it and closes it', async () => {
      const s = await newShipment(1);
      const openBefore = (await t.call('GET', '/api/incidents/open', { token: agentLima })).json().open;
      const bad = await t.call('POST', `/api/shipments/${s.id}/incidents`, { token: agentLima, body: { reason: 'perdido' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields.reason).toBe('Selecciona un motivo.');
      const badPhoto = await t.call('POST', `/api/shipments/${s.id}/incidents`, {
        token: agentLima,
        body: { reason: 'dañado', photo: 'javascript:alert(1)' },
      });
      expect(badPhoto.statusCode).toBe(400);

      const created = await t.call('POST', `/api/shipments/${s.id}/incidents`, {
        token: agentLima,
        body: { reason: 'dañado', note: 'Caja abollada', photo: SIGNATURE_PNG },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ shipmentCode: s.code, reason: 'dañado', note: 'Caja abollada', hasPhoto: true, closedAt: null });
      expect(await lastEvent(s.id)).toMatchObject({ name: 'Incidencia: Dañado' });
      expect((await t.call('GET', '/api/incidents/open', { token: agentLima })).json().open).toBe(openBefore + 1);

      const listed = (await t.call('GET', '/api/shipments?incidencia=abierta&pageSize=100', { token: agentLima })).json();
      expect(listed.items.map((r: { code: string }) => r.code)).toContain(s.code);
      expect(listed.total).toBe(openBefore + 1);
      expect((await t.call('GET', '/api/shipments?incidencia=cerrada', { token: agentLima })).statusCode).toBe(400);

      // Arequipa's agent may not touch a Lima → Cusco shipment.
      const cuscoOnly = await newShipment(1, cusco);
      expect((await t.call('POST', `/api/shipments/${cuscoOnly.id}/incidents`, { token: agentArequipa, body: { reason: 'otro' } })).statusCode).toBe(
        403,
      );

      const closed = await t.call('POST', `/api/incidents/${created.json().id}/close`, { token: agentArequipa, body: { note: 'Cliente conforme' } });
      expect(closed.statusCode).toBe(200);
      expect(closed.json().closedByName).toBeTruthy();
      expect((await t.call('POST', `/api/incidents/${created.json().id}/close`, { token: agentArequipa, body: {} })).statusCode).toBe(422);
      expect((await t.call('GET', '/api/incidents/open', { token: agentLima })).json().open).toBe(openBefore);
      expect((await t.call('GET', `/api/shipments/${s.id}/incidents`, { token: agentLima })).json()).toHaveLength(1);
    });
  });

  describe('loaded plates of the list (issue 16, item 4)', () => {
    it('answers which shipments are on a transport and on which plate, only for shipments the user may see', async () => {
      const tr = await newTransport({ destination_branch_id: cusco });
      const [a, free] = [await newShipment(1, cusco), await newShipment(1, cusco)];
      expect((await load(tr.id, [a.id], admin)).statusCode).toBe(201);
      const ask = (token: string) => t.call('GET', `/api/transports/loaded-plates?shipmentIds=${a.id},${free.id}`, { token });
      expect((await ask(agentLima)).json()).toEqual([{ shipmentId: a.id, transportId: tr.id, plate: tr.plate_primary }]);
      expect((await ask(agentArequipa)).json()).toEqual([]);
      expect((await t.call('GET', '/api/transports/loaded-plates?shipmentIds=1;drop', { token: admin })).statusCode).toBe(400);
    });
  });
});
