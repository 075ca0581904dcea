import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { LIVIANO_TIERS, seedLimaPrices } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

const WRONG = 'Clave secreta inválida';
const LOCKED = 'Demasiados intentos con clave incorrecta. La entrega de este envío está bloqueada por 15 minutos.';
const SECRET = 'clave-7';

/** Price tables of this file only: Lima→Arequipa and Lima→Trujillo, liviano 1–1000 kg. */

describe.each(engines)('deliveries (%s)', (engine) => {
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
      seed: (db, ids) =>
        seedLimaPrices(db, ids, ['Arequipa', 'Trujillo'], {
          liviano: LIVIANO_TIERS,
        }),
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

  const scalar = async (query: ReturnType<typeof sql>) => {
    const r = await t.database.db.execute(query);
    return Number((r.rows[0] as { n: number | string }).n);
  };
  const failures = (id: number) => scalar(sql`select coalesce((select failures from delivery_attempts where shipment_id = ${id}), 0) as n`);
  const auditCount = (id: number, action: string) =>
    scalar(sql`select count(*) as n from audit_log where entity = 'shipment' and entity_id = ${String(id)} and action = ${action}`);

  /** A shipment Lima → destination, registered through the API by AGENTE1. */
  const create = async (destination = arequipa) => {
    const res = await t.call('POST', '/api/shipments', {
      token: agentLima,
      body: {
        senderName: 'Comercial Andina SAC',
        recipientDoc: '45879612',
        recipientFirstName: 'María',
        recipientLastName: 'Flores Ccori',
        originBranchId: lima,
        destinationBranchId: destination,
        lines: [{ productType: 'liviano', weightKg: 2.5 }],
        secretCode: SECRET,
      },
    });
    if (res.statusCode !== 201) throw new Error(`create failed ${res.statusCode} ${res.body}`);
    return res.json() as { id: number; code: string; status: string };
  };

  const payload = (over: Record<string, unknown> = {}) => ({
    secretCode: SECRET,
    receiverName: 'María Flores Ccori',
    receiverDoc: '45879612',
    deliveredByName: 'Jorge Mamani',
    notes: 'Recibido en mostrador',
    ...over,
  });
  const deliver = (id: number | string, over: Record<string, unknown> = {}, token = courierArequipa) =>
    t.call('POST', `/api/shipments/${id}/deliver`, { token, body: payload(over) });

  it('lists agents and couriers for "delivered by", sorted by username, to every role', async () => {
    for (const token of [admin, agentLima, courierArequipa]) {
      const res = await t.call('GET', '/api/deliveries/agents', { token });
      expect(res.statusCode).toBe(200);
      const agents = res.json() as { id: number; username: string; name: string; role: string }[];
      expect(agents.map((a) => a.username)).toEqual(['AGENTE1', 'AGENTE2', 'REPARTIDOR1']);
      expect(agents[2]).toMatchObject({ name: 'Jorge Mamani', role: 'courier', branchName: 'Arequipa' });
      expect(JSON.stringify(agents)).not.toMatch(/password|argon/i);
    }
    expect((await t.call('GET', '/api/deliveries/agents')).statusCode).toBe(401);
  });

  it('delivers with the right code: Entregado, deliveredInfo, a history event with who and when, an audit row', async () => {
    const s = await create();
    t.clock.advance(60_000);
    const at = t.clock.now().toISOString();
    const res = await deliver(s.id);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: s.id, code: s.code, status: 'Entregado' });
    expect(body.deliveredInfo).toEqual({
      receiverName: 'María Flores Ccori',
      receiverDoc: '45879612',
      deliveredByName: 'Jorge Mamani',
      deliveredAt: at,
      notes: 'Recibido en mostrador',
    });
    expect(body).not.toHaveProperty('secretCodeHash');
    const last = body.checkpoints.at(-1);
    expect(last).toMatchObject({ kind: 'delivery', statusFrom: 'Creado', statusTo: 'Entregado', userName: 'Jorge Mamani', at });
    expect(last.name).toContain('María Flores Ccori');
    expect(await auditCount(s.id, 'deliver')).toBe(1);
    const detail = await t.call('GET', `/api/shipments/${s.code}`, { token: admin });
    expect(detail.json()).toMatchObject({ status: 'Entregado', deliveredInfo: { receiverDoc: '45879612' } });
  });

  it('delivers from En tránsito too, with blank notes stored as null', async () => {
    const s = await create();
    expect((await t.call('PATCH', `/api/shipments/${s.id}/status`, { token: agentLima, body: { status: 'En tránsito' } })).statusCode).toBe(200);
    const res = await deliver(s.id, { notes: '  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json().deliveredInfo.notes).toBeNull();
    expect(res.json().checkpoints.at(-1)).toMatchObject({ statusFrom: 'En tránsito', statusTo: 'Entregado' });
  });

  it('refuses a wrong code with 422 on the secret field and counts it in the database; the right code then resets it', async () => {
    const s = await create();
    const res = await deliver(s.id, { secretCode: 'otra-clave' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: WRONG, code: 'WRONG_SECRET_CODE', fields: { secretCode: WRONG } });
    expect(await failures(s.id)).toBe(1);
    expect((await deliver(s.id, { secretCode: 'otra-clave' })).statusCode).toBe(422);
    expect(await failures(s.id)).toBe(2);
    const detail = await t.call('GET', `/api/shipments/${s.id}`, { token: admin });
    expect(detail.json()).toMatchObject({ status: 'Creado', deliveredInfo: null });
    expect(await auditCount(s.id, 'deliver')).toBe(0);
    expect((await deliver(s.id)).statusCode).toBe(200);
    expect(await scalar(sql`select count(*) as n from delivery_attempts where shipment_id = ${s.id}`)).toBe(0);
  });

  it('locks delivery after five wrong codes (429, even with the right code) and unlocks after 15 minutes', async () => {
    const s = await create();
    for (let i = 1; i <= 4; i++) {
      const res = await deliver(s.id, { secretCode: `mala-${i}` });
      expect(res.statusCode, `attempt ${i}`).toBe(422);
    }
    const fifth = await deliver(s.id, { secretCode: 'mala-5' });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toMatchObject({ error: LOCKED, code: 'DELIVERY_LOCKED' });
    expect(await failures(s.id)).toBe(5);
    expect(await auditCount(s.id, 'delivery-locked')).toBe(1);

    const right = await deliver(s.id);
    expect(right.statusCode).toBe(429);
    expect(right.json().error).toBe(LOCKED);
    t.clock.advance(15 * 60_000 - 1000);
    expect((await deliver(s.id)).statusCode).toBe(429);
    expect((await t.call('GET', `/api/shipments/${s.id}`, { token: admin })).json().status).toBe('Creado');

    t.clock.advance(1001);
    const after = await deliver(s.id);
    expect(after.statusCode).toBe(200);
    expect(after.json().status).toBe('Entregado');
  });

  it('after the lock expires a wrong code starts a new count; failures older than the window are forgotten', async () => {
    const s = await create();
    for (let i = 0; i < 5; i++) await deliver(s.id, { secretCode: 'mala' });
    t.clock.advance(15 * 60_000 + 1);
    expect((await deliver(s.id, { secretCode: 'mala' })).statusCode).toBe(422);
    expect(await failures(s.id)).toBe(1);

    for (let i = 0; i < 3; i++) await deliver(s.id, { secretCode: 'mala' });
    expect(await failures(s.id)).toBe(4);
    t.clock.advance(15 * 60_000 + 1);
    expect((await deliver(s.id, { secretCode: 'mala' })).statusCode).toBe(422);
    expect(await failures(s.id)).toBe(1);
  });

  it('refuses delivery from Entregado and Anulado with the status in the message, before any code check', async () => {
    const delivered = await create();
    expect((await deliver(delivered.id)).statusCode).toBe(200);
    const again = await deliver(delivered.id);
    expect(again.statusCode).toBe(422);
    expect(again.json()).toMatchObject({
      error: "No se puede entregar desde el estado 'Entregado'",
      fields: { secretCode: expect.stringContaining('No se puede entregar desde el estado') },
    });
    const wrongOnDelivered = await deliver(delivered.id, { secretCode: 'mala' });
    expect(wrongOnDelivered.json().error).toBe("No se puede entregar desde el estado 'Entregado'");
    expect(await failures(delivered.id)).toBe(0);

    const cancelled = await create();
    expect((await t.call('DELETE', `/api/shipments/${cancelled.id}`, { token: agentLima })).statusCode).toBe(200);
    const res = await deliver(cancelled.id);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe("No se puede entregar desde el estado 'Anulado'");
    expect((await t.call('GET', `/api/shipments/${cancelled.id}`, { token: admin })).json()).toMatchObject({
      status: 'Anulado',
      deliveredInfo: null,
    });
  });

  it('two concurrent deliveries of one shipment: exactly one succeeds', async () => {
    const s = await create();
    const results = await Promise.all([deliver(s.id, {}, courierArequipa), deliver(s.id, { receiverName: 'Otro Receptor' }, agentArequipa)]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 422]);
    const refused = results.find((r) => r.statusCode === 422)!;
    expect(refused.json().error).toBe("No se puede entregar desde el estado 'Entregado'");
    expect(await scalar(sql`select count(*) as n from shipment_events where shipment_id = ${s.id} and kind = 'delivery'`)).toBe(1);
    expect(await auditCount(s.id, 'deliver')).toBe(1);
  });

  it('branch rule: admin and staff of the destination branch deliver; others get 403 and change nothing', async () => {
    const toArequipa = await create();
    const fromLima = await deliver(toArequipa.id, {}, agentLima);
    expect(fromLima.statusCode).toBe(403);
    expect(fromLima.json().error).toBe('Solo la sucursal de destino puede confirmar la entrega de este envío.');
    // A wrong code from the wrong branch is refused before it can count against the shipment.
    expect((await deliver(toArequipa.id, { secretCode: 'mala' }, agentLima)).statusCode).toBe(403);
    expect(await failures(toArequipa.id)).toBe(0);
    expect((await deliver(toArequipa.id, {}, agentArequipa)).statusCode).toBe(200);

    const toTrujillo = await create(trujillo);
    expect((await deliver(toTrujillo.id, {}, courierArequipa)).statusCode).toBe(403);
    expect((await deliver(toTrujillo.id, {}, agentArequipa)).statusCode).toBe(403);
    expect((await t.call('GET', `/api/shipments/${toTrujillo.id}`, { token: admin })).json().status).toBe('Creado');
    expect((await deliver(toTrujillo.id, {}, admin)).statusCode).toBe(200);
  });

  it('bad input answers 400 with the Spanish message on its field and changes nothing', async () => {
    const s = await create();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ secretCode: '' }, 'secretCode', 'Clave requerida'],
      [{ secretCode: 'abc' }, 'secretCode', 'Clave requerida'],
      [{ secretCode: undefined }, 'secretCode', 'Clave requerida'],
      [{ receiverName: 'M' }, 'receiverName', 'Nombre requerido'],
      [{ receiverName: 'x'.repeat(81) }, 'receiverName', 'Muy largo'],
      [{ receiverDoc: '' }, 'receiverDoc', 'Documento requerido'],
      [{ receiverDoc: '12345' }, 'receiverDoc', 'Documento inválido'],
      [{ receiverDoc: '1'.repeat(21) }, 'receiverDoc', 'Documento inválido'],
      [{ receiverDoc: '4587 9612' }, 'receiverDoc', 'Documento inválido'],
      [{ deliveredByName: 'J' }, 'deliveredByName', 'Quién entrega'],
      [{ deliveredByName: null }, 'deliveredByName', 'Quién entrega'],
      [{ notes: 'n'.repeat(201) }, 'notes', 'Máx. 200 caracteres'],
      [{ receiverName: 42 }, 'receiverName', 'Nombre requerido'],
    ];
    for (const [over, field, message] of cases) {
      const res = await deliver(s.id, over);
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().fields[field], JSON.stringify(over)).toBe(message);
      expect(res.json().error).toContain(message);
    }
    for (const id of ['0', '-3', 'abc', '1.5', '99999999999']) {
      const res = await deliver(id);
      expect(res.statusCode, id).toBe(400);
      expect(res.json().fields.id).toBe('Identificador inválido');
    }
    const notJson = await t.call('POST', `/api/shipments/${s.id}/deliver`, { token: courierArequipa, body: '{nope' });
    expect(notJson.statusCode).toBe(400);
    expect((await deliver(999_999)).statusCode).toBe(404);

    expect(await failures(s.id)).toBe(0);
    expect(await auditCount(s.id, 'deliver')).toBe(0);
    const detail = (await t.call('GET', `/api/shipments/${s.id}`, { token: admin })).json();
    expect(detail).toMatchObject({ status: 'Creado', deliveredInfo: null });
    expect(detail.checkpoints).toHaveLength(1);
    // Still deliverable with good input.
    expect((await deliver(s.id, { receiverDoc: 'CE-001.234' })).statusCode).toBe(200);
  });

  it('needs a session', async () => {
    const s = await create();
    expect((await t.call('POST', `/api/shipments/${s.id}/deliver`, { body: payload() })).statusCode).toBe(401);
  });
});
