import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { startTestApp, type TestContext } from './harness.ts';

/**
 * Issue 37: with DATABASE_READ_URL the reports (the Panel, Cuentas por cobrar, Movimientos and its
 * CSV) read PostgreSQL's streaming replica, and every write and the reads that must see it stay on
 * the primary. The replica is real: .ci/run starts one on 5433 with pg_basebackup -R and sets
 * TEST_DATABASE_READ_URL. Pausing its replay shows what a user sees while it lags.
 */
const replicaUrl = process.env.TEST_DATABASE_READ_URL;
const primaryUrl = process.env.TEST_DATABASE_URL;

describe.runIf(replicaUrl && primaryUrl)('reports on a streaming replica (postgres)', () => {
  let t: TestContext;
  let agent: string;
  let route: { originBranchId: number; destinationBranchId: number };
  let primary: pg.Client;
  let replica: pg.Client;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;

  /** The replica has replayed everything the primary had written when this was called. */
  async function replicaCaughtUp() {
    const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    for (let i = 0; i < 200; i++) {
      const caught = await replica.query<{ ok: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok', [rows[0]!.lsn]);
      if (caught.rows[0]!.ok) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the replica did not catch up in 10 s');
  }

  async function pauseReplay() {
    await replica.query('select pg_wal_replay_pause()');
    for (let i = 0; i < 200; i++) {
      const { rows } = await replica.query<{ state: string }>('select pg_get_wal_replay_pause_state() as state');
      if (rows[0]!.state === 'paused') return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the replica did not pause');
  }

  beforeAll(async () => {
    primary = new pg.Client({ connectionString: primaryUrl });
    replica = new pg.Client({ connectionString: replicaUrl });
    await Promise.all([primary.connect(), replica.connect()]);
    billing = await sandboxBilling('read-replica');
    t = await startTestApp('postgres', {
      readReplica: true,
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '10.00']] }),
      providers: { billing: billing.provider },
    });
    billing.followClock(t.clock.now);
    route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! };
    agent = await t.login('AGENTE1');
  });
  afterAll(async () => {
    // Never leave the machine's replica paused, whatever failed.
    await replica?.query('select pg_wal_replay_resume()').catch(() => {});
    await t?.close();
    await billing?.cleanup();
    await Promise.all([primary?.end(), replica?.end()]);
  });

  const get = async (url: string) => {
    const res = await t.call('GET', url, { token: agent });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const panelTotal = async () => (await get('/api/dashboard?dateFrom=2000-01-01&dateTo=2099-12-31')).json().counters.total as number;
  const receivable = async (sender: string) => (await get(`/api/receivables/customers?q=${encodeURIComponent(sender)}`)).json().items as unknown[];
  const movementsTotal = async () => (await get('/api/payments/report/movements')).json().total as number;
  const csvLines = async () => (await get('/api/payments/report/movements.csv')).body.trim().split('\n').length;

  it('reads the reports from the replica: while it lags they show what it had, the writes and their own reads go to the primary', async () => {
    const sender = `Réplica ${Date.now()} SAC`;
    await replicaCaughtUp();
    const before = { panel: await panelTotal(), movements: await movementsTotal(), csv: await csvLines() };
    expect(await receivable(sender)).toEqual([]);

    await pauseReplay();
    const owed = await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route, { senderName: sender }) });
    expect(owed.statusCode, owed.body).toBe(201);
    const paid = await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route) });
    expect(paid.statusCode, paid.body).toBe(201);
    const payment = await t.call('POST', '/api/payments/manual', {
      token: agent,
      body: {
        shipmentId: paid.json().id,
        customerName: 'María Flores Ccori',
        customerDocNumber: '45879612',
        amount: paid.json().quotedPrice,
        currency: 'PEN',
        methodCode: 'cash',
      },
    });
    expect(payment.statusCode, payment.body).toBe(201);

    // The user who just registered the shipment and took the payment sees them (the primary)…
    expect((await get(`/api/shipments/${owed.json().id}`)).json().code).toBe(owed.json().code);
    expect((await get(`/api/payments/manual/${payment.json().payment.id}`)).json().status).toBe('paid');
    // …while the reports still show the replica's moment: nothing new yet.
    expect(await panelTotal()).toBe(before.panel);
    expect(await receivable(sender)).toEqual([]);
    expect(await movementsTotal()).toBe(before.movements);
    expect(await csvLines()).toBe(before.csv);

    await replica.query('select pg_wal_replay_resume()');
    await replicaCaughtUp();
    expect(await panelTotal()).toBe(before.panel + 2);
    expect(await receivable(sender)).toEqual([expect.objectContaining({ customer_name: sender, shipments_count: 1, open_amount: 30 })]);
    expect(await movementsTotal()).toBe(before.movements + 1);
    expect(await csvLines()).toBe(before.csv + 1);
  });

  it('reports read a server in recovery (the standby); everything else the primary', async () => {
    const inRecovery = async (db: typeof t.app.db) => (await db.execute<{ r: boolean }>(sql`select pg_is_in_recovery() as r`)).rows[0]!.r;
    expect(await inRecovery(t.app.readDb)).toBe(true);
    expect(await inRecovery(t.app.db)).toBe(false);
  });

  it('every connection, to the primary and to the replica, runs without parallel workers (SESSION_OPTIONS)', async () => {
    const workers = async (db: typeof t.app.db) =>
      (await db.execute<{ n: string }>(sql`select current_setting('max_parallel_workers_per_gather') as n`)).rows[0]!.n;
    // The server's own default is 2: the app's sessions say otherwise.
    const server = await primary.query<{ n: string }>(`select current_setting('max_parallel_workers_per_gather') as n`);
    expect(server.rows[0]!.n).not.toBe('0');
    expect(await Promise.all([workers(t.app.db), workers(t.app.readDb)])).toEqual(['0', '0']);
  });
});

describe('reports without a replica', () => {
  it('read the primary itself when DATABASE_READ_URL is not set', async () => {
    const t = await startTestApp('embedded');
    try {
      expect(t.app.readDb).toBe(t.app.db);
    } finally {
      await t.close();
    }
  });
});
