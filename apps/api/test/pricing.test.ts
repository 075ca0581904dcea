import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { seedPricing } from '../src/seed/pricing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

const INVALID = 'Hay valores inválidos (desde ≥ 1, hasta ≥ desde, factor > 0).';
const OVERLAP = 'Hay tramos que se solapan...';

describe.each(engines)('weight factors (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let lima: number;
  let cusco: number;
  let tacna: number;
  let puno: number;

  beforeAll(async () => {
    t = await startTestApp(engine, { seed: seedPricing });
    admin = await t.login('ADMIN');
    agent = await t.login('AGENTE1');
    lima = t.branchIds.get('Lima')!;
    cusco = t.branchIds.get('Cusco')!;
    // Two branches with no tables, so creation starts from nothing.
    const mk = async (name: string) => (await t.call('POST', '/api/branches', { token: admin, body: { name, city: name } })).json().id as number;
    tacna = await mk('Tacna');
    puno = await mk('Puno');
  });
  afterAll(() => t?.close());

  const tiersOf = async (tableId: number) => {
    const r = await t.database.db.execute(
      sql`select from_kg::text as f, to_kg::text as t, factor_per_kg::text as k, sort_order as o from weight_factor_tiers where table_id = ${tableId} order by from_kg`,
    );
    return r.rows as { f: string; t: string; k: string; o: number }[];
  };
  const tableCount = async () => {
    const r = await t.database.db.execute(sql`select count(*)::int as n from weight_factor_tables`);
    return (r.rows[0] as { n: number }).n;
  };
  const create = (body: Record<string, unknown>, token = agent) => t.call('POST', '/api/weight-factors', { token, body });
  const put = (id: number, tiers: unknown, token = agent) => t.call('PUT', `/api/weight-factors/${id}/tiers`, { token, body: { tiers } });

  it('the demo seed covers every pair in at least one direction, all classes, 1–1000 kg without overlaps', async () => {
    const res = await t.call('GET', '/api/weight-factors?active=true', { token: agent });
    expect(res.statusCode).toBe(200);
    const tables = res.json() as {
      origin_branch_id: number;
      destination_branch_id: number;
      product_type: string;
      tiers: { from_kg: number; to_kg: number }[];
    }[];
    expect(tables.length).toBe(60);
    const demo = [...t.branchIds.values()];
    for (const a of demo)
      for (const b of demo) {
        if (a >= b) continue;
        for (const cls of ['liviano', 'medio', 'alto']) {
          const found = tables.find(
            (x) =>
              x.product_type === cls &&
              ((x.origin_branch_id === a && x.destination_branch_id === b) || (x.origin_branch_id === b && x.destination_branch_id === a)),
          );
          expect(found, `${a}-${b} ${cls}`).toBeDefined();
          expect(found!.tiers[0]!.from_kg).toBe(1);
          expect(found!.tiers.at(-1)!.to_kg).toBe(1000);
          found!.tiers.forEach((tier, i) => i > 0 && expect(tier.from_kg).toBe(found!.tiers[i - 1]!.to_kg + 1));
        }
      }
  });

  it('lists with filters, tiers included and numbers (not strings)', async () => {
    const res = await t.call('GET', `/api/weight-factors?originId=${lima}&destinationId=${cusco}&productType=medio`, { token: agent });
    expect(res.statusCode).toBe(200);
    const [table] = res.json();
    expect(res.json()).toHaveLength(1);
    expect(table).toMatchObject({ origin_name: 'Lima', destination_name: 'Cusco', product_type: 'medio', currency: 'PEN', active: true });
    expect(typeof table.tiers[0].factor_per_kg).toBe('number');
    expect(table.tiers.map((x: { sort_order: number }) => x.sort_order)).toEqual([1, 2, 3, 4]);
    const none = await t.call('GET', `/api/weight-factors?originId=${tacna}`, { token: agent });
    expect(none.json()).toEqual([]);
    const bad = await t.call('GET', '/api/weight-factors?productType=pesado', { token: agent });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/Categoría inválida/);
    expect((await t.call('GET', '/api/weight-factors?active=si', { token: agent })).statusCode).toBe(400);
  });

  it('creates a table with the default tiers and an audit row; refuses duplicates, unknown branches and equal ends', async () => {
    const before = await tableCount();
    const res = await create({
      origin_branch_id: tacna,
      destination_branch_id: puno,
      product_type: 'liviano',
      name: 'Tacna → Puno',
      currency: 'PEN',
    });
    expect(res.statusCode).toBe(201);
    const table = res.json();
    expect(table).toMatchObject({ name: 'Tacna → Puno', currency: 'PEN', product_type: 'liviano' });
    expect(table.tiers).toEqual([
      { from_kg: 1, to_kg: 10, factor_per_kg: 1.4, sort_order: 1 },
      { from_kg: 11, to_kg: 1000, factor_per_kg: 1.3, sort_order: 2 },
    ]);
    const audits = await t.database.db.execute(
      sql`select action, after from audit_log where entity = 'weight_factor_table' and entity_id = ${String(table.id)}`,
    );
    expect(audits.rows).toHaveLength(1);
    expect((audits.rows[0] as { action: string }).action).toBe('create');

    const dup = await create({ origin_branch_id: tacna, destination_branch_id: puno, product_type: 'liviano', name: 'otra' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe('Ya existe una tabla activa para esta ruta y categoría.');
    const same = await create({ origin_branch_id: tacna, destination_branch_id: tacna, product_type: 'medio' });
    expect(same.statusCode).toBe(400);
    expect(same.json().fields.destination_branch_id).toBe('El origen y el destino deben ser distintos.');
    const unknown = await create({ origin_branch_id: 99999, destination_branch_id: puno, product_type: 'medio' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error).toBe('La sucursal de origen no existe.');
    const usd = await create({ origin_branch_id: puno, destination_branch_id: tacna, product_type: 'medio', currency: 'USD' });
    expect(usd.statusCode).toBe(400);
    expect(usd.json().fields.currency).toBe('Solo se admite la moneda PEN.');
    const noClass = await create({ origin_branch_id: puno, destination_branch_id: tacna });
    expect(noClass.statusCode).toBe(400);
    expect(await tableCount()).toBe(before + 1);

    // The reverse direction is a different route: allowed, named automatically.
    const reverse = await create({ origin_branch_id: puno, destination_branch_id: tacna, product_type: 'liviano' });
    expect(reverse.statusCode).toBe(201);
    expect(reverse.json().name).toBe('Puno → Tacna (liviano)');
  });

  it('replaces the tier list sorted and renumbered, with a before/after audit row', async () => {
    const table = (await create({ origin_branch_id: tacna, destination_branch_id: puno, product_type: 'alto' })).json();
    const res = await put(table.id, [
      { from_kg: 21, to_kg: 1000, factor_per_kg: '1.80', sort_order: 1 },
      { from_kg: 1, to_kg: 5, factor_per_kg: 2.5, sort_order: 2 },
      { from_kg: 6, to_kg: 20, factor_per_kg: 2.1, sort_order: 3 },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().tiers).toEqual([
      { from_kg: 1, to_kg: 5, factor_per_kg: 2.5, sort_order: 1 },
      { from_kg: 6, to_kg: 20, factor_per_kg: 2.1, sort_order: 2 },
      { from_kg: 21, to_kg: 1000, factor_per_kg: 1.8, sort_order: 3 },
    ]);
    expect(await tiersOf(table.id)).toEqual([
      { f: '1.00', t: '5.00', k: '2.5000', o: 1 },
      { f: '6.00', t: '20.00', k: '2.1000', o: 2 },
      { f: '21.00', t: '1000.00', k: '1.8000', o: 3 },
    ]);
    const audits = await t.database.db.execute(
      sql`select before, after from audit_log where entity = 'weight_factor_table' and entity_id = ${String(table.id)} and action = 'replace-tiers'`,
    );
    expect(audits.rows).toHaveLength(1);
    const row = audits.rows[0] as { before: { tiers: unknown[] }; after: { tiers: unknown[] } };
    expect(row.before.tiers).toHaveLength(2);
    expect(row.after.tiers).toHaveLength(3);
  });

  it('refuses invalid or overlapping tiers and bad bodies with Spanish messages, changing nothing', async () => {
    const table = (await create({ origin_branch_id: puno, destination_branch_id: tacna, product_type: 'medio' })).json();
    const original = await tiersOf(table.id);
    const cases: [unknown, number, string | RegExp][] = [
      [[{ from_kg: 0, to_kg: 10, factor_per_kg: 1 }], 422, INVALID],
      [[{ from_kg: 5, to_kg: 4, factor_per_kg: 1 }], 422, INVALID],
      [[{ from_kg: 1, to_kg: 10, factor_per_kg: 0 }], 422, INVALID],
      [
        [
          { from_kg: 1, to_kg: 10, factor_per_kg: 1 },
          { from_kg: 10, to_kg: 20, factor_per_kg: 1 },
        ],
        422,
        OVERLAP,
      ],
      [[{ from_kg: 1, to_kg: 10, factor_per_kg: 'abc' }], 400, /Debe ser un número/],
      [[{ from_kg: 1, to_kg: 1e12, factor_per_kg: 1 }], 400, /Máximo/],
      [[], 400, /Agrega al menos un tramo/],
      ['no', 400, /lista/],
    ];
    for (const [tiers, status, message] of cases) {
      const res = await put(table.id, tiers);
      expect(res.statusCode, JSON.stringify(tiers)).toBe(status);
      expect(res.json().error).toMatch(message);
    }
    const notJson = await t.call('PUT', `/api/weight-factors/${table.id}/tiers`, {
      token: agent,
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.statusCode).toBe(400);
    const missing = await put(999999, [{ from_kg: 1, to_kg: 10, factor_per_kg: 1 }]);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('Tabla de precios no encontrada.');
    expect((await t.call('PUT', '/api/weight-factors/abc/tiers', { token: agent, body: { tiers: [] } })).statusCode).toBe(400);
    expect(await tiersOf(table.id)).toEqual(original);
    const audits = await t.database.db.execute(
      sql`select count(*)::int as n from audit_log where entity = 'weight_factor_table' and entity_id = ${String(table.id)} and action = 'replace-tiers'`,
    );
    expect((audits.rows[0] as { n: number }).n).toBe(0);
  });

  it('concurrent replacements leave exactly one submitted list, never a mix', async () => {
    const table = (await create({ origin_branch_id: tacna, destination_branch_id: puno, product_type: 'medio' })).json();
    const lists = [1, 2, 3, 4, 5].map((n) =>
      Array.from({ length: n + 1 }, (_, i) => ({ from_kg: i * 10 + 1, to_kg: i * 10 + 10, factor_per_kg: n + i / 100 })),
    );
    const results = await Promise.all(lists.map((l) => put(table.id, l)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const stored = (await tiersOf(table.id)).map((r) => ({ from_kg: Number(r.f), to_kg: Number(r.t), factor_per_kg: Number(r.k) }));
    expect(lists).toContainEqual(stored);
    const audits = await t.database.db.execute(
      sql`select count(*)::int as n from audit_log where entity = 'weight_factor_table' and entity_id = ${String(table.id)} and action = 'replace-tiers'`,
    );
    expect((audits.rows[0] as { n: number }).n).toBe(5);
  });

  it('summarizes active tables in one list with example prices from the quote rule', async () => {
    const table = (await create({ origin_branch_id: puno, destination_branch_id: tacna, product_type: 'alto' })).json();
    await put(table.id, [
      { from_kg: 2, to_kg: 9, factor_per_kg: 1.335 },
      { from_kg: 10, to_kg: 50, factor_per_kg: 1.1 },
    ]);
    const res = await t.call('GET', '/api/weight-factors/summary', { token: agent });
    expect(res.statusCode).toBe(200);
    const rows = res.json();
    const row = rows.find((r: { id: number }) => r.id === table.id);
    expect(row).toMatchObject({
      origin_name: 'Puno',
      destination_name: 'Tacna',
      product_type: 'alto',
      currency: 'PEN',
      tier_count: 2,
      min_kg: 2,
      max_kg: 50,
      price_1kg: null,
      price_10kg: 11,
    });
    const seeded = rows.find(
      (r: { origin_name: string; destination_name: string; product_type: string }) =>
        r.origin_name === 'Lima' && r.destination_name === 'Trujillo' && r.product_type === 'liviano',
    );
    // Lima–Trujillo liviano: 2.34 per kg up to 5 kg, 1.97 from 6 to 20 kg.
    expect(seeded).toMatchObject({ tier_count: 3, min_kg: 1, max_kg: 1000, price_1kg: 2.34, price_10kg: 19.7 });
  });

  it('quotes with the direct table, else the reverse one; 404 without a table, 422 outside the tiers', async () => {
    const table = (await create({ origin_branch_id: tacna, destination_branch_id: lima, product_type: 'liviano' })).json();
    await put(table.id, [{ from_kg: 1, to_kg: 20, factor_per_kg: 1.335 }]);
    const q = (o: number, d: number, weight: string | number, cls = 'liviano', token = agent) =>
      t.call('GET', `/api/weight-factors/quote?originId=${o}&destinationId=${d}&productType=${cls}&weightKg=${weight}`, { token });
    const direct = await q(tacna, lima, 2.3);
    expect(direct.statusCode).toBe(200);
    expect(direct.json()).toEqual({
      price: 4.01,
      currency: 'PEN',
      factorPerKg: 1.335,
      tier: { from_kg: 1, to_kg: 20, factor_per_kg: 1.335 },
      billableWeightKg: 3,
      usingReverse: false,
    });
    const reverse = await q(lima, tacna, 20);
    expect(reverse.json()).toMatchObject({ price: 26.7, usingReverse: true, billableWeightKg: 20 });
    const outside = await q(tacna, lima, 20.01);
    expect(outside.statusCode).toBe(422);
    expect(outside.json().error).toBe('Peso fuera de los rangos configurados.');
    const noTable = await q(tacna, lima, 2, 'medio');
    expect(noTable.statusCode).toBe(404);
    expect(noTable.json().error).toMatch(/^No se pudo cotizar el envío/);
    const bad = await q(tacna, lima, -1);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/El peso debe ser mayor a 0/);
    const seeded = await q(cusco, lima, 10.5, 'alto', admin);
    expect(seeded.statusCode).toBe(200);
    expect(seeded.json().usingReverse).toBe(false);
  });

  it('couriers get 403, no token 401, on every pricing call', async () => {
    const courier = await t.login('REPARTIDOR1');
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/weight-factors'],
      ['GET', '/api/weight-factors/summary'],
      ['GET', `/api/weight-factors/quote?originId=${lima}&destinationId=${cusco}&productType=alto&weightKg=1`],
      ['POST', '/api/weight-factors', { origin_branch_id: puno, destination_branch_id: lima, product_type: 'alto' }],
      ['PUT', '/api/weight-factors/1/tiers', { tiers: [{ from_kg: 1, to_kg: 2, factor_per_kg: 1 }] }],
    ];
    const before = await tableCount();
    for (const [method, url, body] of calls) {
      expect((await t.call(method, url, { token: courier, body })).statusCode, `${method} ${url}`).toBe(403);
      expect((await t.call(method, url, { body })).statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await tableCount()).toBe(before);
    expect((await t.call('GET', '/api/weight-factors/summary', { token: admin })).statusCode).toBe(200);
  });
});
