// Customer search at scale: npx tsx bench/customers.ts [--rows 200000] [--queries 200] [--pg postgres://…]
// Bulk-loads N synthetic Peruvian customers into a fresh embedded database (in memory) and, with
// --pg, into a fresh PostgreSQL database it creates and drops; then prints p50/p95 of the same
// search the API runs (page of 50 + total) by name fragment, document prefix and phone.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openEmbedded, openPostgres, type Database } from '../apps/api/src/db/client.ts';
import { searchCondition } from '../apps/api/src/modules/customers/repository.ts';
import { listCustomers } from '../apps/api/src/modules/customers/service.ts';
import type { FastifyInstance } from 'fastify';

function arg(name: string, fallback: string | null = null): string | null {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}
const rows = Number(arg('rows', '200000'));
const queries = Number(arg('queries', '200'));
const pgUrl = arg('pg');

const FIRST = [
  'Rosa',
  'Carlos',
  'María',
  'José',
  'Luz',
  'Juan',
  'Ana',
  'Pedro',
  'Yolanda',
  'Miguel',
  'Carmen',
  'Luis',
  'Gladys',
  'Jorge',
  'Patricia',
  'Fernando',
  'Diana',
  'Walter',
  'Milagros',
  'Julio',
  'Giovanna',
  'Wilber',
  'Katherine',
  'Teodoro',
  'Elena',
  'Ricardo',
  'Sonia',
  'Víctor',
  'Roxana',
  'Hugo',
  'Marleny',
  'Edwin',
  'Flor',
  'Raúl',
  'Nancy',
  'César',
  'Liliana',
  'Alberto',
  'Pilar',
  'Óscar',
];
const LAST = [
  'Quispe',
  'Mamani',
  'Flores',
  'Huamán',
  'Gonzales',
  'Ríos',
  'Chávez',
  'Condori',
  'Torres',
  'Vargas',
  'Mendoza',
  'Paredes',
  'Rojas',
  'Castillo',
  'Huanca',
  'Ccallo',
  'Apaza',
  'Choque',
  'Sánchez',
  'Ramos',
  'Zapata',
  'Silva',
  'Díaz',
  'Campos',
  'Vásquez',
  'Tello',
  'Ramírez',
  'Salas',
  'Huamaní',
  'Ccahuana',
  'Castro',
  'Aguilar',
  'Salinas',
  'Pérez',
  'Cárdenas',
  'Ticona',
  'Yupanqui',
  'Ccori',
  'Huallpa',
  'Zevallos',
  'Pinto',
  'Cruz',
  'Gutiérrez',
  'Espinoza',
  'Medina',
  'Luna',
  'Romero',
  'Herrera',
  'Soto',
  'Cáceres',
  'Puma',
  'Layme',
  'Ortiz',
  'Reyes',
  'Núñez',
  'Vega',
  'Delgado',
  'Carrasco',
  'Palomino',
  'Villanueva',
];
const COMPANY = [
  'Comercial',
  'Inversiones',
  'Distribuidora',
  'Transportes',
  'Agroindustrias',
  'Textil',
  'Ferretería',
  'Importaciones',
  'Servicios Generales',
  'Constructora',
];
const arr = (xs: string[]) => sql.raw(`array[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]`);

/**
 * One INSERT … SELECT generate_series per 50k rows: 80 % DNI, 12 % RUC (valid SUNAT check digit,
 * computed in SQL), 5 % carné de extranjería, 3 % pasaporte.
 */
