import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { seedLimaPrices } from './fixtures.ts';
import { engines, startTestApp, statusCounts, type TestContext } from './harness.ts';

/** Issue 17: return to origin ('Devuelto') and its unbilled return leg. */
describe.each(engines)('return to origin (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agentLima: string;
  let agentArequipa: string;
  let lima: number;
  let arequipa: number;

  beforeAll(async () => {
    t = await startTestApp(engine, { seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '1.4']] }) });
    [admin, agentLima, agentArequipa] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1'), t.login('AGENTE2')]);
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
  });
  afterAll(() => t?.close());

  const rows = async (query: ReturnType<typeof sql>) => (await t.database.db.execute(query)).rows as Record<string, unknown>[];

  /** A shipment Lima → Arequipa, put in `status` directly (the trip that moves it is tested in trips.test.ts). */
  const shipmentIn = async (status: string) => {
    const res = await t.call('POST', '/api/shipments', {
      token: admin,
      body: {
        senderName: 'Comercial Andina SAC',
        recipientDoc: '45879612',
        recipientFirstName: 'María',
        recipientLastName: 'Flores Ccori',
        originBranchId: lima,
        destinationBranchId: arequipa,
        lines: [{ productType: 'liviano', weightKg: 2.5 }],
        secretCode: 'clave-1',
      },
    });
    if (res.statusCode !== 201) throw new Error(`shipment ${res.statusCode} ${res.body}`);
    const s = res.json() as { id: number; code: string };
    await t.database.db.execute(sql`update shipments set status = ${status} where id = ${s.id}`);
    return s;
  };
  const giveBack = (id: number, token: string, key?: string, reason = 'Destinatario no ubicable') =>
    t.call('POST', `/api/shipments/${id}/return`, {
      token,
      body: { reason, secretCode: 'vuelta-1' },
      ...(key ? { headers: { 'idempotency-key': key } } : {}),
    });

  it('closes an En agencia shipment as Devuelto and registers the swapped, unbilled return leg, both linked', async () => {
    const s = await shipmentIn('En agencia');
    const res = await giveBack(s.id, agentArequipa);
    expect(res.statusCode).toBe(201);
    const { original, returnShipment } = res.json();
    expect(original).toMatchObject({ id: s.id, status: 'Devuelto' });
    expect(returnShipment).toMatchObject({
      status: 'Creado',
      originBranchId: arequipa,
      destinationBranchId: lima,
      senderName: 'María Flores Ccori',
      recipientName: 'Comercial Andina SAC',
      weightKg: 2.5,
      returnOf: { id: s.id, code: s.code },
    });
    expect(returnShipment.code).not.toBe(s.code);
    expect(Number(returnShipment.quotedPrice)).toBe(0);
    // Editing would re-price it from the tables: a return leg is not edited.
    const edit = await t.call('PUT', `/api/shipments/${returnShipment.id}`, {
      token: agentArequipa,
      body: {
        senderName: 'María Flores Ccori',
        recipientDoc: '45879612',
        recipientFirstName: 'Comercial',
        recipientLastName: 'Andina SAC',
        originBranchId: arequipa,
        destinationBranchId: lima,
        lines: [{ productType: 'liviano', weightKg: 2.5 }],
      },
    });
    expect(edit.statusCode, edit.body).toBe(409);
    expect(edit.json().error).toContain('Un retorno no se edita');

    const detail = (await t.call('GET', `/api/shipments/${s.id}`, { token: admin })).json();
    expect(detail.returnedAs).toEqual({ id: returnShipment.id, code: returnShipment.code });
    const [event] = await rows(sql`select name, status_from, status_to from shipment_events where shipment_id = ${s.id} order by id desc limit 1`);
    expect(event).toMatchObject({ name: 'Devuelto a origen: Destinatario no ubicable', status_from: 'En agencia', status_to: 'Devuelto' });
    const audits = await rows(
      sql`select action from audit_log where entity = 'shipment' and entity_id in (${String(s.id)}, ${String(returnShipment.id)}) order by id`,
    );
    expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(['return', 'create']));
  });

  it('lets the origin agent return a shipment En tránsito, and refuses every other status in Spanish', async () => {
    const onRoad = await shipmentIn('En tránsito');
    expect((await giveBack(onRoad.id, agentLima)).statusCode).toBe(201);

    for (const status of ['Creado', 'Entregado', 'Anulado']) {
      const s = await shipmentIn(status);
      const res = await giveBack(s.id, admin);
      expect(res.statusCode, status).toBe(409);
      expect(res.json().error).toContain(`(este está '${status}')`);
      expect((await rows(sql`select status from shipments where id = ${s.id}`))[0]!.status).toBe(status);
    }
  });

  it('refuses an agent of another branch and a missing reason', async () => {
    const s = await shipmentIn('En agencia');
    const res = await giveBack(s.id, agentLima);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toContain('Solo la agencia donde está el envío');
    const noReason = await giveBack(s.id, agentArequipa, undefined, '  ');
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error).toContain('motivo');
    expect((await rows(sql`select status from shipments where id = ${s.id}`))[0]!.status).toBe('En agencia');
  });

  it('makes a concurrent double return one return leg; the same Idempotency-Key repeats the answer', async () => {
    const s = await shipmentIn('En agencia');
    const answers = await Promise.all([giveBack(s.id, agentArequipa), giveBack(s.id, admin)]);
    expect(statusCounts(answers.map((a) => a.statusCode))).toEqual({ 201: 1, 409: 1 });
    expect(answers.find((a) => a.statusCode === 409)!.json().error).toContain('ya fue devuelto a origen como TMT-');
    const legs = await rows(sql`select id from shipments where return_of_shipment_id = ${s.id}`);
    expect(legs).toHaveLength(1);

    const k = await shipmentIn('En agencia');
    const first = await giveBack(k.id, agentArequipa, 'retry-1');
    const again = await giveBack(k.id, agentArequipa, 'retry-1');
    expect([first.statusCode, again.statusCode]).toEqual([201, 200]);
    expect(again.json().returnShipment.id).toBe(first.json().returnShipment.id);
    expect((await giveBack(k.id, agentArequipa, 'other-key')).statusCode).toBe(409);
  });

  it("answers 50 parallel returns with one key (a dialog's retries) with one leg: one 201, the rest its replay", async () => {
    const s = await shipmentIn('En agencia');
    const answers = await Promise.all(Array.from({ length: 50 }, () => giveBack(s.id, agentArequipa, 'dialog-key')));
    expect(statusCounts(answers.map((a) => a.statusCode))).toEqual({ 201: 1, 200: 49 });
    expect(new Set(answers.map((a) => a.json().returnShipment.id)).size).toBe(1);
    expect(await rows(sql`select id from shipments where return_of_shipment_id = ${s.id}`)).toHaveLength(1);
  });

  it('holds one return leg per shipment in the database itself (a unique index the leg lookup also reads)', async () => {
    const s = await shipmentIn('En agencia');
    expect((await giveBack(s.id, admin)).statusCode).toBe(201);
    // A second leg written past the service (a bug, a manual fix) is refused by the database.
    const other = await shipmentIn('Creado');
    const refused = await t.database.db.execute(sql`update shipments set return_of_shipment_id = ${s.id} where id = ${other.id}`).then(
      () => null,
      (err: unknown) => err as { cause?: { code?: string } },
    );
    expect(refused?.cause?.code).toBe('23505');
    expect(await rows(sql`select id from shipments where return_of_shipment_id = ${s.id}`)).toHaveLength(1);
  });
});
