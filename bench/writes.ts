// npm run bench -- writes [--pg postgres://…] [--rows 100000] [--seconds 10] [--clients 8,32] [--no-raw] [--warmup 0]
//   [--cases shipments,receipts] [--receipt-clients 8]
// Shipment creations per second through HTTP (POST /api/shipments) at each client count, on
// random routes and on one route, beside the raw-SQL limit: the same statements of a creation
// sent straight to the database by as many clients. Then payments with their receipt and emissions
// on one series (bench/_receipts.ts), each series checked gapless after its case. The HTTP clients run in a worker thread of this
// process, so they share the machine's cores with the server and PostgreSQL but not the server's
// event loop. Prints figures, never asserts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { seedBase } from '../apps/api/src/seed/base.ts';
import { seedPricing } from '../apps/api/src/seed/pricing.ts';
import { bulkInsertShipments } from '../apps/api/src/seed/shipments-bulk.ts';
import { databaseSandboxStore, loadBillingConfig, sandboxBillingProvider } from '../apps/api/src/providers/billing/index.ts';
import { benchDatabase, percentile } from './_db.ts';
import { receiptCases, seriesGapless } from './_receipts.ts';

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
    cases: { type: 'string', default: 'shipments,receipts' },
    'receipt-clients': { type: 'string', default: '8' },
  },
});
const seconds = Number(values.seconds);
const clientCounts = values.clients.split(',').map(Number);

const bench = await benchDatabase({ pg: values.pg });
const { database } = bench;
const branchIds = await seedBase(database.db);
await seedPricing(database.db, branchIds);
const rows = Number(values.rows);
if (rows > 0) await bulkInsertShipments(database.db, rows);
console.log(`Motor: ${bench.engine}; filas previas: ${rows}; ${seconds} s por caso`);

