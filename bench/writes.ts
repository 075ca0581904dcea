// npm run bench -- writes [--pg postgres://…] [--rows 100000] [--seconds 10] [--clients 8,32] [--no-raw] [--warmup 0]
//   [--cases shipments,payments,emissions] [--show-statements]
// Writes per second through HTTP at each client count, beside the raw-SQL floor:
//  - shipment creations (POST /api/shipments) on random routes and on one route, at each --clients;
//  - payments with their receipt (POST /api/payments/manual, a boleta through the sandbox provider)
//    at 8 clients, of the shipments the creations left unpaid;
//  - facturas emitted on one series (POST /api/billing/create-emit, FFF1) at 8 clients, then
//    whether the series is still gapless.
// The raw-SQL floor of each: the very statements the API sent for one such write, recorded from the
// driver (bench/_record.ts), replayed prepared (each under a name) in as many round trips, by as many
// clients straight to the database, with the values that came from an earlier answer or the request
// (a new id, the series' number, the shipment paid) taken from each replay's own. It leaves out what
// is not SQL (HTTP, validation, hashing, signing the XML), so it is the floor the API can approach.
// The HTTP clients run in a worker thread of this process, so they share the machine's cores with
// the server and PostgreSQL but not the server's event loop. Beside each rate: the server thread's
// CPU per write and, when PostgreSQL runs on this machine, its backends' (the two add up to what a
// write costs the shared cores, hence the most writes a second they can do). Prints figures, never asserts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import inspector from 'node:inspector/promises';
import { Worker } from 'node:worker_threads';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { SESSION_OPTIONS } from '../apps/api/src/db/client.ts';
import { databaseSandboxStore, loadBillingConfig, sandboxBillingProvider } from '../apps/api/src/providers/billing/index.ts';
import { seedBase } from '../apps/api/src/seed/base.ts';
import { seedPricing } from '../apps/api/src/seed/pricing.ts';
import { users } from '../apps/api/src/db/schema.ts';
import { hashPassword } from '../apps/api/src/lib/passwords.ts';
import { bulkInsertCompany } from '../apps/api/src/seed/shipments-bulk.ts';
import { benchDatabase, loginToken, percentile } from './_db.ts';
import { record, replayPlan } from './_record.ts';
import { limaDate } from './_read-cases.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    pg: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '8,32' },
    json: { type: 'string' },
    // Only the API cases (for a CPU profile of the server alone).
    'no-raw': { type: 'boolean', default: false },
    // Seconds of unmeasured creations (8 clients, random routes) before the cases: without them the
    // first case also pays the fresh process's warm-up (V8 compiling the request path, new connections).
    warmup: { type: 'string', default: '0' },
    cases: { type: 'string', default: 'shipments,payments,emissions' },
    /** Print the statements recorded for each kind of write and how many values each replay takes from its own answers. */
    'show-statements': { type: 'boolean', default: false },
    /** A folder to write a V8 CPU profile of the server thread over each API case into (open it in DevTools, or `npx tsx bench/profile-top.ts FILE`). */
    profile: { type: 'string' },
  },
});
const kinds = new Set(values.cases.split(',').map((k) => k.trim()));
const seconds = Number(values.seconds);
const clientCounts = values.clients.split(',').map(Number);

const bench = await benchDatabase({ pg: values.pg });
const { database } = bench;
const branchIds = await seedBase(database.db);
await seedPricing(database.db, branchIds);
const rows = Number(values.rows);
// A company's history before (its series and cash sessions too), as the reads measure.
if (rows > 0) await bulkInsertCompany(database.db, rows);
/** The history's last shipment: the payments pay shipments registered by this run, after it. */
const lastBulkId = Number(((await database.db.execute(sql`select coalesce(max(id), 0)::int as id from shipments`)).rows[0] as { id: number }).id);
console.log(`Motor: ${bench.engine}; filas previas: ${rows}; ${seconds} s por caso`);

