// npx tsx bench/shipments.ts --rows 100000 [--pg postgres://…] [--iterations 30]
// (or npm run bench -- shipments --rows …). A fresh database (embedded in a temp dir, or a
// PostgreSQL database created and dropped here), N bulk shipments, then p50/p95 over real HTTP.
// Prints figures, never asserts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openEmbedded, openPostgres, type Database } from '../apps/api/src/db/client.ts';
import { seedBase } from '../apps/api/src/seed/base.ts';
import { bulkInsertShipments } from '../apps/api/src/seed/shipments-bulk.ts';

// --existing URL measures a PostgreSQL database already filled (e.g. by npm run seed:bulk) as is.
const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    pg: { type: 'string' },
    existing: { type: 'string' },
    iterations: { type: 'string', default: '30' },
  },
});
let rows = Number(values.rows);
const iterations = Number(values.iterations);

let database: Database;
let cleanup: () => Promise<void>;
if (values.existing) {
  database = await openPostgres(values.existing);
  cleanup = async () => {};
} else if (values.pg) {
  const name = `tramo_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: values.pg });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(values.pg);
  url.pathname = `/${name}`;
  database = await openPostgres(url.toString());
  cleanup = async () => {
    const c = new pg.Client({ connectionString: values.pg });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-bench-'));
  database = await openEmbedded(path.join(dir, 'pgdata'));
  cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
}

const engine = values.pg || values.existing ? 'PostgreSQL' : 'embebido (PGlite)';
let started = performance.now();
let branchIds: Map<string, number>;
if (values.existing) {
  const found = (await database.db.execute(sql`select id, name from branches`)).rows as { id: number; name: string }[];
  branchIds = new Map(found.map((b) => [b.name, b.id]));
  rows = Number(((await database.db.execute(sql`select count(*)::int as n from shipments`)).rows[0] as { n: number }).n);
} else {
  branchIds = await seedBase(database.db);
  await bulkInsertShipments(database.db, rows);
  console.log(`Carga masiva: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
console.log(`Motor: ${engine}; filas: ${rows}; iteraciones por caso: ${iterations}`);

const app = await buildApp({ database, config: { ...loadConfig({}), jwtSecret: 'bench-secret', secretCodeKey: 'bench-secret-code-key' } });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const login = async (username: string, password: string) => {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return ((await res.json()) as { token: string }).token;
};
const admin = await login('ADMIN', 'admin123');
const agent = await login('AGENTE1', 'agente123');

const sample = (await database.db.execute(sql`select code, recipient_doc from shipments order by id desc offset ${Math.floor(rows / 2)} limit 1`))
  .rows[0] as {
  code: string;
  recipient_doc: string;
};
const lima = branchIds.get('Lima')!;
const cusco = branchIds.get('Cusco')!;
const today = new Date(Date.now() - 5 * 3_600_000).toISOString().slice(0, 10);
const weekAgo = new Date(Date.now() - 5 * 3_600_000 - 6 * 86_400_000).toISOString().slice(0, 10);
const monthAgo = new Date(Date.now() - 5 * 3_600_000 - 29 * 86_400_000).toISOString().slice(0, 10);

const cases: [string, string, string][] = [
  ['lista página 1', '/api/shipments?page=1&pageSize=10', admin],
  ['lista página 500', '/api/shipments?page=500&pageSize=10', admin],
  ['lista agente (su sucursal) p1', '/api/shipments?page=1&pageSize=10', agent],
  ['filtro estado En tránsito', '/api/shipments?status=En%20tr%C3%A1nsito', admin],
  ['filtro origen', `/api/shipments?originBranchId=${lima}`, admin],
  ['filtro destino', `/api/shipments?destinationBranchId=${cusco}`, admin],
  ['filtro rango 7 días', `/api/shipments?dateFrom=${weekAgo}&dateTo=${today}`, admin],
  ['q por nombre (quispe)', '/api/shipments?q=quispe', admin],
  ['q por nombre completo', '/api/shipments?q=rosa%20quispe%20flores', admin],
  ['q por documento', `/api/shipments?q=${sample.recipient_doc}`, admin],
  ['panel 30 días (como abre)', `/api/dashboard?dateFrom=${monthAgo}&dateTo=${today}`, admin],
  ['panel sin fechas (todo)', '/api/dashboard', admin],
  ['panel 365 días', `/api/dashboard?dateFrom=${new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10)}&dateTo=${today}`, admin],
  ['panel agente 30 días', `/api/dashboard?dateFrom=${monthAgo}&dateTo=${today}`, agent],
  ['código /shipments/code/{code}', `/api/shipments/code/${sample.code}`, admin],
  ['detalle /shipments/{code}', `/api/shipments/${sample.code}`, admin],
  ['rastreo por nombre (search)', '/api/shipments/search?q=maria%20quispe', admin],
];

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
console.log(`\n${'caso'.padEnd(34)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}  resultado`);
for (const [name, url, token] of cases) {
  const times: number[] = [];
  let summary = '';
  for (let i = 0; i < iterations + 3; i++) {
    started = performance.now();
    const res = await fetch(base + url, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { total?: number; counters?: { total: number }; length?: number };
    const ms = performance.now() - started;
    if (i >= 3) times.push(ms);
    summary =
      res.status !== 200
        ? `HTTP ${res.status}`
        : body.total !== undefined
          ? `total ${body.total}`
          : body.counters
            ? `total ${body.counters.total}`
            : Array.isArray(body)
              ? `${body.length} filas`
              : 'ok';
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(34)} ${pct(times, 50).toFixed(1).padStart(8)} ${pct(times, 95).toFixed(1).padStart(8)}  ${summary}`);
}

await app.close();
await database.close();
await cleanup();