// The sandbox as the app builds it (its table as the store), its demo certificate in a temp dir.
const certificateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-bench-cert-'));
const billingConfig = loadBillingConfig({});
const billing = sandboxBillingProvider({
  ...billingConfig.sandbox,
  issuer: billingConfig.issuer,
  store: databaseSandboxStore(database.db),
  certificateDir,
});
const app = await buildApp({
  database,
  config: { ...loadConfig({}), jwtSecret: 'bench-secret', secretCodeKey: 'bench-secret-code-key' },
  providers: { billing },
});
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const loginRes = await fetch(`${base}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'ADMIN', password: 'admin123' }),
});
const token = ((await loginRes.json()) as { token: string }).token;
const adminId = Number(((await database.db.execute(sql`select id from users where username = 'ADMIN'`)).rows[0] as { id: number }).id);

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
}

async function drive(clients: number, work: () => Promise<boolean>): Promise<Result> {
  const result: Result = { done: 0, failed: 0, latencies: [] };
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const ok = await work().catch(() => false);
        result.latencies.push(performance.now() - t);
        if (ok) result.done++;
        else result.failed++;
      }
    }),
  );
  result.latencies.sort((a, b) => a - b);
  return result;
}

/** POST /api/shipments by `clients` concurrent clients, driven from a worker thread (_http-driver.mjs). */
async function httpDrive(clients: number, oneRoute: boolean, forSeconds = seconds): Promise<Result> {
  const worker = new Worker(new URL('./_http-driver.mjs', import.meta.url), {
    workerData: { base, token, clients, seconds: forSeconds, route: oneRoute ? routeOf(true) : null, branchIds: ids },
  });
  const [result] = (await once(worker, 'message')) as [Result];
  await worker.terminate();
  result.latencies.sort((a, b) => a - b);
  return result;
}

// The raw-SQL limit: what a creation must write (price lookup for all lines, next code, the row,
// its first event, its audit row) in one transaction, with no HTTP, validation or hashing.
const pool = bench.url && !values['no-raw'] ? new pg.Pool({ connectionString: bench.url, max: Number(process.env.PG_POOL_MAX ?? 10) }) : null;
async function rawCreate(oneRoute: boolean) {
  const [o, d] = routeOf(oneRoute);
  const client = await pool!.connect();
  try {
    await client.query('begin');
    await client.query('select id from branches where id in ($1, $2)', [o, d]);
    await client.query(
      `select t.id, t.origin_branch_id, t.product_type, t.currency, r.from_kg, r.to_kg, r.factor_per_kg
         from weight_factor_tables t join weight_factor_tiers r on r.table_id = t.id
        where t.active and t.product_type = any($3) and ((t.origin_branch_id = $1 and t.destination_branch_id = $2) or (t.origin_branch_id = $2 and t.destination_branch_id = $1))
        order by t.origin_branch_id = $1 desc, r.from_kg`,
      [o, d, ['liviano', 'medio']],
    );
    const inserted = await client.query(
      `insert into shipments (code, status, created_at, updated_at, created_by, created_by_name, origin_branch_id, destination_branch_id,
         sender_name, recipient_first_name, recipient_last_name, recipient_name, recipient_doc, product_type, weight_kg, billable_weight_kg,
         quoted_price, quoted_currency, quoted_factor_per_kg, using_reverse, multi_line_detail, secret_code_hash)
       values ((select 'TMT-' || lpad(n::text, greatest(6, length(n::text)), '0') from nextval('shipment_code_seq') as n), 'Creado', now(), now(), $1, 'Ana Quispe', $2, $3, 'Comercial Andina SAC', 'María', 'Flores Ccori', 'María Flores Ccori', '45879612',
         'medio', 16.5, 17, 30.10, 'PEN', 1.3, false, '[]'::jsonb, 'x') returning *`,
      [adminId, o, d],
    );
    const id = inserted.rows[0].id as number;
    await client.query(
      `insert into shipment_events (shipment_id, kind, name, status_to, at, user_id, user_name) values ($1, 'status', 'Creado', 'Creado', now(), $2, 'Ana Quispe')`,
      [id, adminId],
    );
    await client.query(`insert into audit_log (user_id, entity, entity_id, action, after) values ($1, 'shipment', $2, 'create', $3)`, [
      adminId,
      String(id),
      JSON.stringify(inserted.rows[0]),
    ]);
    await client.query('commit');
    return true;
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}

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

interface Measured {
  label: string;
  clients: number;
  perSecond: number;
  p50: number;
  p95: number;
  failed: number;
  /** Server thread CPU per creation (API cases only). */
  cpuMsEach: number | null;
}
const measured: Measured[] = [];
const line = (label: string, clients: number, r: Result, cpuMs: number | null = null) => {
  const row: Measured = {
    label,
    clients,
    perSecond: r.done / seconds,
    p50: percentile(r.latencies, 50),
    p95: percentile(r.latencies, 95),
    failed: r.failed,
    cpuMsEach: cpuMs === null || r.done === 0 ? null : cpuMs / r.done,
  };
  measured.push(row);
  console.log(
    `${label.padEnd(36)} ${String(clients).padStart(8)} ${row.perSecond.toFixed(0).padStart(9)} ${row.p50.toFixed(1).padStart(8)} ${row.p95.toFixed(1).padStart(8)} ${String(r.failed).padStart(7)} ${(row.cpuMsEach === null ? '' : row.cpuMsEach.toFixed(2)).padStart(13)}`,
  );
};
console.log(
  `\n${'-- writes'.padEnd(36)} ${'clientes'.padStart(8)} ${'envíos/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'fallos'.padStart(7)} ${'CPU ms/envío'.padStart(13)}`,
);
const warmup = Number(values.warmup);
if (warmup > 0) {
  const warm = await httpDrive(8, false, warmup);
  console.log(`(calentamiento: ${warm.done} envíos en ${warmup} s, sin medir)`);
}
const cases = values.cases.split(',');
for (const oneRoute of cases.includes('shipments') ? [false, true] : []) {
  const where = oneRoute ? 'una ruta' : 'rutas al azar';
  for (const clients of clientCounts) {
    const cpuBefore = serverThreadCpuMs();
    const http = await httpDrive(clients, oneRoute);
    const cpuAfter = serverThreadCpuMs();
    line(`API POST /shipments (${where})`, clients, http, cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore);
    if (pool) line(`SQL directo (${where})`, clients, await drive(clients, () => rawCreate(oneRoute)));
  }
}
if (cases.includes('receipts')) {
  const clients = Number(values['receipt-clients']);
  const receipts = await receiptCases({
    db: database.db,
    base,
    adminToken: token,
    lima: branchIds.get('Lima')!,
    cusco: branchIds.get('Cusco')!,
    clients,
    seconds,
    ceiling: 400,
  });
  // The server thread's CPU with no request (its timers and background jobs), per second: on a busy
  // machine a case completes few operations, and that share would otherwise land on each of them.
  const idleBefore = serverThreadCpuMs();
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const idleAfter = serverThreadCpuMs();
  const idleMsPerSecond = idleBefore === null || idleAfter === null ? null : (idleAfter - idleBefore) / 5;
  for (const c of receipts) {
    const cpuBefore = serverThreadCpuMs();
    const r = await c.run();
    const cpuAfter = serverThreadCpuMs();
    const cpuMs = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
    line(c.label, clients, r, cpuMs);
    const s = await seriesGapless(database.db, c.series);
    const net = cpuMs === null || idleMsPerSecond === null || r.done === 0 ? null : (cpuMs - idleMsPerSecond * seconds) / r.done;
    console.log(
      `  serie ${c.series}: ${s.count} números, último ${s.last}, sin huecos ni duplicados: ${s.gapless ? 'sí' : 'NO'}; ` +
        `CPU ms/op sin el fondo (${idleMsPerSecond?.toFixed(0)} ms/s en reposo): ${net?.toFixed(2) ?? '—'}; carga media 1 min ${os.loadavg()[0]!.toFixed(1)}` +
        (r.ranOut ? '; se acabaron los envíos por cobrar antes del tiempo' : ''),
    );
  }
}
if (values.json) fs.writeFileSync(values.json, JSON.stringify({ engine: bench.engine, rows, seconds, results: measured }, null, 2));

await pool?.end();
await app.close();
await database.close();
await bench.cleanup();
fs.rmSync(certificateDir, { recursive: true, force: true });
