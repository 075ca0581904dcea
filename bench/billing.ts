// npm run bench -- billing [--emissions 400] [--clients 8] [--documents 100000] [--iterations 30]
//   [--pg postgres://…] [--engines embedded,postgres]
// Per engine, a fresh database (embedded in a temp dir; on PostgreSQL a throw-away database created
// and dropped here, on --pg, else TEST_DATABASE_URL, else DATABASE_URL) and the app over real HTTP
// with the sandbox provider backed by its table, as `npm start` runs it:
//  1. emissions/s on ONE series (facturas FFF1, accepted at once) with N concurrent clients
//     through POST /api/billing/create-emit;
//  2. p50/p95 of GET /api/billing/documents (page 1 and filters) after bulk-inserting documents rows
//     with SQL up to --documents (copies of an emitted document's JSON and signed XML, so rows weigh
//     what real ones do).
// Quick run: --emissions 80 --documents 5000 --iterations 10. Prints figures, never asserts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openEmbedded, openPostgres, type Database, type Db } from '../apps/api/src/db/client.ts';
import { databaseSandboxStore, loadBillingConfig, sandboxBillingProvider } from '../apps/api/src/providers/billing/index.ts';
import { seedBase } from '../apps/api/src/seed/base.ts';
import { loginToken, settle } from './_db.ts';
import { documentCases, documentCursors, limaDate } from './_read-cases.ts';

const listResults: { engine: string; rows: number; name: string; p50: number; p95: number; summary: string }[] = [];
const { values } = parseArgs({
  options: {
    emissions: { type: 'string', default: '400' },
    clients: { type: 'string', default: '8' },
    documents: { type: 'string', default: '100000' },
    iterations: { type: 'string', default: '30' },
    /** Write the register's cases (p50/p95 per case and engine) as JSON, for bench/report.ts. */
    json: { type: 'string' },
    pg: { type: 'string' },
    engines: { type: 'string', default: 'embedded,postgres' },
  },
});
const emissions = Number(values.emissions);
const clients = Number(values.clients);
const targetDocuments = Number(values.documents);
const iterations = Number(values.iterations);
const pgUrl = values.pg ?? process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? null;
const engines = values.engines.split(',').map((e) => e.trim());

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
const ms = (n: number) => n.toFixed(1).padStart(8);
const scalar = async (db: Db, query: ReturnType<typeof sql>) => Number(((await db.execute(query)).rows[0] as { n: unknown }).n);

interface Opened {
  database: Database;
  cleanup: () => Promise<void>;
  label: string;
}