// The sandbox as the app builds it (its table as the store), whatever NUBEFACT_* says here.
const certificateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-bench-cert-'));
const billingConfig = loadBillingConfig({});
const billing = sandboxBillingProvider({
  ...billingConfig.sandbox,
  issuer: billingConfig.issuer,
  store: databaseSandboxStore(database.db),
  certificateDir,
});
// No notification worker: its polls would be recorded among a write's statements.
const app = await buildApp({
  database,
  config: { ...loadConfig({ NOTIFY_POLL_MS: '0' }), jwtSecret: 'bench-secret', secretCodeKey: 'bench-secret-code-key' },
  providers: { billing },
});
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const token = await loginToken(base, 'ADMIN', 'admin123');
/** A session's token (the cashiers log in as the counter does). */
const login = (username: string, password: string) => loginToken(base, username, password);

const ids = [...branchIds.values()];
const routeOf = (oneRoute: boolean) => {
  if (oneRoute) return [branchIds.get('Lima')!, branchIds.get('Cusco')!] as const;
  const o = ids[Math.floor(Math.random() * ids.length)]!;
  const others = ids.filter((id) => id !== o);
  return [o, others[Math.floor(Math.random() * others.length)]!] as const;
};
interface Result {
  done: number;
  failed: number;
  latencies: number[];
  /** How long the clients wrote (less than --seconds when they ran out of work). */
  seconds: number;
}

async function drive(clients: number, work: (who: number) => Promise<boolean | null>): Promise<Result> {
  const result: Result = { done: 0, failed: 0, latencies: [], seconds };
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, who) => {
      while (performance.now() < end) {
        const t = performance.now();
        const ok = await work(who).catch(() => false);
        if (ok === null) break;
        result.latencies.push(performance.now() - t);
        if (ok) result.done++;
        else result.failed++;
      }
    }),
  );
  result.seconds = (performance.now() - started) / 1000;
  result.latencies.sort((a, b) => a - b);
  return result;
}

/** A kind of write by `clients` concurrent clients over HTTP, driven from a worker thread (_http-driver.mjs). */
async function httpDrive(clients: number, oneRoute: boolean, forSeconds = seconds, work: Record<string, unknown> = {}): Promise<Result> {
  const worker = new Worker(new URL('./_http-driver.mjs', import.meta.url), {
    workerData: { base, token, clients, seconds: forSeconds, route: oneRoute ? routeOf(true) : null, branchIds: ids, ...work },
  });
  const [result] = (await once(worker, 'message')) as [Result];
  await worker.terminate();
  result.latencies.sort((a, b) => a - b);
  return result;
}

const pool =
  bench.url && !values['no-raw']
    ? new pg.Pool({ connectionString: bench.url, max: Number(process.env.PG_POOL_MAX ?? 10), options: SESSION_OPTIONS })
    : null;
