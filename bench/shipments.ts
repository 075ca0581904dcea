// npx tsx bench/shipments.ts --rows 100000 [--days 365] [--pg postgres://…] [--iterations 30] [--json FILE] [--cases REGEX]
//   [--shipments-only] [--interleave]
// npx tsx bench/shipments.ts --companies 100000:365,1000000:3650 --pg postgres://… [--json FILE]   (sizes side by side)
// npx tsx bench/shipments.ts --existing URL[,URL…]
// (or npm run bench -- shipments --rows …). A fresh database (embedded in a temp dir, or a
// PostgreSQL database created and dropped here) holding a company's history: N shipments over the
// last --days days with their payments, receipts, cash sessions, credit facturas and open debts
// (bulkInsertCompany; --shipments-only: the shipments alone, faster). Then per case p50/p95 over real
// HTTP and, on PostgreSQL, p50/p95 of the very statements that request ran (recorded from the
// driver, replayed one after another on one connection) with their ratio and difference. The cases:
// the shipments' list, search, Panel and detail; what is owed (Cuentas por cobrar, por cobrar en
// destino, credit accounts, Registro de Ventas); Comprobantes and Movimientos (bench/_read-cases.ts).
// Prints figures, never asserts. --json writes them for npm run bench -- report.
//
// Several companies (--companies ROWS:DAYS,… or several --existing URLs) are measured side by side:
// one server per database in this process, and each case's requests taken in short turns from each
// (inTurns), so a shared machine's load, which drifts over the minutes a run lasts, weighs on every
// size alike and their ratio (what issue 37's bar reads) is the sizes', not the minutes'.
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { SESSION_OPTIONS } from '../apps/api/src/db/client.ts';
import { seedBase } from '../apps/api/src/seed/base.ts';
import { bulkInsertCompany, bulkInsertShipments } from '../apps/api/src/seed/shipments-bulk.ts';
import { benchDatabase, loginToken, percentile, settle, type BenchDatabase } from './_db.ts';
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
    companies: { type: 'string' },
    'shipments-only': { type: 'boolean', default: false },
    pg: { type: 'string' },
    existing: { type: 'string' },
    iterations: { type: 'string', default: '30' },
    json: { type: 'string' },
    cases: { type: 'string' },
    interleave: { type: 'boolean', default: false },
  },
});
const iterations = Number(values.iterations);
/** What to measure: databases already filled, or companies (shipments over days) to seed. */
const specs: ({ existing: string } | { rows: number; days: number })[] = values.existing
  ? values.existing.split(',').map((existing) => ({ existing }))
  : (values.companies ?? `${values.rows}:${values.days}`).split(',').map((c) => {
      const [rows, days] = c.split(':').map(Number) as [number, number];
      return { rows, days: days || Number(values.days) };
    });
if (specs.some((s) => 'rows' in s && !(s.rows > 0 && Number.isInteger(s.days) && s.days > 0))) {
  console.error('Uso: npx tsx bench/shipments.ts --rows N [--days D] | --companies N:D,N:D | --existing URL[,URL]');
  process.exit(2);
}
if (specs.length > 1 && !values.pg && !values.existing) {
  console.error('Varias empresas a la vez se miden en PostgreSQL (--pg).');
  process.exit(2);
}

/** One company's database, its server, and its cases (their cursors and samples are its own). */
interface Company {
  rows: number;
  days: number | null;
  bench: BenchDatabase;
  app: Awaited<ReturnType<typeof buildApp>>;
  base: string;
  replay: pg.Client | null;
  cases: ReadCase[];
}

