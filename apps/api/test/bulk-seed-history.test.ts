import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bulkInsertShipments } from '../src/seed/shipments-bulk.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/**
 * Issue 37: the bulk seeder grows a database the way a company grows, in history as well as in
 * shipments a day: `days` spreads the rows over that many days back (365 unless told).
 */
describe.each(engines)('bulk seeder history (%s)', (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  const ageInDays = async (since: number) =>
    (
      await t.database.db.execute<{ oldest: number; newest: number; n: number }>(sql`
        select extract(epoch from now() - min(created_at)) / 86400 as oldest, extract(epoch from now() - max(created_at)) / 86400 as newest, count(*)::int as n
        from shipments where id > ${since}`)
    ).rows[0]!;
  const lastId = async () => Number((await t.database.db.execute<{ id: number }>(sql`select coalesce(max(id), 0) as id from shipments`)).rows[0]!.id);

  it('spreads the rows over the days of history asked for, and over a year unless told', async () => {
    const before = await lastId();
    await bulkInsertShipments(t.database.db, 400, undefined, { days: 3650 });
    const tenYears = await ageInDays(before);
    expect(tenYears.n).toBe(400);
    expect(Number(tenYears.oldest)).toBeGreaterThan(365);
    expect(Number(tenYears.oldest)).toBeLessThanOrEqual(3650);

    const middle = await lastId();
    await bulkInsertShipments(t.database.db, 400);
    const oneYear = await ageInDays(middle);
    expect(oneYear.n).toBe(400);
    expect(Number(oneYear.oldest)).toBeLessThanOrEqual(365);
  });

  it('refuses a history that is not a whole number of days', async () => {
    await expect(bulkInsertShipments(t.database.db, 1, undefined, { days: 0 })).rejects.toThrow('días');
    await expect(bulkInsertShipments(t.database.db, 1, undefined, { days: 1.5 })).rejects.toThrow('días');
  });
});