/** One POST through the app (not timed: what its statements are recorded from). */
const post = async (url: string, body: unknown, as = token) => {
  const res = await fetch(base + url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${as}` },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
};
/**
 * The raw floor of one kind of write: the statements of one API write of it, recorded, as a plan each
 * client replays on a pooled connection (prepared statements live per connection, so each connection
 * parses a statement once, as the API's do).
 */
async function rawFloor(label: string, write: () => Promise<unknown>, inputs: Record<string, unknown> | (() => Record<string, unknown>) = {}) {
  if (!pool) return null;
  // One write first, unrecorded: the first of a kind also opens the collector's cash session, fills
  // the app's caches (price tables), creates the series' counter; the recorded one is the usual one.
  await write();
  const plan = replayPlan(await record(write), typeof inputs === 'function' ? inputs() : inputs);
  if (values['show-statements']) {
    console.log(`\n${label}: ${plan.statements} sentencias, ${plan.traced} valores tomados de respuestas previas o de la petición`);
    plan.recorded.forEach((st, k) => {
      const traced = plan.sources[k]!.map((src, i) => (src ? `$${i + 1}←${'input' in src ? src.input : `#${src.statement + 1}`}` : '')).filter(
        Boolean,
      );
      console.log(
        `  ${k + 1}. ${st.name ? `[${st.name}] ` : ''}${st.text.replace(/\s+/g, ' ').slice(0, 110)}${traced.length ? `  (${traced.join(' ')})` : ''}`,
      );
    });
  }
  let reported = false;
  return async (newInputs: Record<string, unknown> = {}) => {
    const client = await pool.connect();
    try {
      await plan.run(client, newInputs);
      return true;
    } catch (err) {
      await client.query('rollback').catch(() => {});
      if (!reported) console.log(`  (${label}: la primera repetición fallida: ${(err as Error).message})`);
      reported = true;
      throw err;
    } finally {
      client.release();
    }
  };
}
const shipmentBody = (o: number, d: number) => ({
  senderName: 'Comercial Andina SAC',
  recipientDoc: '45879612',
  recipientFirstName: 'María',
  recipientLastName: 'Flores Ccori',
  originBranchId: o,
  destinationBranchId: d,
  lines: [
    { productType: 'liviano', weightKg: 2.5 },
    { productType: 'medio', weightKg: 14 },
  ],
  secretCode: 'clave-7',
});

/**
 * CPU time of this process's main thread (the server's event loop; the HTTP clients run in a worker
 * and PostgreSQL in its own processes), in ms, from Linux's per-thread counters: unlike creations per
 * second it does not move when other work shares the machine. Null where /proc is not available.
 */
function serverThreadCpuMs(): number | null {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime (fields 14 and 15 of stat, 12 and 13 after the name), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * CPU time of each of the bench database's backends (PostgreSQL's processes serving this database:
 * the API's pool and the raw floor's), in ms by pid, from /proc: with the server thread's it says
 * where a write's CPU goes when PostgreSQL shares the machine's cores with the API. It leaves out
 * the server's shared processes (WAL writer, checkpointer, autovacuum), which other databases use
 * too. Null when the server is not on this machine (its pids are not in /proc) or on the embedded engine.
 */
async function databaseCpuMs(): Promise<Map<number, number> | null> {
  if (!bench.url) return null;
  const pids = (
    (await database.db.execute(sql`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`))
      .rows as { pid: number }[]
  ).map((r) => r.pid);
  const byPid = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Another machine's pid may name a process of this one: only a postgres process is the backend.
      if (!stat.includes(' (postgres) ')) return null;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byPid.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch (err) {
      // A backend that ended between the query and the read; any other miss: not this machine's server.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || byPid.size === 0) return null;
    }
  }
  return byPid;
}

/**
 * The backends' CPU over a case: each one's growth, a backend opened during the case counted whole.
 * One closed during it loses its share (the pools keep theirs open, so it is none or a few ticks).
 */
async function measuredDatabase<T>(run: () => Promise<T>): Promise<{ result: T; cpuMs: number | null }> {
  const before = await databaseCpuMs();
  const result = await run();
  const after = await databaseCpuMs();
  if (!before || !after) return { result, cpuMs: null };
  let cpuMs = 0;
  for (const [pid, ms] of after) cpuMs += ms - (before.get(pid) ?? 0);
  return { result, cpuMs };
}

interface Measured {
  label: string;
  clients: number;
  perSecond: number;
  p50: number;
  p95: number;
  failed: number;
  /** Server thread CPU per creation (API cases only). */
  cpuMsEach: number | null;
  /** The database's backends' CPU per write (databaseCpuMs). */
  pgCpuMsEach: number | null;
}
const measured: Measured[] = [];
const line = (label: string, clients: number, r: Result, cpuMs: number | null = null, pgCpuMs: number | null = null) => {
  const row: Measured = {
    label,
    clients,
    perSecond: r.done / r.seconds,
    p50: percentile(r.latencies, 50),
    p95: percentile(r.latencies, 95),
    failed: r.failed,
    cpuMsEach: cpuMs === null || r.done === 0 ? null : cpuMs / r.done,
    pgCpuMsEach: pgCpuMs === null || r.done === 0 ? null : pgCpuMs / r.done,
  };
  measured.push(row);
  console.log(
    `${label.padEnd(36)} ${String(clients).padStart(8)} ${row.perSecond.toFixed(0).padStart(9)} ${row.p50.toFixed(1).padStart(8)} ${row.p95.toFixed(1).padStart(8)} ${String(r.failed).padStart(7)} ${(row.cpuMsEach === null ? '' : row.cpuMsEach.toFixed(2)).padStart(13)} ${(row.pgCpuMsEach === null ? '' : row.pgCpuMsEach.toFixed(2)).padStart(13)}`,
  );
};
console.log(
  `\n${'-- writes'.padEnd(36)} ${'clientes'.padStart(8)} ${'envíos/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'fallos'.padStart(7)} ${'CPU ms/envío'.padStart(13)} ${'PG CPU ms'.padStart(13)}`,
);
const warmup = Number(values.warmup);
if (warmup > 0) {
  const warm = await httpDrive(8, false, warmup);
  console.log(`(calentamiento: ${warm.done} envíos en ${warmup} s, sin medir)`);
}
/** The server thread's CPU time over one HTTP case (and its profile, with --profile). */
async function measuredHttp(label: string, clients: number, run: () => Promise<Result>) {
  const profiler = values.profile ? await startProfile() : null;
  const cpuBefore = serverThreadCpuMs();
  const { result: http, cpuMs: pgCpuMs } = await measuredDatabase(run);
  const cpuAfter = serverThreadCpuMs();
  if (profiler) await profiler.stop(path.join(values.profile!, `${label.replace(/[^\p{L}\d]+/gu, '-')}-${clients}.cpuprofile`));
  line(label, clients, http, cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, pgCpuMs);
}

/** V8's sampling profiler on this thread (the server's), through the inspector protocol. */
async function startProfile() {
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop(file: string) {
      const { profile } = await session.post('Profiler.stop');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`(perfil de CPU: ${file})`);
    },
  };
}

