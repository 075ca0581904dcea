import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PRICING_MESSAGES, SHIPMENT_MESSAGES } from '@tramo/domain';
import { LIVIANO_TIERS, seedLimaPrices, shipmentBody } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/**
 * A creation reads the branches and the route's price tables from a per-process cache (issue 19,
 * plugins/reference-cache.ts). Each case first creates on a route, so that route is cached, then
 * changes what the cache holds and checks the very next creation sees the change: through the API
 * (evicted at once in this process), and straight in SQL, as an operator would (the triggers'
 * notice, which reaches the process a moment after the commit).
 */
describe.each(engines)('the reference cache of shipment creations (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
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
    admin = await t.login('ADMIN');
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
    trujillo = t.branchIds.get('Trujillo')!;
  });
  afterAll(() => t?.close());

  const create = (route: { originBranchId: number; destinationBranchId: number }, over: Record<string, unknown> = {}) =>
    t.call('POST', '/api/shipments', { token: admin, body: shipmentBody(route, over) });
  const tableOf = async (destination: number) => {
    const r = await t.database.db.execute(
      sql`select id from weight_factor_tables where origin_branch_id = ${lima} and destination_branch_id = ${destination} and product_type = 'liviano' and active`,
    );
    return Number((r.rows[0] as { id: number }).id);
  };
  /**
   * What a change made in SQL must reach within: the notice leaves at commit and the listening
   * connection reads it a few milliseconds later. 2 s is far below the cache's 60 s expiry, so a
   * missing notice still fails.
   */
  const soon = async <T>(read: () => Promise<T>, expected: T) => {
    for (let waited = 0; waited < 2000 && (await read()) !== expected; waited += 25) await new Promise((r) => setTimeout(r, 25));
    expect(await read()).toBe(expected);
  };

  it('prices the very next creation with tiers just replaced through the API', async () => {
    const route = { originBranchId: lima, destinationBranchId: arequipa };
    const before = await create(route);
    expect(before.statusCode).toBe(201);
    // 2.5 kg bill as 3 kg at 1.4.
    expect(before.json().quotedPrice).toBe(4.2);
    const id = await tableOf(arequipa);
    const put = await t.call('PUT', `/api/weight-factors/${id}/tiers`, {
      token: admin,
      body: { tiers: [{ from_kg: 1, to_kg: 1000, factor_per_kg: 2 }] },
    });
    expect(put.statusCode).toBe(200);
    const after = await create(route);
    expect(after.statusCode).toBe(201);
    expect(after.json().quotedPrice).toBe(6);
    expect(after.json().multiLineDetail[0].factorPerKg).toBe(2);
  });

  it('refuses the next creation on a route whose table was deactivated in SQL, and prices it again once a table is back', async () => {
    const route = { originBranchId: lima, destinationBranchId: trujillo };
    expect((await create(route)).statusCode).toBe(201);
    const id = await tableOf(trujillo);
    await t.database.db.execute(sql`update weight_factor_tables set active = false where id = ${id}`);
    const refusal = async () => {
      const res = await create(route);
      return res.statusCode === 422 ? res.json().error : res.statusCode;
    };
    await soon(refusal, PRICING_MESSAGES.noTable);
    const res = await create(route);
    expect(res.json()).toMatchObject({ code: 'NO_PRICE_TABLE', error: PRICING_MESSAGES.noTable });

    // A new table through the API: the refused route (cached as having none) is priced at once.
    const made = await t.call('POST', '/api/weight-factors', {
      token: admin,
      body: { origin_branch_id: lima, destination_branch_id: trujillo, product_type: 'liviano' },
    });
    expect(made.statusCode).toBe(201);
    expect((await create(route)).statusCode).toBe(201);
  });

  it('refuses a branch deleted just after a creation read it, with the same message, and shows a renamed one at once', async () => {
    const made = await t.call('POST', '/api/branches', { token: admin, body: { name: 'Tacna', city: 'Tacna' } });
    expect(made.statusCode).toBe(201);
    const tacna = made.json().id as number;
    const route = { originBranchId: lima, destinationBranchId: tacna };
    // Tacna has no price table: refused by the prices, with both branches and the route now cached.
    expect((await create(route)).json()).toMatchObject({ code: 'NO_PRICE_TABLE' });
    expect((await t.call('DELETE', `/api/branches/${tacna}`, { token: admin })).statusCode).toBe(204);
    const gone = await create(route);
    expect(gone.statusCode).toBe(422);
    expect(gone.json().error).toBe(SHIPMENT_MESSAGES.destinationNotFound);

    const route2 = { originBranchId: lima, destinationBranchId: arequipa };
    expect((await create(route2)).json().destinationBranch.name).toBe('Arequipa');
    const renamed = await t.call('PUT', `/api/branches/${arequipa}`, { token: admin, body: { name: 'Arequipa Centro', city: 'Arequipa' } });
    expect(renamed.statusCode).toBe(200);
    expect((await create(route2)).json().destinationBranch.name).toBe('Arequipa Centro');

    // Renamed straight in SQL: the notice reaches the cache.
    await t.database.db.execute(sql`update branches set name = 'Arequipa Cercado' where id = ${arequipa}`);
    await soon(async () => (await create(route2)).json().destinationBranch.name, 'Arequipa Cercado');
  });

  it('writes the shipment, its first event and its audit row together, answers what the detail then reads, and queues the outbox when there is a contact', async () => {
    const route = { originBranchId: lima, destinationBranchId: arequipa };
    const res = await create(route, { recipientPhone: '987654321', recipientEmail: 'maria@example.pe' });
    expect(res.statusCode).toBe(201);
    const s = res.json();
    const rows = async (query: ReturnType<typeof sql>) => (await t.database.db.execute(query)).rows as Record<string, unknown>[];
    const events = await rows(sql`select id, kind, name, status_to, user_name from shipment_events where shipment_id = ${s.id}`);
    expect(events).toEqual([{ id: expect.anything(), kind: 'status', name: 'Creado', status_to: 'Creado', user_name: s.createdByName }]);
    expect(Number(events[0]!.id)).toBe(s.checkpoints[0].id);
    const [audit] = await rows(sql`select user_id, action, after from audit_log where entity = 'shipment' and entity_id = ${String(s.id)}`);
    const { canManage: _m, canEdit: _e, checkpoints: _c, ...snapshot } = s;
    expect(audit).toMatchObject({ action: 'create', after: snapshot });
    // The answer is built from the values written, not read back: it is what the detail reads.
    expect((await t.call('GET', `/api/shipments/${s.id}`, { token: admin })).json()).toMatchObject(s);
    const outbox = await rows(sql`select channel, party, address from notification_outbox where shipment_id = ${s.id} order by channel`);
    expect(outbox).toEqual([
      { channel: 'email', party: 'recipient', address: 'maria@example.pe' },
      { channel: 'whatsapp', party: 'recipient', address: '987654321' },
    ]);
  });

  it('answers a creation uncompressed: brotli would cost a tenth of its CPU to spare under a kilobyte', async () => {
    const body = shipmentBody({ originBranchId: lima, destinationBranchId: arequipa });
    const res = await t.call('POST', '/api/shipments', { token: admin, body, headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(201);
    expect(res.body.length).toBeGreaterThan(1024);
    expect(res.headers.get('content-encoding')).toBeNull();
  });
});