async function openCompany(spec: (typeof specs)[number]): Promise<Company> {
  const bench = await benchDatabase({ pg: values.pg, existing: 'existing' in spec ? spec.existing : undefined });
  const { database } = bench;
  const started = performance.now();
  let branchIds: Map<string, number>;
  let rows: number;
  if ('existing' in spec) {
    const found = (await database.db.execute(sql`select id, name from branches`)).rows as { id: number; name: string }[];
    branchIds = new Map(found.map((b) => [b.name, b.id]));
    rows = Number(((await database.db.execute(sql`select count(*)::int as n from shipments`)).rows[0] as { n: number }).n);
  } else {
    rows = spec.rows;
    branchIds = await seedBase(database.db);
    if (values['shipments-only']) await bulkInsertShipments(database.db, rows, undefined, { days: spec.days });
    else await bulkInsertCompany(database.db, rows, undefined, { days: spec.days });
    await settle(database);
    console.log(`Carga masiva: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const days = 'days' in spec ? spec.days : null;
  console.log(`Motor: ${bench.engine}; filas: ${rows}${days ? ` (${days} días)` : ''}; iteraciones por caso: ${iterations}`);

  const app = await buildApp({ database, config: { ...loadConfig({}), jwtSecret: 'bench-secret', secretCodeKey: 'bench-secret-code-key' } });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const admin = await loginToken(base, 'ADMIN', 'admin123');
  const agent = await loginToken(base, 'AGENTE1', 'agente123');

  // The replay's session is set as the app's connections are (SESSION_OPTIONS): the same statements under the same settings.
  const replay = bench.url ? new pg.Client({ connectionString: bench.url, options: SESSION_OPTIONS }) : null;
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
  return { rows, days, bench, app, base, replay, cases };
}

const companies: Company[] = [];
for (const spec of specs) companies.push(await openCompany(spec));

/**
 * A GET as a browser sends it (brotli accepted), timed until the whole answer has arrived, through
 * node:http on a kept-alive socket: fetch's streams cost the client ~1 ms a request on this loop,
 * which would be counted as the API's. The answer is unpacked after the clock stops, as a browser
 * does natively.
 */
const keptAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(base: string, url: string, token: string): Promise<{ status: number; json: () => unknown }> {
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

/** The index CaseRun.request and replayAfter take: below WARM_UPS a request is not measured, and 0 is recorded. */
const WARM_UPS = 3;
const UNMEASURED = 1;
const MEASURED = WARM_UPS;

/** One company's run of one case: its request times, its statements' replays and what it answered. */
class CaseRun {
  times: number[] = [];
  sqlTimes: number[] = [];
  statements: { text: string; values: unknown[] }[] = [];
  summary = '';
  constructor(
    readonly company: Company,
    readonly url: string,
    readonly token: string,
  ) {}

  /** The same statements straight to the database, one after another. */
  async replayOnce() {
    const started = performance.now();
    for (const st of this.statements) await this.company.replay!.query(st.text, st.values);
    return performance.now() - started;
  }

  /** Request `i` (the first WARM_UPS are not measured, the first is recorded), and its replay when interleaved. */
  async request(i: number) {
    if (i === 0) startRecording();
    const started = performance.now();
    const res = await get(this.company.base, this.url, this.token);
    const ms = performance.now() - started;
    const body = res.json() as { total?: number; totalCapped?: boolean; counters?: { total: number }; length?: number };
    if (i === 0) this.statements = stopRecording();
    if (i >= WARM_UPS) this.times.push(ms);
    if (this.company.replay && values.interleave && this.statements.length > 0) {
      const sqlMs = await this.replayOnce();
      if (i >= WARM_UPS) this.sqlTimes.push(sqlMs);
    }
    this.summary =
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

  /** The replays after all the requests (without --interleave). */
  async replayAfter(i: number) {
    if (!this.company.replay || values.interleave || this.statements.length === 0) return;
    const sqlMs = await this.replayOnce();
    if (i >= WARM_UPS) this.sqlTimes.push(sqlMs);
  }

  result(name: string): CaseResult {
    const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
    const times = sorted(this.times);
    const sqlTimes = this.statements.length > 0 && this.company.replay ? sorted(this.sqlTimes) : null;
    return {
      name,
      apiP50: percentile(times, 50),
      apiP95: percentile(times, 95),
      sqlP50: sqlTimes ? percentile(sqlTimes, 50) : null,
      sqlP95: sqlTimes ? percentile(sqlTimes, 95) : null,
      statements: this.statements.length,
      summary: this.summary,
    };
  }
}

/** Requests a company's turn measures; the turn's first one before them is not measured. */
const TURN = 5;

/**
 * A case's requests (or replays, `step(run, i)` with `i` as CaseRun.request takes it): WARM_UPS
 * warm-ups each, then turns of TURN measured ones, every company in turn and the next company
 * first in the next round. The companies share one buffer cache, so a read of thousands of rows
 * finds its pages evicted by the other two's turns: each turn starts with one unmeasured request
 * that reads them back, as a lone run's previous request had (single requests in turn measured
 * such reads of the 10×-a-day company 3–16× slower than a lone run). The turns still alternate
 * within seconds, so a drift of the machine's load weighs on every company alike.
 */
async function inTurns(runs: CaseRun[], step: (run: CaseRun, i: number) => Promise<void>) {
  for (const run of runs) for (let i = 0; i < WARM_UPS; i++) await step(run, i);
  for (let done = 0, turn = 0; done < iterations; done += TURN, turn++) {
    for (let k = 0; k < runs.length; k++) {
      const run = runs[(turn + k) % runs.length]!;
      if (runs.length > 1) await step(run, UNMEASURED);
      for (let j = 0; j < Math.min(TURN, iterations - done); j++) await step(run, MEASURED);
    }
  }
}

const results: CaseResult[][] = companies.map(() => []);
const fmt = (n: number | null) => (n === null ? '—' : n.toFixed(1)).padStart(8);
const label = (c: Company) => (companies.length > 1 ? ` [${c.rows}${c.days ? `/${c.days}d` : ''}]` : '');
console.log(
  `\n${'caso'.padEnd(50)} ${'API p50'.padStart(8)} ${'API p95'.padStart(8)} ${'SQL p50'.padStart(8)} ${'SQL p95'.padStart(8)} ${'API/SQL'.padStart(8)} ${'dif ms'.padStart(8)}  resultado`,
);
for (const [index, [name]] of companies[0]!.cases.entries()) {
  if (values.cases && !new RegExp(values.cases).test(name)) continue;
  const runs = companies.map((c) => {
    const [caseName, url, token] = c.cases[index]!;
    if (caseName !== name) throw new Error(`Los casos no coinciden: ${caseName} / ${name}`);
    return new CaseRun(c, url, token);
  });
  await inTurns(runs, (run, i) => run.request(i));
  await inTurns(runs, (run, i) => run.replayAfter(i));
  for (const [k, run] of runs.entries()) {
    const r = run.result(name);
    results[k]!.push(r);
    const ratio = r.sqlP50 ? (r.apiP50 / r.sqlP50).toFixed(2) : '—';
    const diff = r.sqlP50 === null ? null : r.apiP50 - r.sqlP50;
    console.log(
      `${(name + label(run.company)).padEnd(50)} ${fmt(r.apiP50)} ${fmt(r.apiP95)} ${fmt(r.sqlP50)} ${fmt(r.sqlP95)} ${ratio.padStart(8)} ${fmt(diff)}  ${r.summary}`,
    );
  }
}
if (values.json) {
  const engine = companies[0]!.bench.engine;
  const measured = companies.map((c, k) => ({ rows: c.rows, days: c.days, results: results[k]! }));
  // One company: its figures at the top, as before; several: each under `companies`.
  fs.writeFileSync(values.json, JSON.stringify({ engine, iterations, ...measured[0], companies: measured }, null, 2));
}

keptAlive.destroy();
for (const c of companies) {
  await c.replay?.end();
  await c.app.close();
  await c.bench.database.close();
  await c.bench.cleanup();
}
