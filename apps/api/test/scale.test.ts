import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../src/lib/passwords.ts';
import { foldDailyCounts } from '../src/modules/shipments/index.ts';
import { seedPricing } from '../src/seed/pricing.ts';
import { bulkInsertShipments } from '../src/seed/shipments-bulk.ts';
import { shipmentBody } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/**
 * What creations at volume keep (issue 19): unique, gapless codes and exact daily counts under
 * concurrent creations, with no counter row shared between them; secret codes as keyed HMACs,
 * legacy argon2 hashes rewritten on their first verification.
 */
describe.each(engines)('scale (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let courier: string;
  // The embedded engine runs one statement at a time: fewer creations keep this file under 30 s.
  const perRun = engine === 'postgres' ? 400 : 120;

  beforeAll(async () => {
    t = await startTestApp(engine, { seed: (db, ids) => seedPricing(db, ids) });
    [admin, courier] = await Promise.all([t.login('ADMIN'), t.login('REPARTIDOR1')]);
  });
  afterAll(() => t?.close());

  const rows = async (query: ReturnType<typeof sql>) => (await t.database.db.execute(query)).rows as Record<string, unknown>[];

  /** The Panel's counts (kept counts plus unfolded deltas) and a count(*) of the shipments, per day, route and status. */
  const counts = async () => {
    const kept = await rows(sql`
      select day::text as day, origin_branch_id as o, destination_branch_id as d, status, sum(n)::int as n
        from (select day, origin_branch_id, destination_branch_id, status, n from shipment_daily_counts
              union all select day, origin_branch_id, destination_branch_id, status, n from shipment_daily_count_deltas) k
       group by 1, 2, 3, 4 having sum(n) <> 0 order by 1, 2, 3, 4`);
    const actual = await rows(sql`
      select (((created_at at time zone 'UTC') - interval '5 hours')::date)::text as day, origin_branch_id as o, destination_branch_id as d,
             status, count(*)::int as n
        from shipments group by 1, 2, 3, 4 order by 1, 2, 3, 4`);
    return { kept: kept.map((r) => ({ ...r, n: Number(r.n) })), actual: actual.map((r) => ({ ...r, n: Number(r.n) })) };
  };

  /** The whole company's counts (migration 0019: the routes added up, plus unfolded deltas) and a count(*), per day and status. */
  const wholeCompany = async () => {
    const kept = await rows(sql`
      select day::text as day, status, sum(n)::int as n
        from (select day, status, n from shipment_daily_status_counts union all select day, status, n from shipment_daily_count_deltas) k
       group by 1, 2 having sum(n) <> 0 order by 1, 2`);
    const actual = await rows(sql`
      select (((created_at at time zone 'UTC') - interval '5 hours')::date)::text as day, status, count(*)::int as n
        from shipments group by 1, 2 order by 1, 2`);
    return { kept: kept.map((r) => ({ ...r, n: Number(r.n) })), actual: actual.map((r) => ({ ...r, n: Number(r.n) })) };
  };

  /**
   * Each branch's counts (migration 0023: what leaves or reaches it once, what leaves it, what
   * reaches it; plus unfolded deltas, each to its origin and destination) and a count(*), per
   * branch, day and status.
   */
  const perBranch = async () => {
    const kept = await rows(sql`
      select branch_id as b, day::text as day, status, sum(n)::int as n, sum(n_origin)::int as o, sum(n_destination)::int as d
        from (select branch_id, day, status, n, n_origin, n_destination from shipment_daily_branch_counts
              union all
              select x.branch_id, k.day, k.status, k.n,
                     case when k.origin_branch_id = x.branch_id then k.n else 0 end, case when k.destination_branch_id = x.branch_id then k.n else 0 end
                from shipment_daily_count_deltas k
               cross join lateral (select k.origin_branch_id union select k.destination_branch_id) x(branch_id)) k
       group by 1, 2, 3 having sum(n) <> 0 or sum(n_origin) <> 0 or sum(n_destination) <> 0 order by 1, 2, 3`);
    const actual = await rows(sql`
      select b.id as b, (((s.created_at at time zone 'UTC') - interval '5 hours')::date)::text as day, s.status, count(*)::int as n,
             count(*) filter (where s.origin_branch_id = b.id)::int as o, count(*) filter (where s.destination_branch_id = b.id)::int as d
        from shipments s join branches b on b.id = s.origin_branch_id or b.id = s.destination_branch_id
       group by 1, 2, 3 order by 1, 2, 3`);
    const numbers = (r: Record<string, unknown>) => ({ ...r, n: Number(r.n), o: Number(r.o), d: Number(r.d) });
    return { kept: kept.map(numbers), actual: actual.map(numbers) };
  };

  /**
   * Each monthly table (migration 0092) against its daily table added up by month: the same rows,
   * whatever wrote the days (the fold, a status change, a bulk recount).
   */
  const monthsMatchDays = async () => {
    const pairs = [
      ['shipment_monthly_counts', 'shipment_daily_counts', 'origin_branch_id, destination_branch_id, status', 'sum(n)::int'],
      ['shipment_monthly_status_counts', 'shipment_daily_status_counts', 'status', 'sum(n)::int'],
      [
        'shipment_monthly_branch_counts',
        'shipment_daily_branch_counts',
        'branch_id, status',
        'sum(n)::int, sum(n_origin)::int, sum(n_destination)::int',
      ],
    ];
    for (const [monthly, daily, keys, sums] of pairs) {
      const months = await rows(
        sql.raw(`select month::text as m, ${keys}, ${sums} from ${monthly} group by 1, ${keys} having sum(n) <> 0 order by 1, ${keys}`),
      );
      const days = await rows(
        sql.raw(
          `select date_trunc('month', day)::date::text as m, ${keys}, ${sums} from ${daily} group by 1, ${keys} having sum(n) <> 0 order by 1, ${keys}`,
        ),
      );
      expect(days.length).toBeGreaterThan(0);
      expect(months).toEqual(days);
    }
  };

  const createMany = async (route: () => { originBranchId: number; destinationBranchId: number }) => {
    const results = await Promise.all(
      Array.from({ length: perRun }, () => t.call('POST', '/api/shipments', { token: admin, body: shipmentBody(route()) })),
    );
    expect(results.map((r) => r.statusCode).filter((s) => s !== 201)).toEqual([]);
    return results.map((r) => r.json() as { id: number; code: string });
  };

  const expectExact = async () => {
    const { kept, actual } = await counts();
    expect(actual.length).toBeGreaterThan(0);
    expect(kept).toEqual(actual);
    const before = await wholeCompany();
    expect(before.kept).toEqual(before.actual);
    const branchesBefore = await perBranch();
    expect(branchesBefore.kept).toEqual(branchesBefore.actual);
    // The app's own background fold may hold the fold's lock (then this one returns at once): fold
    // until it is this one's turn, a few times at most.
    const deltas = async () => Number((await rows(sql`select count(*)::int as n from shipment_daily_count_deltas`))[0]!.n);
    for (let i = 0; i < 20 && (await deltas()) > 0; i++) {
      await foldDailyCounts(t.database.db);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await deltas()).toBe(0);
    expect((await counts()).kept).toEqual(actual);
    const company = await wholeCompany();
    expect(company.kept).toEqual(company.actual);
    const branches = await perBranch();
    expect(branches.kept).toEqual(branches.actual);
    await monthsMatchDays();
  };

  it('keeps codes unique and gapless and the daily counts exact under concurrent creations on random routes', async () => {
    const ids = [...t.branchIds.values()];
    const created = await createMany(() => {
      const o = ids[Math.floor(Math.random() * ids.length)]!;
      const others = ids.filter((id) => id !== o);
      return { originBranchId: o, destinationBranchId: others[Math.floor(Math.random() * others.length)]! };
    });
    const numbers = created.map((s) => Number(s.code.slice(4))).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(perRun);
    expect(numbers.at(-1)! - numbers[0]!).toBe(perRun - 1);
    await expectExact();
  });

  it('keeps the counts exact when every creation lands on one route, and through status changes', async () => {
    const route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Cusco')! };
    const created = await createMany(() => route);
    // Changes of status move a shipment between counters while other creations append.
    await Promise.all([
      ...created.slice(0, 20).map((s) => t.call('PATCH', `/api/shipments/${s.id}/status`, { token: admin, body: { status: 'En tránsito' } })),
      ...created.slice(20, 30).map((s) => t.call('DELETE', `/api/shipments/${s.id}`, { token: admin })),
      foldDailyCounts(t.database.db),
      ...Array.from({ length: 20 }, () => t.call('POST', '/api/shipments', { token: admin, body: shipmentBody(route) })),
    ]);
    await expectExact();
  });

  it("gives a branch's list and Panel exact totals from its counts: an agent's scope, one side, a route, a route to itself, a bulk recount", async () => {
    const branch = (name: string) => t.branchIds.get(name)!;
    const [lima, cusco, piura] = [branch('Lima'), branch('Cusco'), branch('Piura')];
    const agent = await t.login('AGENTE1'); // Lima
    const routes = [
      { originBranchId: lima, destinationBranchId: cusco },
      { originBranchId: cusco, destinationBranchId: lima },
      { originBranchId: cusco, destinationBranchId: piura },
      { originBranchId: piura, destinationBranchId: lima },
    ];
    const created = await createMany(() => routes[Math.floor(Math.random() * routes.length)]!);
    await Promise.all([
      ...created.slice(0, 15).map((s) => t.call('PATCH', `/api/shipments/${s.id}/status`, { token: admin, body: { status: 'En tránsito' } })),
      ...created.slice(15, 25).map((s) => t.call('DELETE', `/api/shipments/${s.id}`, { token: admin })),
    ]);
    // The API refuses a route to itself; a row an older version or a hand edit left so counts once for its branch.
    await t.database.db.execute(sql`update shipments set destination_branch_id = origin_branch_id where id = ${created[30]!.id}`);
    const [{ day }] = (await rows(sql`select (((max(created_at) at time zone 'UTC') - interval '5 hours')::date)::text as day from shipments`)) as [
      { day: string },
    ];
    const inLima = sql`(origin_branch_id = ${lima} or destination_branch_id = ${lima})`;
    const cases: [string, string, ReturnType<typeof sql>][] = [
      [agent, '', inLima],
      [agent, 'status=Anulado', sql`${inLima} and status = 'Anulado'`],
      [
        agent,
        `active=true&dateFrom=${day}&dateTo=${day}`,
        sql`${inLima} and status in ('Creado', 'En tránsito') and ((created_at at time zone 'UTC') - interval '5 hours')::date = ${day}::date`,
      ],
      [agent, `originBranchId=${lima}`, sql`origin_branch_id = ${lima}`],
      [agent, `destinationBranchId=${lima}&status=En%20tr%C3%A1nsito`, sql`destination_branch_id = ${lima} and status = 'En tránsito'`],
      [agent, `originBranchId=${cusco}`, sql`origin_branch_id = ${cusco} and destination_branch_id = ${lima}`],
      [admin, `originBranchId=${lima}`, sql`origin_branch_id = ${lima}`],
      [admin, `destinationBranchId=${lima}&active=false`, sql`destination_branch_id = ${lima} and status in ('Entregado', 'Anulado')`],
      [admin, `originBranchId=${cusco}&destinationBranchId=${piura}`, sql`origin_branch_id = ${cusco} and destination_branch_id = ${piura}`],
    ];
    const expectTotals = async () => {
      for (const [token, query, where] of cases) {
        const [{ n }] = (await rows(sql`select count(*)::int as n from shipments where ${where}`)) as [{ n: number }];
        const list = (await t.call('GET', `/api/shipments?pageSize=1&${query}`, { token })).json() as { total: number };
        expect(list.total, `list ${query}`).toBe(Number(n));
        const panel = (await t.call('GET', `/api/dashboard?${query}`, { token })).json() as { counters: { total: number } };
        expect(panel.counters.total, `panel ${query}`).toBe(Number(n));
      }
    };
    await expectTotals();
    await expectExact();
    await expectTotals();
    // A bulk load recounts every counts row (delete all, insert again): the branches' counts follow.
    await bulkInsertShipments(t.database.db, 60);
    await expectExact();
    await expectTotals();
  });

  it('stores secret codes as a keyed HMAC and rewrites a legacy argon2 hash on its first verification', async () => {
    const route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! };
    const s = (await t.call('POST', '/api/shipments', { token: admin, body: shipmentBody(route, { secretCode: '4821' }) })).json() as { id: number };
    const stored = async () => String((await rows(sql`select secret_code_hash as h from shipments where id = ${s.id}`))[0]!.h);
    expect(await stored()).toMatch(/^hmac-sha256\$/);
    expect(await stored()).not.toContain('4821');

    // As an older version stored it.
    const legacy = await hashPassword('4821');
    await t.database.db.execute(sql`update shipments set secret_code_hash = ${legacy} where id = ${s.id}`);
    const body = (secretCode: string) => ({
      secretCode,
      receiverName: 'María Flores Ccori',
      receiverDoc: '45879612',
      deliveredByName: 'Jorge Mamani',
      notes: '',
    });
    const wrong = await t.call('POST', `/api/shipments/${s.id}/deliver`, { token: courier, body: body('4822') });
    expect(wrong.statusCode).toBe(422);
    expect(await stored()).toBe(legacy);
    const right = await t.call('POST', `/api/shipments/${s.id}/deliver`, { token: courier, body: body('4821') });
    expect(right.statusCode).toBe(200);
    expect(await stored()).toMatch(/^hmac-sha256\$/);
    expect((await t.app.secretCodes.verify(await stored(), '4821')).ok).toBe(true);
  });

  it('takes page numbers and sizes as strictly as ids: decimal digits only, refused in Spanish (issue 11)', async () => {
    for (const url of ['/api/branches', '/api/customers', '/api/shipments']) {
      for (const bad of ['0x2', '1e1', '%2B2', '%202%20', '2.0', '0', '-1', 'dos', '']) {
        if (bad === '' && url === '/api/shipments') continue; // blank is "first page" on the shipments list
        for (const key of ['page', 'pageSize']) {
          const res = await t.call('GET', `${url}?${key}=${bad}`, { token: admin });
          expect(res.statusCode, `${url} ${key}=${bad}`).toBe(400);
          expect(res.json().fields[key], `${url} ${key}=${bad}`).toBe(key === 'page' ? 'Página inválida' : 'Tamaño de página inválido');
        }
      }
      expect((await t.call('GET', `${url}?page=2&pageSize=5`, { token: admin })).statusCode).toBe(200);
    }
  });

  it('pages by number and then by cursor, forwards and backwards, over rows created at the same instant', async () => {
    // The test clock stands still: every shipment of this burst has the same createdAt, the id orders them.
    const route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Piura')! };
    for (let i = 0; i < 23; i++) {
      expect((await t.call('POST', '/api/shipments', { token: admin, body: shipmentBody(route) })).statusCode).toBe(201);
    }
    const filter = `originBranchId=${route.originBranchId}&destinationBranchId=${route.destinationBranchId}`;
    const get = async (query: string) => {
      const res = await t.call('GET', `/api/shipments?${filter}&pageSize=5&${query}`, { token: admin });
      expect(res.statusCode, query).toBe(200);
      return res.json() as { items: { code: string }[]; total: number; next: string | null; prev: string | null };
    };
    const all = (await t.call('GET', `/api/shipments?${filter}&pageSize=100`, { token: admin })).json() as {
      items: { code: string }[];
      total: number;
    };
    expect(all.items.length).toBe(all.total);
    const order = all.items.map((s) => s.code);

    const first = await get('page=1');
    expect(first.prev).toBeNull();
    const seen = first.items.map((s) => s.code);
    const pages = [first];
    let cursor = first.next;
    while (cursor) {
      const p = await get(`page=2&after=${cursor}`);
      seen.push(...p.items.map((s) => s.code));
      pages.push(p);
      cursor = p.next;
    }
    expect(seen).toEqual(order);
    expect(pages.at(-1)!.items.length).toBeGreaterThan(0);
    // Back from the last page, each previous page is the one seen before it.
    for (let k = pages.length - 1; k > 0; k--) {
      const back = await get(`page=2&before=${pages[k]!.prev}`);
      expect(back.items.map((s) => s.code)).toEqual(pages[k - 1]!.items.map((s) => s.code));
      expect(back.prev === null).toBe(k === 1);
    }
    // Page 2 by number is page 2 by cursor.
    expect((await get('page=2')).items).toEqual(pages[1]!.items);
    for (const bad of ['after=abc', 'before=1.2.3', `after=${first.next}&before=${first.next}`]) {
      const res = await t.call('GET', `/api/shipments?${bad}`, { token: admin });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error, bad).toBeTruthy();
    }
  });
});