async function load(db: Database['db'], n: number) {
  const chunk = 50_000;
  for (let from = 1; from <= n; from += chunk) {
    const to = Math.min(n, from + chunk - 1);
    await db.execute(sql`
      with src as (
        select g,
          (${arr(FIRST)})[1 + (g * 7) % ${FIRST.length}] as fn,
          (${arr(LAST)})[1 + (g * 13) % ${LAST.length}] || ' ' || (${arr(LAST)})[1 + (g * 31) % ${LAST.length}] as ln,
          (${arr(COMPANY)})[1 + (g * 11) % ${COMPANY.length}] as co,
          case when g % 100 < 80 then 1 when g % 100 < 92 then 6 when g % 100 < 97 then 4 else 7 end as t,
          '20' || lpad(g::text, 8, '0') as ruc10
        from generate_series(${from}::int, ${to}::int) g
      )
      insert into customers (first_name, last_name, doc_type, doc_number, address, ubigeo, phone, email)
      select
        case when t = 6 then co || ' ' || split_part(ln, ' ', 1) || ' S.A.C.' else fn end,
        case when t = 6 then null else ln end,
        t,
        case t
          when 1 then lpad((10000000 + g)::text, 8, '0')
          when 6 then ruc10 || (select case 11 - s % 11 when 10 then 0 when 11 then 1 else 11 - s % 11 end
                                from (select sum(substr(ruc10, i, 1)::int * (array[5,4,3,2,7,6,5,4,3,2])[i]) as s
                                      from generate_series(1, 10) i) w)::text
          else lpad(g::text, 9, '0')
        end,
        'Av. ' || split_part(ln, ' ', 2) || ' ' || (g % 2000), '150101',
        '9' || lpad(((g::bigint * 7919) % 100000000)::text, 8, '0'),
        case when g % 3 = 0 then null
             else lower(translate(fn || '.' || split_part(ln, ' ', 1), 'áéíóúÁÉÍÓÚñÑ ', 'aeiouAEIOUnN')) || g || '@correo.pe' end
      from src`);
  }
  await db.execute(sql`analyze customers`);
}

function pct(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function run(label: string, database: Database) {
  const t0 = performance.now();
  await load(database.db, rows);
  const loadMs = performance.now() - t0;
  // listCustomers only needs the db handle; the bench runs the API's own query code.
  const app = { db: database.db } as unknown as FastifyInstance;
  const rnd = (k: number) => 1 + Math.floor(Math.random() * k);
  const cases: Record<string, () => string> = {
    'nombre (apellido)': () => LAST[rnd(LAST.length) - 1]!.toLowerCase(),
    // The generator's own pairs (see load), so the two words do meet in some rows.
    'nombre + apellido': () => {
      const g = rnd(rows);
      return `${FIRST[(g * 7) % FIRST.length]} ${LAST[(g * 13) % LAST.length]}`;
    },
    'documento (6 dígitos)': () => String(10000000 + rnd(rows)).slice(0, 6),
    'documento completo': () => String(10000000 + Math.floor(rnd(rows) / 100) * 100 + rnd(79)),
    teléfono: () => `9${String((rnd(rows) * 7919) % 100000000).padStart(8, '0')}`,
    'sin filtro (página 1)': () => '',
  };
  console.log(`\n${label}: ${rows.toLocaleString('es-PE')} clientes cargados en ${(loadMs / 1000).toFixed(1)} s`);
  const plan = await database.db.execute(sql`explain select id from customers where ${searchCondition('quispe')}`);
  console.log(
    `  plan (q=quispe): ${plan.rows
      .map((r) => Object.values(r as Record<string, string>)[0])
      .join(' | ')
      .replace(/\s+/g, ' ')
      .slice(0, 160)}`,
  );
  console.log('  búsqueda                 p50 ms   p95 ms   coincidencias (última)');
  for (const [name, make] of Object.entries(cases)) {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < 5; i++) await listCustomers(app, make());
    for (let i = 0; i < queries; i++) {
      const q = make();
      const s = performance.now();
      total = (await listCustomers(app, q)).total;
      times.push(performance.now() - s);
    }
    console.log(`  ${name.padEnd(24)} ${pct(times, 50).toFixed(1).padStart(6)}   ${pct(times, 95).toFixed(1).padStart(6)}   ${total}`);
  }
}

const embedded = await openEmbedded(null);
try {
  await run('Motor embebido (PGlite, en memoria)', embedded);
} finally {
  await embedded.close();
}

if (pgUrl) {
  const name = `tramo_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString());
  try {
    await run('PostgreSQL', database);
  } finally {
    await database.close();
    // pg-pool's end() resolves before its backends have gone; a forced drop would kill them mid-goodbye.
    await new Promise((r) => setTimeout(r, 1000));
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
