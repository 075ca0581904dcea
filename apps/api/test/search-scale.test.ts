import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DASHBOARD_SEARCH_CAP, NUMBERED_PAGE_ROWS, SEARCH_FLOOR_MARGIN } from '@tramo/domain';
import { pruneRecentSearch, searchMatchesFloor } from '../src/modules/shipments/index.ts';
import { bulkInsertShipments } from '../src/seed/shipments-bulk.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/**
 * The name search at volume (issue 19, item 2): whatever path answers it (the newest rows or the
 * names' index), the list, tracking and the Panel must give exactly the rows a plain reading of
 * every shipment gives: whole words, the last word as a beginning, accents folded both ways, the
 * recipient or the sender (tracking: the recipient only), the agent's branch only, newest first,
 * and a count that stops at its cap and says so.
 */

// More rows than the newest-rows window a common name is looked for in, so a rare name's older
// matches are only found through the index.
const BULK = 25_000;

interface Row {
  id: number;
  micros: bigint;
  recipient: string;
  sender: string;
  status: string;
  origin: number;
  destination: number;
}

/** The folding the database applies to names (lower, then á é í ó ú ü ñ → a e i o u u n). */
const fold = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
const wordsOf = (text: string) =>
  fold(text)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** A name holds every word typed, the last one as the beginning of a word ('rosa quis' → Rosa Quispe Flores). */
function nameHolds(name: string, term: string): boolean {
  const tokens = wordsOf(name);
  const words = wordsOf(term);
  return words.every((w, i) => (i === words.length - 1 ? tokens.some((t) => t.startsWith(w)) : tokens.includes(w)));
}

describe.each(engines)('name search at volume (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let lima: number;
  let all: Row[];
  const ids = { newest: 0, oldest: 0, middle: 0, sender: 0 };

  beforeAll(async () => {
    t = await startTestApp(engine);
    [admin, agent] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1')]);
    lima = t.branchIds.get('Lima')!;
    await bulkInsertShipments(t.database.db, BULK);
    const pick = async (query: ReturnType<typeof sql>) => Number(((await t.database.db.execute(query)).rows[0] as { id: number }).id);
    // A rare name three times: on the newest shipment, on the oldest one (of no Lima route, so the Lima
    // agent never sees it), and unaccented about the middle of the list (one route in six ends in Lima); a rare sender once.
    ids.newest = await pick(sql`select id from shipments where origin_branch_id = ${lima} order by created_at desc, id desc limit 1`);
    ids.oldest = await pick(
      sql`select id from shipments where origin_branch_id <> ${lima} and destination_branch_id <> ${lima} order by created_at, id limit 1`,
    );
    ids.middle = await pick(
      sql`select id from shipments where destination_branch_id = ${lima} order by created_at desc, id desc offset ${Math.floor(BULK / 12)} limit 1`,
    );
    ids.sender = await pick(sql`select id from shipments order by created_at desc, id desc offset ${Math.floor(BULK / 3)} limit 1`);
    const rename = (id: number, first: string, last: string) =>
      t.database.db.execute(
        sql`update shipments set recipient_first_name = ${first}, recipient_last_name = ${last}, recipient_name = ${`${first} ${last}`} where id = ${id}`,
      );
    await rename(ids.newest, 'Zoraida', 'Ñahui Peña');
    await rename(ids.oldest, 'ZORAIDA', 'ÑAHUI PEÑA');
    await rename(ids.middle, 'Zoraida', 'Nahui Pena');
    await t.database.db.execute(sql`update shipments set sender_name = 'Inversiones Ñandú Ávila' where id = ${ids.sender}`);
    // A surname on one shipment in three: common enough for the statistics to answer its list's total.
    await t.database.db.execute(
      sql`update shipments set recipient_last_name = recipient_last_name || ' Yupanqui', recipient_name = recipient_name || ' Yupanqui' where id % 3 = 0`,
    );
    // The oldest tenth moved two years back: beyond the 400 days shipment_search_recent keeps, so a
    // search reads its recent windows from that table and the rest from the whole history's index.
    await t.database.db.execute(
      sql`update shipments set created_at = created_at - interval '730 days' where id in (select id from shipments order by created_at, id limit ${BULK / 10})`,
    );
    // Two words common in those older years alone, on 1 500 of their shipments: a name that must be
    // counted past the recent windows, where a two-word name reads its pairs first, then the whole
    // term's lists when the pairs fall short ('wanda kusikusi' on 300, 'wanda kus' a beginning).
    await t.database.db.execute(sql`
      update shipments s set recipient_first_name = 'Wanda', recipient_last_name = o.last, recipient_name = 'Wanda ' || o.last
        from (select id, case when row_number() over (order by id) <= 1200 then 'Kusi' else 'Kusikusi' end as last
                from shipments where created_at < now() - interval '500 days' and id <> ${ids.oldest} order by id limit 1500) o
       where s.id = o.id`);
    await t.database.db.execute(sql`analyze shipments`);
    all = (
      (
        await t.database.db.execute(sql`
          select id, ((extract(epoch from created_at) * 1000000)::bigint)::text as micros, recipient_name, sender_name, status,
                 origin_branch_id, destination_branch_id
            from shipments`)
      ).rows as Record<string, unknown>[]
    )
      .map((r) => ({
        id: Number(r.id),
        micros: BigInt(r.micros as string),
        recipient: r.recipient_name as string,
        sender: r.sender_name as string,
        status: r.status as string,
        origin: Number(r.origin_branch_id),
        destination: Number(r.destination_branch_id),
      }))
      // The list's order: newest first, the id breaking ties.
      .sort((a, b) => (a.micros === b.micros ? b.id - a.id : a.micros > b.micros ? -1 : 1));
  }, 300_000);
  afterAll(() => t?.close());

  /** What a plain reading of every shipment finds, in the list's order. */
  const expected = (term: string, options: { sender?: boolean; branch?: number } = {}) =>
    all.filter(
      (r) =>
        (nameHolds(r.recipient, term) || ((options.sender ?? true) && nameHolds(r.sender, term))) &&
        (options.branch === undefined || r.origin === options.branch || r.destination === options.branch),
    );
  const get = async (url: string, token = admin) => {
    const res = await t.call('GET', url, { token });
    expect(res.statusCode, url).toBe(200);
    return res.json();
  };
  const listIds = (body: { items: { id: number }[] }) => body.items.map((s) => s.id);
  const q = encodeURIComponent;

  const terms = [
    'quispe',
    'maria quispe',
    'María Quispe',
    'rosa quispe flores',
    'rosa quis',
    'comercial',
    'zoraida ñahui',
    'ZORAIDA nahui',
    'zoraida peña',
    'zoraida ñah',
    'ñandú avila',
    'quispe zoraida',
    'yupanqui',
    'maria yupanqui',
    'wanda kusi',
    'wanda kusikusi',
    'wanda kus',
  ];

  it('lists exactly the matching shipments, newest first, with a total capped at 1 000', async () => {
    for (const term of terms) {
      const want = expected(term);
      const body = await get(`/api/shipments?pageSize=10&q=${q(term)}`);
      expect(listIds(body), term).toEqual(want.slice(0, 10).map((r) => r.id));
      expect({ total: body.total, totalCapped: body.totalCapped }, term).toEqual({
        total: Math.min(want.length, NUMBERED_PAGE_ROWS),
        totalCapped: want.length > NUMBERED_PAGE_ROWS,
      });
    }
    // The rare name is found on the newest, the middle and the oldest shipment, accents or not.
    expect(expected('zoraida ñahui').map((r) => r.id)).toEqual([ids.newest, ids.middle, ids.oldest]);
    expect(expected('quispe').length).toBeGreaterThan(NUMBERED_PAGE_ROWS);
    expect(expected('maria quispe').length).toBeGreaterThan(10);
    // Past the cap in the older years alone, whole or as a beginning; under it with the longer word.
    expect(expected('wanda kusi').length).toBeGreaterThan(NUMBERED_PAGE_ROWS);
    expect(expected('wanda kus').length).toBeGreaterThan(NUMBERED_PAGE_ROWS);
    expect(expected('wanda kusikusi').length).toBe(300);
  });

  it('answers "more than" uncounted only for one word the statistics put far above the cap', async () => {
    const cap = SEARCH_FLOOR_MARGIN * NUMBERED_PAGE_ROWS;
    // The statistics' floor of a common word is near its true count, and far above the cap.
    const floor = await searchMatchesFloor(t.database.db, 'yupanqui');
    expect(floor).toBeGreaterThanOrEqual(cap);
    expect(floor).toBeLessThan(expected('yupanqui').length * 1.2);
    // Several words, a rare word, a code or a document give no floor: their totals are counted.
    for (const term of ['maria yupanqui', 'rosa quispe flores', 'zoraida', 'TMT-000001', '4512']) {
      expect(await searchMatchesFloor(t.database.db, term), term).toBe(0);
    }
    // The same word narrowed by a status or seen by an agent is counted, not estimated.
    const narrowed = expected('yupanqui').filter((r) => r.status === 'Anulado');
    const body = await get(`/api/shipments?pageSize=10&status=Anulado&q=yupanqui`);
    expect(listIds(body)).toEqual(narrowed.slice(0, 10).map((r) => r.id));
    expect({ total: body.total, totalCapped: body.totalCapped }).toEqual({
      total: Math.min(narrowed.length, NUMBERED_PAGE_ROWS),
      totalCapped: narrowed.length > NUMBERED_PAGE_ROWS,
    });
  });

  it('pages a common name by number and by cursor exactly', async () => {
    for (const term of ['quispe', 'maria quispe']) {
      const want = expected(term).map((r) => r.id);
      const second = await get(`/api/shipments?pageSize=10&page=2&q=${q(term)}`);
      expect(listIds(second), term).toEqual(want.slice(10, 20));
      const first = await get(`/api/shipments?pageSize=10&q=${q(term)}`);
      const next = await get(`/api/shipments?pageSize=10&page=2&after=${first.next}&q=${q(term)}`);
      expect(listIds(next), term).toEqual(want.slice(10, 20));
      const back = await get(`/api/shipments?pageSize=10&page=1&before=${next.prev}&q=${q(term)}`);
      expect(listIds(back), term).toEqual(want.slice(0, 10));
    }
  });

  it("keeps an agent to his branch's shipments", async () => {
    for (const term of ['zoraida ñahui', 'maria quispe', 'quispe', 'rosa quispe flores', 'yupanqui']) {
      const want = expected(term, { branch: lima });
      const body = await get(`/api/shipments?pageSize=10&q=${q(term)}`, agent);
      expect(listIds(body), term).toEqual(want.slice(0, 10).map((r) => r.id));
      expect(body.total, term).toBe(Math.min(want.length, NUMBERED_PAGE_ROWS));
    }
    // The oldest Zoraida travels between two other branches.
    expect(expected('zoraida ñahui', { branch: lima }).map((r) => r.id)).toEqual([ids.newest, ids.middle]);
  });

  it('tracking finds by the recipient only, the newest 20', async () => {
    for (const term of terms) {
      const want = expected(term, { sender: false });
      const rows = (await get(`/api/shipments/search?q=${q(term)}`)) as { id: number }[];
      expect(
        rows.map((r) => r.id),
        term,
      ).toEqual(want.slice(0, 20).map((r) => r.id));
    }
    expect(((await get(`/api/shipments/search?q=${q('ñandú avila')}`)) as unknown[]).length).toBe(0);
    expect(listIds(await get(`/api/shipments?q=${q('ñandú avila')}`))).toEqual([ids.sender]);
  });

  it('counts a Panel search exactly up to its cap, then the newest matches and says so', async () => {
    for (const term of ['zoraida ñahui', 'maria quispe', 'quispe', 'comercial']) {
      const want = expected(term);
      const counted = want.slice(0, DASHBOARD_SEARCH_CAP);
      const body = await get(`/api/dashboard?q=${q(term)}`);
      expect(body.totalCapped, term).toBe(want.length > DASHBOARD_SEARCH_CAP);
      expect(body.counters.total, term).toBe(counted.length);
      for (const status of ['Creado', 'En tránsito', 'Entregado', 'Anulado']) {
        expect(body.counters[status], `${term} ${status}`).toBe(counted.filter((r) => r.status === status).length);
      }
    }
    expect(expected('comercial').length).toBeGreaterThan(DASHBOARD_SEARCH_CAP);
    // The agent's Panel counts his branch's matches only.
    const mine = await get(`/api/dashboard?q=${q('zoraida ñahui')}`, agent);
    expect(mine).toMatchObject({ totalCapped: false, counters: { total: 2 } });
  });

  it("keeps the recent names' index to the shipments of the last 400 days, as their names are now", async () => {
    const db = t.database.db;
    // A row fallen out of the 400 days, as if the prune had not run yet: the prune takes it out.
    const old = all.at(-1)!.id;
    await db.execute(
      sql`insert into shipment_search_recent (shipment_id, created_at, search_words) select id, created_at, search_words from shipments where id = ${old}`,
    );
    expect(await pruneRecentSearch(db)).toBe(1);
    const disagree = async () =>
      Number(
        (
          (
            await db.execute(sql`
              select count(*)::int as n from (
                (select id, created_at, search_words from shipments where created_at >= now() - interval '400 days'
                 except select shipment_id, created_at, search_words from shipment_search_recent)
                union all
                (select shipment_id, created_at, search_words from shipment_search_recent
                 except select id, created_at, search_words from shipments where created_at >= now() - interval '400 days')) d`)
          ).rows[0] as { n: number }
        ).n,
      );
    expect(await disagree()).toBe(0);
    // A rename is seen at once; a shipment moved out of the 400 days leaves.
    await db.execute(sql`update shipments set recipient_name = 'Zacarías Ñique' where id = ${ids.middle}`);
    await db.execute(sql`update shipments set created_at = created_at - interval '3 years' where id = ${ids.sender}`);
    expect(await disagree()).toBe(0);
    expect(await db.execute(sql`select 1 from shipment_search_recent where shipment_id = ${ids.sender}`)).toMatchObject({ rows: [] });
  });
});
