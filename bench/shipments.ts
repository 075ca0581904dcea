// npx tsx bench/shipments.ts --rows 100000 [--days 365] [--pg postgres://…] [--iterations 30] [--json FILE] [--cases REGEX]
//   [--shipments-only]
// (or npm run bench -- shipments --rows …). A fresh database (embedded in a temp dir, or a
// PostgreSQL database created and dropped here) holding a company's history: N shipments over the
// last --days days with their payments, receipts, cash sessions, credit facturas and open debts
// (bulkInsertCompany; --shipments-only: the shipments alone, faster). Then per case p50/p95 over real
// HTTP and, on PostgreSQL, p50/p95 of the very statements that request ran (recorded from the
// driver, replayed one after another on one connection) with their ratio and difference. The cases:
// the shipments' list, search, Panel and detail; what is owed (Cuentas por cobrar, por cobrar en
// destino, credit accounts, Registro de Ventas); Comprobantes and Movimientos (bench/_read-cases.ts).
// Prints figures, never asserts. --json writes them for npm run bench -- report.
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { seedBase } from '../apps/api/src/seed/base.ts';
import { bulkInsertCompany, bulkInsertShipments } from '../apps/api/src/seed/shipments-bulk.ts';
import { benchDatabase, percentile, settle } from './_db.ts';
import { startRecording, stopRecording } from './_record.ts';
import { documentCases, documentCursors, movementCases, movementCursors, receivableCases, type ReadCase } from './_read-cases.ts';

// --existing URL measures a PostgreSQL database already filled (e.g. by npm run seed:bulk) as is;
// --cases REGEX measures only the cases whose name it matches (e.g. 'q |rastreo' for the searches).
// --interleave replays the statements right after each request instead of after all of them: the
// API and its SQL then meet the same buffer cache and the same load of a shared machine (by
// default the API's requests warm the cache its replay then reads, which at 1M rows can be ms).
const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    days: { type: 'string', default: '365' },
    'shipments-only': { type: 'boolean', default: false },
    pg: { type: 'string' },
    existing: { type: 'string' },
    iterations: { type: 'string', default: '30' },
    json: { type: 'string' },
    cases: { type: 'string' },
    interleave: { type: 'boolean', default: false },
  },
});
let rows = Number(values.rows);
const iterations = Number(values.iterations);

