import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SHIPMENT_STATUSES } from '@tramo/domain';
import { and } from 'drizzle-orm';
import { countByDayAndStatusUpTo, filterConditions, foldDailyCounts, searchWindows, textSearch } from '../src/modules/shipments/index.ts';
import { seedPricing } from '../src/seed/pricing.ts';
import { bulkInsertShipments } from '../src/seed/shipments-bulk.ts';
import { shipmentBody } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/**
 * Issue 37: the list's totals and the Panel's counters read whole months from the monthly counts
 * (migration 0092) and only the days a month is cut at from the daily ones. Over years of history,
 * with ranges that cut months, fall inside one, or are open, they must still be count(*) exactly,
 * with creations not folded yet, and the chart must hold every shipment it spans.
 */
describe.each(engines)('monthly counts (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;

  beforeAll(async () => {
    t = await startTestApp(engine, { seed: (db, ids) => seedPricing(db, ids) });
    [admin, agent] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1')]);
    // Three years of history, then a few creations the fold has not moved yet.
    await bulkInsertShipments(t.database.db, 600, () => {}, { days: 3 * 365 });
    const route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Cusco')! };
    for (let i = 0; i < 5; i++) expect((await t.call('POST', '/api/shipments', { token: admin, body: shipmentBody(route) })).statusCode).toBe(201);
  });
  afterAll(() => t?.close());

  const limaDay = (at: string) => sql`((${sql.raw(at)} at time zone 'UTC') - interval '5 hours')::date`;

  it('gives exact totals and counters over years, for any range, scope and filter, before and after the fold', async () => {
    const lima = t.branchIds.get('Lima')!;
    const cusco = t.branchIds.get('Cusco')!;
    const [{ first, last }] = (
      await t.database.db.execute(
        sql`select min(${limaDay('created_at')})::text as first, max(${limaDay('created_at')})::text as last from shipments`,
      )
    ).rows as [{ first: string; last: string }];
    const monthOf = (day: string, shift: number) => {
      const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
      d.setUTCMonth(d.getUTCMonth() + shift);
      return d.toISOString().slice(0, 10);
    };
    const endOf = (month: string) => new Date(Date.parse(monthOf(month, 1)) - 86_400_000).toISOString().slice(0, 10);
    const ranges: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      [monthOf(first, 2), undefined], // from a month's first day, open end
      [undefined, endOf(monthOf(last, -3))], // open start, to a month's last day
      [`${monthOf(first, 4).slice(0, 8)}17`, `${monthOf(last, -2).slice(0, 8)}09`], // cuts months on both sides
      [monthOf(first, 6), endOf(monthOf(first, 6))], // one whole month
      [`${monthOf(last, -1).slice(0, 8)}03`, `${monthOf(last, -1).slice(0, 8)}20`], // inside one month
      [last, last],
      ['2000-01-01', '9999-12-31'],
    ];
    const filters: [string, string, ReturnType<typeof sql>][] = [
      [admin, '', sql`true`],
      [admin, 'status=Anulado', sql`status = 'Anulado'`],
      [admin, 'active=true', sql`status in ('Creado', 'En tránsito')`],
      [admin, `originBranchId=${lima}`, sql`origin_branch_id = ${lima}`],
      [admin, `destinationBranchId=${cusco}`, sql`destination_branch_id = ${cusco}`],
      [
        admin,
        `originBranchId=${lima}&destinationBranchId=${cusco}&status=Anulado`,
        sql`origin_branch_id = ${lima} and destination_branch_id = ${cusco} and status = 'Anulado'`,
      ],
      [agent, '', sql`(origin_branch_id = ${lima} or destination_branch_id = ${lima})`],
      [agent, `destinationBranchId=${lima}&status=Entregado`, sql`destination_branch_id = ${lima} and status = 'Entregado'`],
    ];
    const check = async () => {
      for (const [from, to] of ranges) {
        const dates = `${from ? `&dateFrom=${from}` : ''}${to ? `&dateTo=${to}` : ''}`;
        const inRange = sql`${from ? sql`${limaDay('created_at')} >= ${from}::date` : sql`true`} and ${to ? sql`${limaDay('created_at')} <= ${to}::date` : sql`true`}`;
        for (const [token, query, where] of filters) {
          const expected = (
            await t.database.db.execute(sql`select status, count(*)::int as n from shipments where ${where} and ${inRange} group by status`)
          ).rows as { status: string; n: number }[];
          const byStatus = Object.fromEntries(SHIPMENT_STATUSES.map((s) => [s, Number(expected.find((e) => e.status === s)?.n ?? 0)]));
          const total = Object.values(byStatus).reduce((a, n) => a + n, 0);
          const label = `${query}${dates}`;
          const list = await t.call('GET', `/api/shipments?pageSize=1&${query}${dates}`, { token });
          expect(list.statusCode, label).toBe(200);
          expect((list.json() as { total: number }).total, `list ${label}`).toBe(total);
          const panel = await t.call('GET', `/api/dashboard?${query}${dates}`, { token });
          expect(panel.statusCode, label).toBe(200);
          const body = panel.json() as {
            counters: Record<string, number>;
            dateFrom: string;
            dateTo: string;
            series: { day: string; total: number }[];
          };
          expect(body.counters, `panel ${label}`).toEqual({ total, ...byStatus });
          // The chart spans every shipment here (no span over 92 years): its bars add up to the counters.
          if (from !== '2000-01-01')
            expect(
              body.series.reduce((a, b) => a + b.total, 0),
              `chart ${label}`,
            ).toBe(total);
        }
      }
    };
    // Not vacuous: some creations are still deltas when the check starts. The app folds them every
    // second in the background, so on a slow machine the ones made before may be folded already.
    const deltas = async () => Number((await t.database.db.execute(sql`select count(*)::int as n from shipment_daily_count_deltas`)).rows[0]!.n);
    const route = { originBranchId: lima, destinationBranchId: cusco };
    for (let i = 0; i < 5 && (await deltas()) === 0; i++) {
      expect((await t.call('POST', '/api/shipments', { token: admin, body: shipmentBody(route) })).statusCode).toBe(201);
    }
    expect(await deltas()).toBeGreaterThan(0);
    await check();
    await foldDailyCounts(t.database.db);
    await check();
  });

  it('searches text newest first window by window: the same pages, totals, capped counts and tracking rows as one query over all of history', async () => {
    const now = t.clock.now();
    const [{ name }] = (await t.database.db.execute(sql`select recipient_name as name from shipments order by created_at limit 1`)).rows as [
      { name: string },
    ];
    // And the names of the newest shipment and of one about 40 days old: matches on both sides of the 30-day window.
    const [{ newest, older }] = (
      await t.database.db.execute(sql`
        select (select recipient_name from shipments order by created_at desc limit 1) as newest,
               (select recipient_name from shipments where created_at < ${new Date(now.getTime() - 35 * 86_400_000)} order by created_at desc limit 1) as older`)
    ).rows as [{ newest: string; older: string }];
    const terms = ['quispe', 'maria quispe', 'rosa', name, 'zzz', newest, older];
    const lastYear = new Date(now.getTime() - 400 * 86_400_000).toISOString().slice(0, 10);
    // A range from inside the recent year (as the Panel's month) reads all its windows from shipment_search_recent.
    const weeksAgo = new Date(now.getTime() - 45 * 86_400_000).toISOString().slice(0, 10);
    for (const q of terms) {
      for (const range of [{}, { dateFrom: lastYear }, { dateTo: lastYear }, { dateFrom: weeksAgo }]) {
        const filters = { q, ...range };
        const where = and(...filterConditions(filters));
        const label = JSON.stringify(filters);
        // Every match, newest first, straight from the table.
        const all = (
          await t.database.db.execute(
            sql`select code, status, to_char((created_at at time zone 'UTC') - interval '5 hours', 'YYYY-MM-DD') as day
                  from shipments where ${where} order by created_at desc, id desc`,
          )
        ).rows as { code: string; status: string; day: string }[];
        const windows = searchWindows(filters, now);
        expect(windows.length, label).toBeGreaterThan(1);
        for (const cap of [3, 40, 5000]) {
          const { counts, capped } = await countByDayAndStatusUpTo(t.database.db, where, cap, windows);
          const expected = new Map<string, number>();
          for (const m of all.slice(0, cap)) expected.set(`${m.day} ${m.status}`, (expected.get(`${m.day} ${m.status}`) ?? 0) + 1);
          expect(new Map(counts.map((c) => [`${c.day} ${c.status}`, c.n])), `${label} cap ${cap}`).toEqual(expected);
          expect(capped, `${label} cap ${cap}`).toBe(all.length > cap);
        }
        // The list: the first page, then 'Siguiente' to the end, and its total.
        const dates = Object.entries(range)
          .map(([k, v]) => `&${k}=${v}`)
          .join('');
        const codes: string[] = [];
        let after: string | null = null;
        let total = -1;
        do {
          const res = await t.call('GET', `/api/shipments?pageSize=7&q=${encodeURIComponent(q)}${dates}${after ? `&after=${after}` : ''}`, {
            token: admin,
          });
          expect(res.statusCode, label).toBe(200);
          const page = res.json() as { items: { code: string }[]; total: number; totalCapped: boolean; next: string | null };
          if (total < 0) total = page.total;
          codes.push(...page.items.map((i) => i.code));
          after = page.next;
        } while (after);
        expect(total, label).toBe(all.length);
        expect(codes, label).toEqual(all.map((m) => m.code));
        const panel = (await t.call('GET', `/api/dashboard?q=${encodeURIComponent(q)}${dates}`, { token: admin })).json() as {
          counters: { total: number };
        };
        expect(panel.counters.total, label).toBe(all.length);
      }
      // Tracking: the 20 newest matches by the recipient.
      const tracked = (await t.call('GET', `/api/shipments/search?q=${encodeURIComponent(q)}`, { token: admin })).json() as { code: string }[];
      const newest = (
        await t.database.db.execute(
          sql`select code from shipments where ${textSearch(q, { sender: false })} order by created_at desc, id desc limit 20`,
        )
      ).rows as { code: string }[];
      expect(
        tracked.map((r) => r.code),
        `rastreo ${q}`,
      ).toEqual(newest.map((r) => r.code));
    }
  });
});