async function open(engine: string): Promise<Opened | null> {
  if (engine === 'embedded') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-bench-billing-'));
    return {
      database: await openEmbedded(path.join(dir, 'pgdata')),
      cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
      label: 'embebido (PGlite)',
    };
  }
  if (engine === 'postgres') {
    if (!pgUrl) {
      console.log('\nPostgreSQL: omitido (usa --pg URL, TEST_DATABASE_URL o DATABASE_URL).');
      return null;
    }
    const name = `tramo_bench_billing_${Date.now()}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    return {
      database: await openPostgres(url.toString()),
      cleanup: async () => {
        const c = new pg.Client({ connectionString: pgUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
      label: `PostgreSQL (base temporal ${name})`,
    };
  }
  console.log(`\nMotor desconocido: ${engine} (embedded | postgres)`);
  return null;
}

const factura = (issueDate: string) => ({
  type: '01',
  serie: 'FFF1',
  issueDate,
  items: [
    { description: 'Servicio de transporte de carga TMT-000123 Lima → Arequipa', unit: 'ZZ', quantity: 1, unitValue: '254.24', igvType: '10' },
    { description: 'Embalaje', unit: 'NIU', quantity: 3, unitValue: '5.50', igvType: '10' },
  ],
  customer: { doc_type: 6, doc_number: '20100070970', name: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' },
});

/**
 * Appends documents rows up to `total` with INSERT … SELECT over generate_series: boletas (B001, B002),
 * facturas (F001, F002) and credit notes (FC01, BC01) numbered after each series' last number, over
 * the last 365 days, every branch, mostly accepted (some voided, pending, rejected). Each row carries
 * the JSON and XML of a real emitted document (`templateId`), so a page reads what a real one reads.
 */
async function bulkInsertDocuments(db: Db, total: number, templateId: number) {
  const CHUNK = 50_000;
  const existing = await scalar(db, sql`select count(*)::int as n from documents`);
  for (let done = existing; done < total; done += CHUNK) {
    const size = Math.min(CHUNK, total - done);
    await db.execute(sql`
      insert into documents (type, series, number, status, issue_date, contingency, customer_doc_type, customer_doc_number, customer_name,
        gravada, exonerada, inafecta, igv, total, document, modifies, branch_id, user_name, hash, qr_text, xml, created_at, updated_at)
      select x.type, x.series, coalesce(mx.m, 0) + row_number() over (partition by x.type, x.series order by x.g), x.status, x.day, false,
        case when x.company then '6' else '1' end, x.doc, x.name,
        x.base, 0, 0, round(x.base * 0.18, 2), x.base + round(x.base * 0.18, 2), t.document,
        case when x.type = '07' then (case when x.series = 'FC01' then 'F001-' else 'B001-' end) || (1 + floor(random() * 1000))::int end,
        b.ids[1 + floor(random() * b.k)::int], 'Carga masiva', t.hash, t.qr_text, t.xml, x.day + interval '15 hours', x.day + interval '15 hours'
      from (
        select g, k.*, k.type = '01' or k.series = 'FC01' as company,
          (array['aceptado','aceptado','aceptado','aceptado','aceptado','aceptado','aceptado','aceptado','aceptado','aceptado',
                 'aceptado','aceptado','aceptado','aceptado','aceptado','aceptado','aceptado','anulado','pendiente','rechazado'])[1 + floor(random() * 20)::int] as status,
          (current_date - floor(random() * 365)::int) as day,
          round((10 + random() * random() * 4000)::numeric, 2) as base,
          case when k.type = '01' or k.series = 'FC01'
            then (array['COMERCIAL ANDINA S.A.C.','TEXTILES GAMARRA EXPRESS E.I.R.L.','AGROEXPORTADORA NORTE VERDE S.A.','DISTRIBUIDORA SUR E.I.R.L.',
                        'FERRETERIA EL CONSTRUCTOR S.A.C.','SUPERMERCADOS PERUANOS S.A.','LIBRERIA SAN MARCOS S.R.L.','FARMACIA SALUD TOTAL S.A.C.'])[1 + (g % 8)]
            else (array['María','José','Rosa','Juan','Carmen','Luis','Ana','Carlos','Julia','Pedro'])[1 + floor(random() * 10)::int] || ' ' ||
                 (array['Quispe','Flores','Huamán','Mamani','Rojas','Sánchez','García','Vargas','Chávez','Ramos','Torres','Condori'])[1 + floor(random() * 12)::int] || ' ' ||
                 (array['Quispe','Flores','Huamán','Mamani','Rojas','Sánchez','García','Vargas','Chávez','Ramos','Torres','Condori'])[1 + floor(random() * 12)::int]
          end as name,
          case when k.type = '01' or k.series = 'FC01' then '20' || lpad((g % 8 * 1234567 + 100000000)::text, 9, '0')
            else (10000000 + floor(random() * 80000000))::bigint::text end as doc
        from generate_series(1, ${size}) g,
          lateral (select (array['03','03','03','03','03','03','01','01','01','01','01','01','07','07'])[1 + (g % 14)] as type,
                          (array['B001','B002','B001','B002','B001','B002','F001','F002','F001','F002','F001','F002','FC01','BC01'])[1 + (g % 14)] as series) k
      ) x
      left join (select type, series, max(number) as m from documents group by 1, 2) mx on mx.type = x.type and mx.series = x.series,
      (select array_agg(id order by id) as ids, count(*)::int as k from branches) b,
      (select document, hash, qr_text, xml from documents where id = ${templateId}) t`);
  }
  // The counters follow, as if each row had taken its number.
  await db.execute(sql`
    insert into document_series (type, series, last_number)
    select type, series, max(number) from documents group by 1, 2
    on conflict (type, series) do update set last_number = excluded.last_number`);
  await db.execute(sql`analyze documents`);
}

async function benchEngine(engine: string) {
  const opened = await open(engine);
  if (!opened) return;
  const { database, cleanup, label } = opened;
  const certificateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-bench-cert-'));
  try {
    await seedBase(database.db);
    const config = loadBillingConfig({});
    // The sandbox as the app builds it (its table as the store), whatever NUBEFACT_* says here.
    const billing = sandboxBillingProvider({
      ...config.sandbox,
      issuer: config.issuer,
      store: databaseSandboxStore(database.db),
      certificateDir,
    });
    const app = await buildApp({ database, config: { ...loadConfig({}), jwtSecret: 'bench-secret' }, providers: { billing } });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const admin = await loginToken(base, 'ADMIN', 'admin123');
      const agent = await loginToken(base, 'AGENTE1', 'agente123');

      const emit = async (body: unknown) => {
        const started = performance.now();
        const r = await fetch(`${base}/api/billing/create-emit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
          body: JSON.stringify(body),
        });
        const json = (await r.json()) as { id: number | null; numero: number | null };
        return { status: r.status, id: json.id, numero: json.numero, ms: performance.now() - started };
      };

      console.log(`\n=== Motor: ${label} ===`);
      // Warm-up on another series: the demo certificate is created at first use, the paths get compiled.
      const today = limaDate(0);
      for (let i = 0; i < 5; i++) await emit({ ...factura(today), serie: 'FFF9' });

      let next = 0;
      const latencies: number[] = [];
      const statuses: Record<number, number> = {};
      const numbers: number[] = [];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (next < emissions) {
            next++;
            const r = await emit(factura(today));
            latencies.push(r.ms);
            statuses[r.status] = (statuses[r.status] ?? 0) + 1;
            if (r.numero !== null) numbers.push(r.numero);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      numbers.sort((a, b) => a - b);
      const gapless = numbers.length === emissions && numbers.every((n, i) => n === i + 1);
      console.log(
        `Emisiones FFF1 (${clients} clientes, ${emissions} facturas): ${(emissions / seconds).toFixed(1)} emisiones/s en ${seconds.toFixed(1)} s; ` +
          `latencia p50 ${pct(latencies, 50).toFixed(1)} ms, p95 ${pct(latencies, 95).toFixed(1)} ms; ` +
          `HTTP ${JSON.stringify(statuses)}; números 1..${emissions} sin huecos ni duplicados: ${gapless ? 'sí' : 'NO'}`,
      );

      const template = await scalar(database.db, sql`select min(id)::int as n from documents where series = 'FFF1'`);
      const loadStarted = performance.now();
      await bulkInsertDocuments(database.db, targetDocuments, template);
      await settle(database);
      const count = await scalar(database.db, sql`select count(*)::int as n from documents`);
      console.log(
        `Carga masiva de comprobantes: ${((performance.now() - loadStarted) / 1000).toFixed(1)} s; comprobantes: ${count}; iteraciones por caso: ${iterations}`,
      );

      const { middle, nearEnd } = await documentCursors(database.db, count);
      const cases = documentCases({ admin, agent, middle, nearEnd, series: 'B002', ruc: '20100070970' });
      console.log(`\n${'GET /api/billing/documents'.padEnd(34)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}  resultado`);
      for (const [name, url, token] of cases) {
        const times: number[] = [];
        let summary = '';
        for (let i = 0; i < iterations + 3; i++) {
          const t0 = performance.now();
          const r = await fetch(base + url, { headers: { authorization: `Bearer ${token}` } });
          const body = (await r.json()) as { total?: number; totalCapped?: boolean; items?: unknown[] };
          const elapsed = performance.now() - t0;
          if (i >= 3) times.push(elapsed);
          summary = r.status === 200 ? `total ${body.totalCapped ? 'más de ' : ''}${body.total}, ${body.items?.length} filas` : `HTTP ${r.status}`;
        }
        times.sort((a, b) => a - b);
        console.log(`${name.padEnd(34)} ${ms(pct(times, 50))} ${ms(pct(times, 95))}  ${summary}`);
        listResults.push({ engine, rows: count, name, p50: pct(times, 50), p95: pct(times, 95), summary });
      }
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    await cleanup();
    fs.rmSync(certificateDir, { recursive: true, force: true });
  }
}

for (const engine of engines) await benchEngine(engine);
if (values.json) fs.writeFileSync(values.json, JSON.stringify({ results: listResults }, null, 2));