const bench = await benchDatabase({ pg: values.pg, existing: values.existing });
const { database } = bench;
const engine = bench.engine;
let started = performance.now();
let branchIds: Map<string, number>;
if (values.existing) {
  const found = (await database.db.execute(sql`select id, name from branches`)).rows as { id: number; name: string }[];
  branchIds = new Map(found.map((b) => [b.name, b.id]));
  rows = Number(((await database.db.execute(sql`select count(*)::int as n from shipments`)).rows[0] as { n: number }).n);
} else {
  branchIds = await seedBase(database.db);
  const days = Number(values.days);
  if (values['shipments-only']) await bulkInsertShipments(database.db, rows, undefined, { days });
  else await bulkInsertCompany(database.db, rows, undefined, { days });
  await settle(database);
  console.log(`Carga masiva: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
console.log(`Motor: ${engine}; filas: ${rows} (${values.days} días); iteraciones por caso: ${iterations}`);

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

const replay = bench.url ? new pg.Client({ connectionString: bench.url }) : null;
await replay?.connect();

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

/** The cursor of the row `offset` rows down the list (newest first), as the list answers it. */
const cursorAt = async (offset: number) =>
  (
    (
      await database.db.execute(sql`
        select ((extract(epoch from created_at) * 1000000)::bigint)::text || '.' || id as c
          from shipments order by created_at desc, id desc offset ${offset} limit 1`)
    ).rows[0] as { c: string }
  ).c;
const middle = await cursorAt(Math.floor(rows / 2));
const nearEnd = await cursorAt(Math.max(0, rows - 11));

const counted = async (table: string) =>
  Number(((await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))).rows[0] as { n: number }).n);
const documentsAt = await documentCursors(database.db, await counted('documents'));
const movementsAt = await movementCursors(database.db, await counted('payments'));
const busiest = (await database.db.execute(sql`select user_id from payments group by 1 order by count(*) desc limit 1`)).rows[0] as
  { user_id: number } | undefined;
const creditRuc = (
  await database.db.execute(sql`select c.doc_number from credit_accounts a join customers c on c.id = a.customer_id order by a.id limit 1`)
).rows[0] as { doc_number: string } | undefined;
const prefixed = (prefix: string, list: ReadCase[]) => list.map(([name, url, token]): ReadCase => [`${prefix}: ${name}`, url, token]);

const cases: ReadCase[] = [
  // The floor: what Fastify, our hooks and this client cost around a route that reads nothing of
  // its own (health sends `select 1`; the session's user comes from the session cache). No token: anonymous.
  ['piso: salud (sin sesión)', '/api/health', ''],
  ['piso: /auth/me (con sesión)', '/api/auth/me', admin],
  ['lista página 1', '/api/shipments?page=1&pageSize=10', admin],
  ['lista página 100 (última numerada)', '/api/shipments?page=100&pageSize=10', admin],
  ['lista a mitad (cursor)', `/api/shipments?page=2&pageSize=10&after=${middle}`, admin],
  ['lista última página (cursor)', `/api/shipments?page=2&pageSize=10&after=${nearEnd}`, admin],
  ['lista agente (su sucursal) p1', '/api/shipments?page=1&pageSize=10', agent],
  ['filtro estado En tránsito', '/api/shipments?status=En%20tr%C3%A1nsito', admin],
  ['filtro origen', `/api/shipments?originBranchId=${lima}`, admin],
  ['filtro destino', `/api/shipments?destinationBranchId=${cusco}`, admin],
  ['origen+destino+Anulado', `/api/shipments?originBranchId=${lima}&destinationBranchId=${cusco}&status=Anulado`, admin],
  ['filtro rango 7 días', `/api/shipments?dateFrom=${weekAgo}&dateTo=${today}`, admin],
  ['q de 2 letras (zz)', '/api/shipments?q=zz', admin],
  ['q por nombre (quispe)', '/api/shipments?q=quispe', admin],
  ['q por nombre completo', '/api/shipments?q=rosa%20quispe%20flores', admin],
  ['q nombre y apellido (maria quispe)', '/api/shipments?q=maria%20quispe', admin],
  ['q por documento', `/api/shipments?q=${sample.recipient_doc}`, admin],
  ['panel 30 días (como abre)', `/api/dashboard?dateFrom=${monthAgo}&dateTo=${today}`, admin],
  ['panel sin fechas (todo)', '/api/dashboard', admin],
  ['panel 365 días', `/api/dashboard?dateFrom=${new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10)}&dateTo=${today}`, admin],
  ['panel agente 30 días', `/api/dashboard?dateFrom=${monthAgo}&dateTo=${today}`, agent],
  ['panel con q (maria quispe)', `/api/dashboard?dateFrom=${monthAgo}&dateTo=${today}&q=maria%20quispe`, admin],
  ['código /shipments/code/{code}', `/api/shipments/code/${sample.code}`, admin],
  ['detalle /shipments/{code}', `/api/shipments/${sample.code}`, admin],
  ['rastreo (search) maria quispe', '/api/shipments/search?q=maria%20quispe', admin],
  ['rastreo (search) quispe', '/api/shipments/search?q=quispe', admin],
  ...receivableCases({ admin, agent }),
  ...prefixed('Comprobantes', documentCases({ admin, agent, ...documentsAt, series: 'BBB1', ruc: creditRuc?.doc_number ?? '20100070970' })),
  ...prefixed('Movimientos', movementCases({ admin, agent, ...movementsAt, userId: Number(busiest?.user_id ?? 1) })),
];

/**
 * A GET as a browser sends it (brotli accepted), timed until the whole answer has arrived, through
 * node:http on a kept-alive socket: fetch's streams cost the client ~1 ms a request on this loop,
 * which would be counted as the API's. The answer is unpacked after the clock stops, as a browser
 * does natively.
 */
const keptAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(url: string, token: string): Promise<{ status: number; json: () => unknown }> {
  const headers = { ...(token ? { authorization: `Bearer ${token}` } : {}), 'accept-encoding': 'br' };
  return new Promise((resolve, reject) => {
    http
      .get(new URL(url, base), { agent: keptAlive, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const unpack = () => (res.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(raw) : raw);
          resolve({ status: res.statusCode ?? 0, json: () => JSON.parse(unpack().toString('utf8')) as unknown });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

interface CaseResult {
  name: string;
  apiP50: number;
  apiP95: number;
  sqlP50: number | null;
  sqlP95: number | null;
  statements: number;
  summary: string;
}
const results: CaseResult[] = [];
const fmt = (n: number | null) => (n === null ? '—' : n.toFixed(1)).padStart(8);
console.log(
  `\n${'caso'.padEnd(50)} ${'API p50'.padStart(8)} ${'API p95'.padStart(8)} ${'SQL p50'.padStart(8)} ${'SQL p95'.padStart(8)} ${'API/SQL'.padStart(8)} ${'dif ms'.padStart(8)}  resultado`,
);
for (const [name, url, token] of cases.filter(([name]) => !values.cases || new RegExp(values.cases).test(name))) {
  const times: number[] = [];
  let summary = '';
  let statements: { text: string; values: unknown[] }[] = [];
  // The same statements straight to the database, one after another, as many times.
  const replayOnce = async () => {
    started = performance.now();
    for (const st of statements) await replay!.query(st.text, st.values);
    return performance.now() - started;
  };
  let sqlTimes: number[] | null = replay && values.interleave ? [] : null;
  for (let i = 0; i < iterations + 3; i++) {
    if (i === 0) startRecording();
    started = performance.now();
    const res = await get(url, token);
    const ms = performance.now() - started;
    const body = res.json() as { total?: number; totalCapped?: boolean; counters?: { total: number }; length?: number };
    if (i === 0) statements = stopRecording();
    if (i >= 3) times.push(ms);
    if (sqlTimes && statements.length > 0) {
      const sqlMs = await replayOnce();
      if (i >= 3) sqlTimes.push(sqlMs);
    }
    summary =
      res.status !== 200
        ? `HTTP ${res.status}`
        : body.total !== undefined
          ? `total ${body.totalCapped ? 'más de ' : ''}${body.total}`
          : body.counters
            ? `total ${body.counters.total}`
            : Array.isArray(body)
              ? `${body.length} filas`
              : 'ok';
  }
  times.sort((a, b) => a - b);
  if (replay && !values.interleave && statements.length > 0) {
    sqlTimes = [];
    for (let i = 0; i < iterations + 3; i++) {
      const sqlMs = await replayOnce();
      if (i >= 3) sqlTimes.push(sqlMs);
    }
  }
  if (statements.length === 0) sqlTimes = null;
  sqlTimes?.sort((a, b) => a - b);
  const r: CaseResult = {
    name,
    apiP50: percentile(times, 50),
    apiP95: percentile(times, 95),
    sqlP50: sqlTimes ? percentile(sqlTimes, 50) : null,
    sqlP95: sqlTimes ? percentile(sqlTimes, 95) : null,
    statements: statements.length,
    summary,
  };
  results.push(r);
  const ratio = r.sqlP50 ? (r.apiP50 / r.sqlP50).toFixed(2) : '—';
  const diff = r.sqlP50 === null ? null : r.apiP50 - r.sqlP50;
  console.log(`${name.padEnd(50)} ${fmt(r.apiP50)} ${fmt(r.apiP95)} ${fmt(r.sqlP50)} ${fmt(r.sqlP95)} ${ratio.padStart(8)} ${fmt(diff)}  ${summary}`);
}
if (values.json) fs.writeFileSync(values.json, JSON.stringify({ engine, rows, iterations, results }, null, 2));

await replay?.end();
keptAlive.destroy();
await app.close();
await database.close();
await bench.cleanup();
