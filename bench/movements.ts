// npm run bench -- movements [--pg-rows 1000000] [--embedded-rows 100000] [--iterations 30]
//   [--pg postgres://…] [--engines embedded,postgres]
// Per engine, a fresh database (embedded in a temp dir; on PostgreSQL a throw-away database created
// and dropped here, on --pg, else TEST_DATABASE_URL, else DATABASE_URL), filled here with SQL:
// bulk shipments (bulkInsertShipments), one closed cash session per branch and day, and the
// movements (payments rows: one live payment per shipment, paid or pending, plus canceled ones)
// over the last 365 days. Then the real server (apps/api/src/main.ts, as `npm start` runs it) as a
// child process on that database, over HTTP:
//  1. GET /api/payments/report/movements.csv of every row: rows/s, and the server's RSS read from
//     /proc/<pid>/status (VmRSS before; the peak during the export: VmHWM after writing 5 to
//     /proc/<pid>/clear_refs, which resets it, and the highest VmRSS sampled every 20 ms);
//  2. p50/p95 of GET /api/payments/report/movements with filters (a page and the filtered set's totals).
// Quick run: --pg-rows 50000 --embedded-rows 20000 --iterations 10. Prints figures, never asserts.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { csvDialectFor, movementCsvPreamble } from '@tramo/domain';
import { openEmbedded, openPostgres, type Database, type Db } from '../apps/api/src/db/client.ts';
import { seedBase } from '../apps/api/src/seed/base.ts';
import { loginToken, settle } from './_db.ts';
import { movementCases, movementCursors } from './_read-cases.ts';
import { bulkInsertShipments } from '../apps/api/src/seed/shipments-bulk.ts';

const { values } = parseArgs({
  options: {
    'pg-rows': { type: 'string', default: '1000000' },
    'embedded-rows': { type: 'string', default: '100000' },
    iterations: { type: 'string', default: '30' },
    pg: { type: 'string' },
    engines: { type: 'string', default: 'embedded,postgres' },
    /** Leave out the CSV export (the report runs only the list's cases). */
    'skip-csv': { type: 'boolean', default: false },
    /** Write the list's cases (p50/p95 per case and engine) as JSON, for bench/report.ts. */
    json: { type: 'string' },
  },
});
const listResults: { engine: string; rows: number; name: string; p50: number; p95: number; summary: string }[] = [];
const iterations = Number(values.iterations);
const pgUrl = values.pg ?? process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? null;
const engines = values.engines.split(',').map((e) => e.trim());
const root = path.resolve(import.meta.dirname, '..');

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
const ms = (n: number) => n.toFixed(1).padStart(8);
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const scalar = async (db: Db, query: ReturnType<typeof sql>) => Number(((await db.execute(query)).rows[0] as { n: unknown }).n);
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

interface Target {
  label: string;
  rows: number;
  open: () => Promise<Database>;
  /** The server's environment for this database. */
  env: Record<string, string>;
  cleanup: () => Promise<void>;
}

