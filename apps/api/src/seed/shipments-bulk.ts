import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../config.ts';
import { openEmbedded, openPostgres, type Database, type Db } from '../db/client.ts';
import { acquireDataDirLock } from '../db/lock.ts';
import { hashPassword } from '../lib/passwords.ts';
import { analyzeAsTablesGrow } from './bulk-statistics.ts';
import { seedIfEmpty } from './index.ts';
import { bulkInsertMoney, ensureCreditCustomers } from './money-bulk.ts';
import { DEMO_SECRET_CODE } from './shipments.ts';

const CHUNK = 50_000;

const FIRST = [
  'María',
  'José',
  'Rosa',
  'Juan',
  'Carmen',
  'Luis',
  'Ana',
  'Carlos',
  'Julia',
  'Pedro',
  'Elena',
  'Miguel',
  'Lucía',
  'Jorge',
  'Sofía',
  'Víctor',
  'Teresa',
  'Raúl',
  'Gloria',
  'Hugo',
];
const LAST = [
  'Quispe',
  'Flores',
  'Huamán',
  'Mamani',
  'Rojas',
  'Sánchez',
  'García',
  'Vargas',
  'Chávez',
  'Ramos',
  'Torres',
  'Mendoza',
  'Castillo',
  'Díaz',
  'Condori',
  'Paredes',
  'Salazar',
  'Cárdenas',
  'Ccori',
  'Apaza',
  'Gutiérrez',
  'Ríos',
  'Palomino',
  'Espinoza',
];
const SENDERS = [
  'Comercial Andina SAC',
  'Bodega Santa Rosa',
  'Ferretería El Constructor',
  'Textiles Gamarra Express',
  'Agroexportadora Norte Verde',
  'Librería San Marcos',
  'Distribuidora Sur EIRL',
  'Farmacia Salud Total',
];