/** A raw-floor case, with its backends' CPU. */
async function measuredRaw(label: string, clients: number, run: () => Promise<Result>) {
  const { result, cpuMs } = await measuredDatabase(run);
  line(label, clients, result, null, cpuMs);
}

if (kinds.has('shipments')) {
  for (const oneRoute of [false, true]) {
    const where = oneRoute ? 'una ruta' : 'rutas al azar';
    // A route's statements as the API sends them for it (the price tables it reads are the route's).
    const [o, d] = routeOf(true);
    const raw = await rawFloor(`creación (${where})`, () => post('/api/shipments', shipmentBody(o, d)));
    for (const clients of clientCounts) {
      await measuredHttp(`API POST /shipments (${where})`, clients, () => httpDrive(clients, oneRoute));
      if (raw) await measuredRaw(`SQL directo, mismas sentencias (${where})`, clients, () => drive(clients, () => raw()));
    }
  }
}

// Shipments to pay: walk-in customers' (registered here, one customer each), unpaid and registered at the Lima counter (the cashiers').
const unpaid = async (limit: number) =>
  (
    await database.db.execute(sql`
      select s.id, s.quoted_price::text as amount from shipments s
      where s.id > ${lastBulkId} and s.status = 'Creado' and s.payment_moment = 'origen' and s.origin_branch_id = ${branchIds.get('Lima')!}
        and s.sender_name like 'Cliente de mostrador %'
        -- A live payment's, by its partial unique index (a scan of every payment per shipment otherwise).
        and not exists (select 1 from payments p where p.shipment_id = s.id and p.status in ('pending', 'paid'))
      order by s.id limit ${limit}`)
  ).rows as { id: number; amount: string }[];