async function target(engine: string): Promise<Target | null> {
  if (engine === 'embedded') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-bench-movements-'));
    return {
      label: 'embebido (PGlite)',
      rows: Number(values['embedded-rows']),
      open: () => openEmbedded(path.join(dir, 'pgdata')),
      env: { DATA_DIR: dir, DATABASE_URL: '' },
      cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (engine === 'postgres') {
    if (!pgUrl) {
      console.log('\nPostgreSQL: omitido (usa --pg URL, TEST_DATABASE_URL o DATABASE_URL).');
      return null;
    }
    const name = `tramo_bench_movements_${Date.now()}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    return {
      label: `PostgreSQL (base temporal ${name})`,
      rows: Number(values['pg-rows']),
      open: () => openPostgres(url.toString()),
      env: { DATABASE_URL: url.toString() },
      cleanup: async () => {
        const c = new pg.Client({ connectionString: pgUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  console.log(`\nMotor desconocido: ${engine} (embedded | postgres)`);
  return null;
}

const METHODS = `array['cash','cash','cash','cash','yape_qr','yape_qr','card_pos','card_pos','plin_qr','bank_transfer','card_online']`;

/**
 * `total` payments over `shipments` shipments (ids firstId…): payment g goes to shipment
 * (g − 1) mod shipments, the first of each shipment live (paid, 1 in 17 pending), the later ones
 * canceled; amount the shipment's price, taken by the user of the branch-and-day cash session.
 */
async function bulkInsertPayments(db: Db, total: number, shipments: number) {
  const CHUNK = 100_000;
  const firstId = await scalar(db, sql`select min(id)::int as n from shipments`);
  for (let done = 0; done < total; done += CHUNK) {
    const size = Math.min(CHUNK, total - done);
    await db.execute(sql`
      insert into payments (shipment_id, status, method, amount_cents, currency, provider_tx_id, customer_doc_type, customer_doc_number,
        customer_name, branch_id, user_id, user_name, cash_session_id, last_error, cancel_reason, created_at, paid_at, canceled_at, updated_at)
      select x.shipment_id, x.status, x.method, x.cents, 'PEN', case when x.method <> 'cash' then 'OP-' || lpad(x.g::text, 8, '0') end,
        1, x.recipient_doc, x.sender_name, x.branch_id, cs.user_id, cs.user_name, cs.id,
        case when x.status = 'pending' then 'El servicio de SUNAT no respondió a tiempo; reintente el envío.' end,
        case when x.status = 'canceled' then 'ERROR DEL SISTEMA' end,
        x.at, case when x.status <> 'pending' then x.at + interval '20 seconds' end,
        case when x.status = 'canceled' then x.at + interval '1 hour' end, x.at + interval '1 hour'
      from (
        select g, s.id as shipment_id, s.origin_branch_id as branch_id, s.recipient_doc, s.sender_name,
          greatest(1, round(s.quoted_price * 100))::int as cents,
          -- A cancelled shipment takes no live payment (the payments' guard, migration 0027): its payments are voided ones.
          case when g > ${shipments}::int or s.status = 'Anulado' then 'canceled' when g % 17 = 0 then 'pending' else 'paid' end as status,
          (${sql.raw(METHODS)})[1 + (g * 7 % 11)] as method,
          least(s.created_at + ((g % 50) || ' minutes')::interval, now()) as at
        from generate_series(${done + 1}::int, ${done + size}::int) g
        join shipments s on s.id = ${firstId}::int + (g - 1) % ${shipments}::int
      ) x
      join cash_sessions cs on cs.branch_id = x.branch_id
        and cs.opened_at = (((x.at at time zone 'UTC') - interval '5 hours')::date + interval '12 hours') at time zone 'UTC'`);
    process.stdout.write(`\r  movimientos: ${done + size} / ${total}`);
  }
  process.stdout.write('\n');
  await db.execute(sql`analyze payments`);
}

/** One closed session per branch and Lima day (07:00 to 19:00), by the branch's agent or else the admin. */
async function insertSessions(db: Db) {
  await db.execute(sql`
    insert into cash_sessions (user_id, user_name, branch_id, opened_at, float_cents, closed_at, counted_cash_cents, closing, closed_by)
    select u.id, u.first_name || ' ' || coalesce(u.last_name, ''), b.id, o.at, 10000, o.at + interval '12 hours', 10000,
      '{"cashCents": 10000, "byMethod": {}}'::jsonb, u.id
    from branches b
    cross join lateral (select ((((now() at time zone 'UTC') - interval '5 hours')::date - d) + interval '12 hours') at time zone 'UTC' as at
      from generate_series(0, 370) d) o
    cross join lateral (select id, first_name, last_name from users where role <> 'courier' and (branch_id = b.id or role = 'admin')
      order by (role = 'admin'), id limit 1) u`);
}

function readStatus(pid: number): { rss: number; hwm: number } {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/api/src/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DEMO: '0', LOG_LEVEL: 'warn', WEB_DIST: path.join(root, 'no-web'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /Tramo listo en (http:\/\/\S+)/.exec(output);
      if (ready)
        resolve({
          child,
          url: ready[1]!,
          stop: async () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`el servidor terminó (${code}) antes de estar listo:\n${output}`)));
  });
}

async function benchEngine(engine: string) {
  const t = await target(engine);
  if (!t) return;
  console.log(`\n=== Motor: ${t.label}, ${t.rows} movimientos ===`);
  try {
    // The data, loaded here; then the database is closed and the server opens it alone.
    const loadStarted = performance.now();
    const database = await t.open();
    const shipments = Math.ceil(t.rows * 0.8);
    /** The cursors of the rows halfway down the list and 21 rows from its end, as the list answers them. */
    let middle = '';
    let nearEnd = '';
    try {
      await seedBase(database.db);
      await bulkInsertShipments(database.db, shipments, (msg) => process.stdout.write(`\r  envíos: ${msg.trim()}`));
      process.stdout.write('\n');
      await insertSessions(database.db);
      await bulkInsertPayments(database.db, t.rows, shipments);
      await settle(database);
      const count = await scalar(database.db, sql`select count(*)::int as n from payments`);
      console.log(`Carga: ${seconds(loadStarted)} s (${shipments} envíos, ${count} movimientos)`);
      ({ middle, nearEnd } = await movementCursors(database.db, count));
    } finally {
      await database.close();
    }

    const startedAt = performance.now();
    const server = await startServer(t.env);
    const pid = server.child.pid!;
    console.log(
      `Servidor (pid ${pid}) listo en ${seconds(startedAt)} s; RSS ${mb(readStatus(pid).rss)}, pico desde el arranque ${mb(readStatus(pid).hwm)}`,
    );
    try {
      const admin = await loginToken(server.url, 'ADMIN', 'admin123');
      const agent = await loginToken(server.url, 'AGENTE1', 'agente123');
      const get = (url: string, token = admin) => fetch(server.url + url, { headers: { authorization: `Bearer ${token}` } });
      const userId = await (async () => {
        const page = (await (await get('/api/payments/report/movements?pageSize=20&branchId=1')).json()) as {
          items: { collectedByUserId: number }[];
        };
        return page.items[0]?.collectedByUserId ?? 1;
      })();

      // 1. The whole set as CSV.
      const csvExport = async () => {
        const preambleLines = movementCsvPreamble(csvDialectFor('es-PE')).split('\n').length - 1;
        let resetPeak = true;
        try {
          fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
        } catch {
          resetPeak = false;
        }
        const before = readStatus(pid);
        let sampledPeak = before.rss;
        const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, readStatus(pid).rss)), 20);
        const csvStarted = performance.now();
        const res = await get('/api/payments/report/movements.csv');
        let bytes = 0;
        let lines = 0;
        let firstByte = 0;
        for await (const chunk of res.body!) {
          if (!firstByte) firstByte = performance.now() - csvStarted;
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        }
        const elapsed = (performance.now() - csvStarted) / 1000;
        clearInterval(sampler);
        const after = readStatus(pid);
        sampledPeak = Math.max(sampledPeak, after.rss);
        const rows = lines - preambleLines;
        console.log(
          `CSV de todos los movimientos: HTTP ${res.status}, ${rows} filas (${rows === t.rows ? 'todas' : `esperadas ${t.rows}`}), ` +
            `${(bytes / 1024 / 1024).toFixed(1)} MB en ${elapsed.toFixed(1)} s: ${Math.round(rows / elapsed)} filas/s; primer byte ${firstByte.toFixed(0)} ms`,
        );
        console.log(
          `RSS del servidor: antes ${mb(before.rss)}, pico durante la exportación ${mb(sampledPeak)} (muestreo VmRSS cada 20 ms)` +
            (resetPeak ? `, VmHWM tras reiniciarlo (clear_refs 5) ${mb(after.hwm)}` : `, VmHWM desde el arranque ${mb(after.hwm)}`) +
            `, después ${mb(after.rss)}`,
        );
      };
      if (!values['skip-csv']) await csvExport();

      // 2. The list with filters.
      const cases = movementCases({ admin, agent, middle, nearEnd, userId });
      console.log(`\n${'GET /api/payments/report/movements'.padEnd(36)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}  resultado`);
      for (const [name, url, token] of cases) {
        const times: number[] = [];
        let summary = '';
        for (let i = 0; i < iterations + 3; i++) {
          const t0 = performance.now();
          const r = await get(url, token);
          const body = (await r.json()) as { total?: number; items?: unknown[] };
          const took = performance.now() - t0;
          if (i >= 3) times.push(took);
          summary = r.status === 200 ? `total ${body.total}, ${body.items?.length} filas` : `HTTP ${r.status}`;
        }
        times.sort((a, b) => a - b);
        console.log(`${name.padEnd(36)} ${ms(pct(times, 50))} ${ms(pct(times, 95))}  ${summary}`);
        listResults.push({ engine, rows: t.rows, name, p50: pct(times, 50), p95: pct(times, 95), summary });
      }
      console.log(`RSS del servidor al final: ${mb(readStatus(pid).rss)}`);
    } finally {
      await server.stop();
    }
  } finally {
    await t.cleanup();
  }
}

for (const engine of engines) await benchEngine(engine);
if (values.json) fs.writeFileSync(values.json, JSON.stringify({ results: listResults }, null, 2));
