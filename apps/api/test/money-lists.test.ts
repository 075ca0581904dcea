import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PAGING_MESSAGES, type DocumentFilters } from '@tramo/domain';
import { registerWhere } from '../src/modules/billing/register.ts';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/**
 * The large money lists page like the shipments list (issue 19): numbered pages first, then keyset
 * cursors forwards and backwards, with no row skipped or repeated across a filter, even among rows
 * of the same instant; bad cursors and pages past the numbered ones are a Spanish 400.
 */
describe.each(engines)('money lists paging (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let lima: number;
  const bulkUser = 900_101;
  const ROWS = 60;

  beforeAll(async () => {
    t = await startTestApp(engine, { seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '12.34']] }) });
    lima = t.branchIds.get('Lima')!;
    admin = await t.login('ADMIN');
    const res = await t.call('POST', '/api/shipments', {
      token: admin,
      body: shipmentBody({ originBranchId: lima, destinationBranchId: t.branchIds.get('Arequipa')! }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const shipmentId = res.json().id as number;
    await t.database.db.execute(
      sql`insert into cash_sessions (user_id, user_name, branch_id, float_cents, closed_at) values (${bulkUser}, 'Carga masiva', ${lima}, 0, now())`,
    );
    // Three rows per instant (i / 3 seconds back), so pages split groups of equal instants; methods alternate for a filter.
    await t.database.db.execute(sql`
      insert into payments (shipment_id, status, method, amount_cents, customer_doc_type, customer_doc_number, customer_name, branch_id, user_id, user_name, cash_session_id, created_at)
      select ${shipmentId}, 'canceled', case when i % 2 = 0 then 'cash' else 'yape_qr' end, 100 + i, 1, '45879612', 'Cliente ' || i, ${lima}, ${bulkUser}, 'Carga masiva',
        (select id from cash_sessions where user_id = ${bulkUser}), timestamptz '2026-03-10 15:00:00+00' - make_interval(secs => i / 3)
      from generate_series(1, ${ROWS}) as i`);
    // Five documents per issue day, in a series of their own; every other one voided, for a status filter.
    await t.database.db.execute(sql`
      insert into documents (type, series, number, issue_date, customer_doc_type, customer_doc_number, customer_name, gravada, exonerada, inafecta, igv, total, document, user_name, branch_id, status)
      select '03', 'B099', i, date '2026-03-10' - (i / 5), '1', '45879612', 'Cliente ' || i, 1, 0, 0, 0.18, 1.18, '{}'::jsonb, 'Carga masiva', ${lima},
        case when i % 2 = 0 then 'anulado' else 'aceptado' end
      from generate_series(1, ${ROWS}) as i`);
  });
  afterAll(() => t?.close());

  /** Follows 'Siguiente' from page 1 to the end, then 'Anterior' back; answers the rows seen going forwards. */
  async function walk<R>(url: string, key: (row: R) => unknown) {
    const get = async (query: string) => {
      const res = await t.call('GET', `${url}&${query}`, { token: admin });
      expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
      return res.json() as { items: R[]; total: number; next: string | null; prev: string | null };
    };
    const first = await get('page=1');
    expect(first.prev).toBeNull();
    const pages = [first];
    for (let cursor = first.next; cursor; cursor = pages.at(-1)!.next) pages.push(await get(`page=${pages.length + 1}&after=${cursor}`));
    expect(pages.at(-1)!.items.length).toBeGreaterThan(0);
    for (let k = pages.length - 1; k > 0; k--) {
      const back = await get(`page=${k}&before=${pages[k]!.prev}`);
      expect(back.items.map(key)).toEqual(pages[k - 1]!.items.map(key));
      expect(back.prev === null, `page ${k}`).toBe(k === 1);
    }
    // Page 2 by number is page 2 by cursor.
    expect((await get('page=2')).items.map(key)).toEqual(pages[1]!.items.map(key));
    return { rows: pages.flatMap((p) => p.items.map(key)), total: first.total };
  }

  async function refusesBadPaging(url: string, pageSize: number, extra: string[] = []) {
    const tooDeep = Math.ceil(1000 / pageSize) + 1;
    // The last two fit the pattern but overflow an integer id: still the cursor's message.
    const overflow = ['after=1.9999999999', 'before=5.2147483648', ...extra];
    for (const bad of ['after=abc', 'before=1.2.3', 'after=1.2&before=1.2', 'after=-5.1', `page=${tooDeep}&pageSize=${pageSize}`, ...overflow]) {
      const res = await t.call('GET', `${url}&${bad}`, { token: admin });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error, bad).toBe(bad.startsWith('page=') ? PAGING_MESSAGES.pageTooDeep : PAGING_MESSAGES.invalidCursor);
    }
  }

  /** The amounts (100 + i) the database holds for a method, in the list's order (newest first, id breaking ties). */
  const expected = async (method: string) =>
    (
      (
        await t.database.db.execute(
          sql`select amount_cents from payments where user_id = ${bulkUser} and method = ${method} order by created_at desc, id desc`,
        )
      ).rows as { amount_cents: number }[]
    ).map((r) => Number(r.amount_cents) / 100);

  it('movements: by number, then by cursor forwards and back, every filtered row once in order', async () => {
    const url = `/api/payments/report/movements?userId=${bulkUser}&method=yape_qr`;
    // 7 rows a page makes several pages of the 30 filtered, splitting groups of equal instants.
    const { rows, total } = await walk<{ amount: number }>(`${url}&pageSize=7`, (r) => r.amount);
    expect(rows).toEqual(await expected('yape_qr'));
    expect(total).toBe(ROWS / 2);
    await refusesBadPaging(url, 20);
  });

  it('documents register: by number, then by cursor forwards and back, every filtered row once in order', async () => {
    const url = '/api/billing/documents?series=B099&status=aceptado';
    const { rows, total } = await walk<{ id: number }>(`${url}&pageSize=7`, (r) => r.id);
    const ids = (
      (await t.database.db.execute(sql`select id from documents where series = 'B099' and status = 'aceptado' order by issue_date desc, id desc`))
        .rows as {
        id: number;
      }[]
    ).map((r) => Number(r.id));
    expect(rows).toEqual(ids);
    expect(total).toBe(ROWS / 2);
    // The register's cursor counts days: one beyond any date is refused as a cursor, not by the database.
    await refusesBadPaging(url, 25, ['before=99999999999.1']);
  });

  it("the register's customer filter (any part of the name or the document) is answered by the trigram indexes", async () => {
    await t.database.db.execute(sql`analyze documents`);
    const plan = async () => {
      const r = await t.database.db.execute(
        sql`explain select id from documents where ${registerWhere({ customer: '20100070970' } satisfies DocumentFilters, 'all')}`,
      );
      return r.rows.map((row) => Object.values(row as Record<string, string>)[0]).join('\n');
    };
    let text = await plan();
    if (!text.includes('documents_customer_doc_trgm')) {
      // A small table may still be cheaper to scan; this proves the indexes answer the same condition.
      await t.database.db.execute(sql`set enable_seqscan = off`);
      text = await plan();
      await t.database.db.execute(sql`set enable_seqscan = on`);
    }
    expect(text).toContain('documents_customer_doc_trgm');
    expect(text).toContain('documents_customer_name_trgm');
  });

  it("a day's payments: by number, then by cursor forwards and back; the count stops at the numbered rows", async () => {
    const url = '/api/payments/manual?date=2026-03-10&status=canceled';
    const { rows, total } = await walk<{ amount: number }>(`${url}&pageSize=7`, (r) => r.amount);
    const amounts = (
      (
        await t.database.db.execute(
          sql`select amount_cents from payments where user_id = ${bulkUser} and status = 'canceled' order by created_at desc, id desc`,
        )
      ).rows as { amount_cents: number }[]
    ).map((r) => Number(r.amount_cents) / 100);
    expect(rows).toEqual(amounts);
    expect(total).toBe(ROWS);
    await refusesBadPaging(url, 200);

    // A day of more payments than the numbered pages reach: 'más de 1000', counted no further.
    await t.database.db.execute(sql`
      insert into payments (shipment_id, status, method, amount_cents, customer_doc_type, customer_doc_number, customer_name, branch_id, user_id, user_name, cash_session_id, created_at)
      select (select min(shipment_id) from payments), 'canceled', 'cash', 100 + i, 1, '45879612', 'Cliente ' || i, ${lima}, ${bulkUser}, 'Carga masiva',
        (select id from cash_sessions where user_id = ${bulkUser}), timestamptz '2026-03-11 15:00:00+00' - make_interval(secs => i)
      from generate_series(1, 1005) as i`);
    const busy = await t.call('GET', '/api/payments/manual?date=2026-03-11&pageSize=10', { token: admin });
    expect(busy.json()).toMatchObject({ total: 1000, totalCapped: true });
    expect((await t.call('GET', '/api/payments/manual?date=2026-03-10', { token: admin })).json()).toMatchObject({ total: ROWS, totalCapped: false });
  });
});