const textArray = (items: readonly string[]) => sql.raw(`array[${items.map((s) => `'${s.replaceAll("'", "''")}'`).join(',')}]::text[]`);

/**
 * Appends `count` realistic shipments (random branch pairs, statuses, names, documents, one line
 * priced with the default tiers) spread over the last `days` days (365 unless told), plus their
 * history, with INSERT … SELECT over generate_series: the database does the work, 50 000 rows per
 * statement. A company grows mostly in history (issue 37): 1M shipments over 10 years is 274 a day,
 * over one year 2,740 a day, and the two load the reads differently.
 */
export async function bulkInsertShipments(
  db: Db,
  count: number,
  log: (msg: string) => void = () => {},
  options: { days?: number; company?: CompanyMix } = {},
): Promise<void> {
  const days = options.days ?? 365;
  if (!Number.isInteger(days) || days < 1) throw new Error('days: un número entero de días, 1 o más.');
  const secretCodeHash = await hashPassword(DEMO_SECRET_CODE);
  const branchRows = await db.execute(sql`select count(*)::int as k from branches`);
  if (Number((branchRows.rows[0] as { k: number }).k) < 2) throw new Error('Se necesitan al menos dos sucursales.');
  // Building the names' search indexes once is far cheaper than maintaining them row by row during the load.
  const searchIndexes =
    count >= 20_000
      ? ((
          await db.execute(
            sql`select indexname, indexdef from pg_indexes where indexname in ('shipments_search_words', 'shipment_search_recent_words')`,
          )
        ).rows as {
          indexname: string;
          indexdef: string;
        }[])
      : [];
  for (const index of searchIndexes) await db.execute(sql.raw(`drop index "${index.indexname}"`));
  // Likewise the Panel's daily counts: one grouped rebuild instead of an upsert per row.
  await db.execute(sql`alter table shipments disable trigger shipments_daily_counts`);
  try {
    await insertChunks(db, count, days, secretCodeHash, log, options.company ?? null);
  } finally {
    await db.execute(sql`alter table shipments enable trigger shipments_daily_counts`);
    await rebuildDailyCounts(db);
    for (const index of searchIndexes) await db.execute(sql.raw(index.indexdef));
  }
  await db.execute(sql`analyze shipments`);
  await db.execute(sql`analyze shipment_events`);
  // The Panel plans its reads of the counters from their statistics, which a recount leaves stale.
  await db.execute(sql`analyze shipment_daily_counts`);
  await db.execute(sql`analyze shipment_daily_status_counts`);
  await db.execute(sql`analyze shipment_daily_branch_counts`);
}

/**
 * A company's history in bulk (issue 37): `count` shipments over the last `days` days in the
 * company model (in the order of time, statuses by age, who pays: origin, destination, credit),
 * then their money (bulkInsertMoney: payments, receipts, cash sessions, period facturas and their
 * collections, and the debts still open). What `npm run seed:bulk` and the benchmarks load.
 */
export async function bulkInsertCompany(db: Db, count: number, log: (msg: string) => void = () => {}, options: { days?: number } = {}) {
  const fromId = Number(((await db.execute(sql`select coalesce(max(id), 0)::int as id from shipments`)).rows[0] as { id: number }).id);
  const creditCustomers = await ensureCreditCustomers(db);
  await bulkInsertShipments(db, count, log, { days: options.days, company: { creditCustomers } });
  await bulkInsertMoney(db, fromId, log);
}

/** Recounts shipment_daily_counts from the shipments (same day rule as the trigger). */
async function rebuildDailyCounts(db: Db) {
  await db.execute(sql`delete from shipment_daily_count_deltas`);
  await db.execute(sql`delete from shipment_daily_counts`);
  await db.execute(sql`
    insert into shipment_daily_counts (day, origin_branch_id, destination_branch_id, status, n)
    select ((created_at at time zone 'UTC') - interval '5 hours')::date, origin_branch_id, destination_branch_id, status, count(*)
      from shipments
     group by 1, 2, 3, 4`);
}

/**
 * The company model (`bulkInsertCompany`): who pays and the credit customers to ship for. Without it
 * the rows keep the older shape (random times, a sixth of each status whatever its age, all paid by
 * the sender at the origin), which the tests that use the seeder count on.
 */
export interface CompanyMix {
  creditCustomers: { id: number; name: string }[];
}

/**
 * A shipment's status as its age makes it in a working company: today's are still being registered
 * and travelling, a few days old ones wait at the agency or are delivered, older ones are delivered
 * (5 % were cancelled, at any age). `age` is in days, `r` a uniform random number.
 */
const STATUS_BY_AGE = `case
  when r < 0.05 then 'Anulado'
  when age < 1 then (array['Creado', 'Creado', 'Creado', 'En tránsito', 'En tránsito', 'En agencia', 'Entregado'])[1 + floor((r - 0.05) / 0.95 * 7)::int]
  when age < 4 then (array['En tránsito', 'En agencia', 'En agencia', 'Entregado', 'Entregado', 'Entregado'])[1 + floor((r - 0.05) / 0.95 * 6)::int]
  else 'Entregado' end`;

async function insertChunks(db: Db, count: number, days: number, secretCodeHash: string, log: (msg: string) => void, company: CompanyMix | null) {
  // The company model: rows in the order of their time (ids and codes grow with it, as in service,
  // so a day's rows sit together on disk), statuses by age, who pays: 5 % on a credit account, 10 %
  // paid by the recipient at the destination, the rest by the sender at the origin counter.
  const credit = company?.creditCustomers ?? [];
  const creditIds = sql.raw(`array[${credit.map((c) => c.id).join(',')}]::int[]`);
  const creditNames = textArray(credit.map((c) => c.name));
  for (let done = 0; done < count; done += CHUNK) {
    const size = Math.min(CHUNK, count - done);
    const last = await db.execute(sql`select coalesce(max(id), 0)::int as id from shipments`);
    const fromId = Number((last.rows[0] as { id: number }).id);
    await db.execute(sql`
      insert into shipments (code, status, created_at, updated_at, created_by_name, origin_branch_id, destination_branch_id,
        sender_name, recipient_first_name, recipient_last_name, recipient_name, recipient_doc, product_type, weight_kg,
        billable_weight_kg, quoted_price, quoted_currency, quoted_factor_per_kg, using_reverse, multi_line_detail, secret_code_hash, delivered_info,
        sender_customer_id, payer, payment_moment)
      select 'TMT-' || lpad(x.n::text, greatest(6, length(x.n::text)), '0'), x.status, x.created_at, x.created_at, 'Carga masiva',
        b.ids[x.oi + 1], b.ids[((x.oi + 1 + x.dof) % b.k) + 1],
        coalesce(x.credit_name, x.sender), x.first, x.last, x.first || ' ' || x.last, x.doc, x.pt, x.w,
        x.bill, round(x.bill * x.f, 2), 'PEN', x.f, false,
        jsonb_build_array(jsonb_build_object('productType', x.pt, 'weightKg', x.w, 'billableWeightKg', x.bill, 'factorPerKg', x.f,
          'price', round(x.bill * x.f, 2), 'currency', 'PEN', 'usingReverse', false,
          'tier', jsonb_build_object('from_kg', case when x.bill <= 10 then 1 else 11 end, 'to_kg', case when x.bill <= 10 then 10 else 1000 end, 'factor_per_kg', x.f))),
        ${secretCodeHash},
        case when x.status = 'Entregado' then jsonb_build_object('receiverName', x.first || ' ' || x.last, 'receiverDoc', x.doc,
          'deliveredByName', 'Carga masiva', 'deliveredAt', least(x.created_at + interval '2 days', now()), 'notes', '') end,
        x.credit_id, case when x.moment = 'destino' then 'destinatario' else 'remitente' end, x.moment
      from (
        select a.*, greatest(1, ceil(a.w))::int as bill, case when ceil(a.w) <= 10 then 1.4 else 1.3 end as f,
          case when a.moment = 'credito' then (${creditIds})[1 + a.ci] end as credit_id,
          case when a.moment = 'credito' then (${creditNames})[1 + a.ci] end as credit_name
        from (
          select t.*, now() - t.age * interval '1 day' as created_at,
            ${company ? sql.raw(STATUS_BY_AGE) : sql`(array['Creado', 'En tránsito', 'Entregado', 'Entregado', 'Entregado', 'Anulado'])[1 + floor(t.r * 6)::int]`} as status,
            ${company && credit.length > 0 ? sql`case when t.m < 0.05 then 'credito' when t.m < 0.15 then 'destino' else 'origen' end` : company ? sql`case when t.m < 0.10 then 'destino' else 'origen' end` : sql`'origen'`} as moment
          from (
          select nextval('shipment_code_seq') as n, g, random() as r, random() as m, floor(random() * ${Math.max(1, credit.length)})::int as ci,
            floor(random() * kk.k)::int as oi,
            floor(random() * (kk.k - 1))::int as dof,
            ${
              company
                ? sql`(${count}::float8 - ${done}::float8 - g::float8 + random()) / ${count}::float8 * ${days}::float8`
                : sql`random() * ${days}::float8`
            } as age,
            (${textArray(SENDERS)})[1 + floor(random() * ${SENDERS.length})::int] as sender,
            (${textArray(FIRST)})[1 + floor(random() * ${FIRST.length})::int] as first,
            (${textArray(LAST)})[1 + floor(random() * ${LAST.length})::int] || ' ' || (${textArray(LAST)})[1 + floor(random() * ${LAST.length})::int] as last,
            (10000000 + floor(random() * 80000000))::bigint::text as doc,
            (array['liviano', 'medio', 'alto'])[1 + floor(random() * 3)::int] as pt,
            round((0.2 + random() * random() * 80)::numeric, 2) as w
          from generate_series(1, ${size}) g, (select count(*)::int as k from branches) kk
          order by g
          ) t
        ) a
      ) x, (select array_agg(id order by id) as ids, count(*)::int as k from branches) b`);
    await db.execute(sql`
      insert into shipment_events (shipment_id, kind, name, status_to, at, user_name)
      select id, 'status', 'Creado', 'Creado', created_at, 'Carga masiva' from shipments where id > ${fromId}
      union all
      select id, case when status = 'Anulado' then 'cancel' else 'status' end, status, status, least(created_at + interval '1 day', now()), 'Carga masiva'
      from shipments where id > ${fromId} and status <> 'Creado'`);
    log(`  ${done + size} / ${count}`);
    await analyzeAsTablesGrow(db, done / CHUNK + 1, ['shipments', 'shipment_events', 'receivable_items', 'credit_open_shipments']);
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      shipments: { type: 'string' },
      days: { type: 'string' },
      pg: { type: 'string' },
      'shipments-only': { type: 'boolean', default: false },
    },
  });
  const count = Number(values.shipments);
  const days = Number(values.days ?? 365);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(days) || days < 1) {
    console.error('Uso: npm run seed:bulk -- --shipments N [--days D (historia, 365)] [--shipments-only] [--pg postgres://…]');
    process.exit(2);
  }
  const config = loadConfig();
  const url = values.pg ?? config.databaseUrl;
  let release = () => {};
  let database: Database;
  if (url) {
    database = await openPostgres(url);
  } else {
    // The API must not be running on the same data directory: the lock refuses it.
    release = acquireDataDirLock(config.dataDir);
    database = await openEmbedded(path.join(config.dataDir, 'pgdata'));
  }
  try {
    await seedIfEmpty(database.db, config, console.log);
    const started = performance.now();
    console.log(
      `Insertando ${count} envíos de los últimos ${days} días${values['shipments-only'] ? '' : ', con sus pagos, comprobantes y deudas,'} en ${url ? 'PostgreSQL' : config.dataDir}…`,
    );
    if (values['shipments-only']) await bulkInsertShipments(database.db, count, console.log, { days });
    else await bulkInsertCompany(database.db, count, console.log, { days });
    console.log(`Listo en ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    await database.close();
    release();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