if (kinds.has('payments')) {
  // Eight clients are eight cashiers of one branch (Lima), each with a cash session of their own, as
  // at a busy counter: one cashier's payments take their session's lock in turn (its totals), so a
  // single login for all would measure one cashier clicking eight times at once. They share the
  // branch's boleta series, whose counter's lock every payment takes. Each shipment they collect is
  // a different customer's, as at a counter's windows: a customer's balance in Cuentas por cobrar
  // is one row (receivable_customer_balances), so eight cashiers collecting one sender's shipments
  // at once would queue on it (83 payments a second against 96 on one run, issue 37's note).
  const cashiers = Array.from({ length: 8 }, (_, i) => `CAJA${i + 1}`);
  const hash = await hashPassword('caja123');
  const cashierIds = (
    await database.db
      .insert(users)
      .values(
        cashiers.map((username, i) => ({
          username,
          passwordHash: hash,
          role: 'agent',
          branchId: branchIds.get('Lima')!,
          firstName: 'Cajero',
          lastName: String(i + 1),
          email: `${username.toLowerCase()}@tramo.pe`,
          mustChangePassword: false,
        })),
      )
      .returning({ id: users.id })
  ).map((u) => u.id);
  const tokens = await Promise.all(cashiers.map((u) => login(u, 'caja123')));
  // Enough for 400 payments a second, the floor's included.
  const want = Math.ceil(seconds * 400 * 2) + 2;
  const [o, d] = routeOf(true);
  const have = (await unpaid(want)).length;
  let customers = 0;
  const walkIn = () => ({ ...shipmentBody(o, d), senderName: `Cliente de mostrador ${++customers}` });
  if (have < want) await drive(8, async () => (await post('/api/shipments', walkIn()), true)).then(() => undefined);
  const queue = await unpaid(want);
  let recorded = queue[0]!;
  const payment = (p: { id: number; amount: string }) => ({
    shipmentId: p.id,
    customerName: 'María Flores Ccori',
    customerDocNumber: '45879612',
    amount: p.amount,
    currency: 'PEN',
    methodCode: 'cash',
  });
  const cents = (amount: string) => Math.round(Number(amount) * 100);
  const raw = await rawFloor(
    'pago con comprobante',
    () => post('/api/payments/manual', payment((recorded = queue.shift()!)), tokens[0]),
    // The cashier too: each replaying client takes its own cashier's open session, as the API's do.
    () => ({ shipment: recorded.id, amount: cents(recorded.amount), cashier: cashierIds[0]! }),
  );
  const half = Math.floor(queue.length / 2);
  await measuredHttp('API POST /payments/manual (con boleta)', 8, () =>
    httpDrive(8, false, seconds, { kind: 'payment', toPay: queue.slice(0, half), tokens }),
  );
  if (raw) {
    const rest = queue.slice(half);
    await measuredRaw('SQL directo, mismas sentencias (pago)', 8, () =>
      drive(8, async (who) => {
        const next = rest.shift();
        return next ? raw({ shipment: next.id, amount: cents(next.amount), cashier: cashierIds[who]! }) : null;
      }),
    );
  }
}

if (kinds.has('emissions')) {
  const factura = {
    type: '01',
    serie: 'FFF1',
    issueDate: limaDate(0),
    items: [
      { description: 'Servicio de transporte de carga TMT-000123 Lima → Arequipa', unit: 'ZZ', quantity: 1, unitValue: '254.24', igvType: '10' },
      { description: 'Embalaje', unit: 'NIU', quantity: 3, unitValue: '5.50', igvType: '10' },
    ],
    customer: { doc_type: 6, doc_number: '20100070970', name: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' },
  };
  const raw = await rawFloor('emisión FFF1', () => post('/api/billing/create-emit', factura));
  await measuredHttp('API POST /billing/create-emit (FFF1)', 8, () => httpDrive(8, false, seconds, { kind: 'emission', emission: factura }));
  if (raw) await measuredRaw('SQL directo, mismas sentencias (emisión)', 8, () => drive(8, () => raw()));
  const series = (
    await database.db.execute(sql`
      select count(*)::int as n, count(distinct number)::int as distinct_n, coalesce(max(number), 0)::int as max_n,
        (select last_number from document_series where type = '01' and series = 'FFF1') as last
      from documents where type = '01' and series = 'FFF1'`)
  ).rows[0] as { n: number; distinct_n: number; max_n: number; last: number };
  const gapless = series.n === series.distinct_n && series.n === series.max_n && series.max_n === Number(series.last);
  console.log(
    `Serie FFF1: ${series.n} facturas, la última ${series.max_n}, contador ${series.last}: sin huecos ni duplicados: ${gapless ? 'sí' : 'NO'}`,
  );
}
if (values.json) fs.writeFileSync(values.json, JSON.stringify({ engine: bench.engine, rows, seconds, results: measured }, null, 2));

await pool?.end();
await app.close();
await database.close();
await bench.cleanup();
fs.rmSync(certificateDir, { recursive: true, force: true });
