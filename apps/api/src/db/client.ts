import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { apiRoot } from '../config.ts';
import * as schema from './schema.ts';

/**
 * Both engines speak the same PostgreSQL dialect through drizzle; the node-postgres type stands
 * for both so modules never care which one runs underneath.
 */
export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbKind = 'embedded' | 'postgres';

/**
 * Two independent reads: at once on the pool (each on a connection of its own), one after the
 * other in a transaction, whose one connection answers one query at a time (pg queues the second,
 * and deprecates doing so).
 */
export async function readBoth<A, B>(db: Db | Tx, a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> {
  if (db instanceof PgTransaction) return [await a(), await b()];
  return Promise.all([a(), b()]);
}

/** What a LISTEN subscription reports: each payload, and when notifications may have been missed. */
export interface Listener {
  onNotify(payload: string): void;
  /** Listening started (again): anything sent while not listening was missed. */
  onListening(): void;
  /** The listening connection was lost; notifications are missed until `onListening`. */
  onLost(): void;
}

export interface Database {
  db: Db;
  /**
   * Where reports read (DESIGN.md 5b): the streaming replica of `DATABASE_READ_URL` when set, else
   * `db` itself. A replica answers what the primary had a moment ago, so a read that must see the
   * request's own write, and every write, goes to `db`.
   */
  readDb: Db;
  kind: DbKind;
  close(): Promise<void>;
  /** LISTEN on `channel` (PostgreSQL: on a dedicated connection, reopened when lost); resolves to stop. */
  listen(channel: string, listener: Listener): Promise<() => Promise<void>>;
  /** The embedded engine only: a tarball of the data directory (npm run backup). */
  pglite?: PGlite;
}

const migrationsFolder = path.join(apiRoot, 'drizzle');

/** Opens the embedded engine: in memory when `dataDir` is null (tests), else on disk. */
export async function openEmbedded(dataDir: string | null, loadDataDir?: Blob): Promise<Database> {
  if (dataDir) fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: { pg_trgm },
  });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
  return {
    db,
    readDb: db,
    kind: 'embedded',
    pglite: client,
    close: () => client.close(),
    listen: async (channel, listener) => {
      const stop = await client.listen(channel, (payload) => listener.onNotify(payload));
      listener.onListening();
      return () => stop();
    },
  };
}

/**
 * Key of the advisory lock that serializes start-up work (migrations, first seed) between API
 * processes sharing one PostgreSQL. Any fixed number: it only has to be the same in every process.
 */
export const STARTUP_LOCK = 7_283_012;

/**
 * Several processes started together on one database would run the same migrations at once (the
 * second fails on the objects the first creates): each takes the lock on its own connection and
 * migrates alone; the others then find the migrations applied.
 */
async function migrateAlone(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => {});
    client.release();
  }
}

/**
 * The session settings of every connection the app (and a benchmark's replay of its statements)
 * opens. No parallel query: a worker's start-up costs about 5 ms, more when the cores are busy with
 * other requests, which is all of a page's read. A Gather over a search that probes a year of names
 * read the 11 rows of its page in 1 ms per worker and answered in 8 ms (22-25 ms with the server
 * busy beside it); without workers, 2-4 ms. On a million shipments no read of the benchmark got
 * slower without them, the month's Registro de Ventas included (issue 37). Options in the URL win.
 */
export const SESSION_OPTIONS = '-c max_parallel_workers_per_gather=0';

function openPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.PG_POOL_MAX ?? 10), options: SESSION_OPTIONS });
  // An idle connection the server drops (a PostgreSQL restart, a failover, an admin's terminate)
  // is reported here; unheard, it would crash the process. The pool opens a new one on next use.
  pool.on('error', (err) => console.warn(`Conexión a PostgreSQL perdida: ${err.message}`));
  return pool;
}

/** `readUrl`: a streaming replica of `url` (PostgreSQL's own, read-only; it is never migrated: it follows the primary). */
export async function openPostgres(url: string, readUrl: string | null = null): Promise<Database> {
  const pool = openPool(url);
  await migrateAlone(pool);
  const db = drizzlePg({ client: pool, schema });
  const readPool = readUrl ? openPool(readUrl) : null;
  return {
    db,
    readDb: readPool ? drizzlePg({ client: readPool, schema }) : db,
    kind: 'postgres',
    close: async () => {
      await readPool?.end();
      await pool.end();
    },
    listen: (channel, listener) => listenPostgres(url, channel, listener),
  };
}

/** How long a lost listening connection waits before it is reopened. */
const RELISTEN_MS = 1000;

/**
 * LISTEN holds its connection for good, so it gets one of its own outside the pool. A lost
 * connection is reported (`onLost`) and reopened until it listens again (`onListening`).
 */
async function listenPostgres(url: string, channel: string, listener: Listener): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      current = null;
      if (err) console.warn(`Conexión de avisos a PostgreSQL perdida: ${err.message}`);
      listener.onLost();
      client.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect().catch(() => {}), RELISTEN_MS);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (msg) => {
      if (msg.channel === channel) listener.onNotify(msg.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`listen "${channel}"`);
    } catch (err) {
      onLost(err as Error);
      throw err;
    }
    if (stopped) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
    listener.onListening();
  };
  // Not listening yet is not fatal: the caller works without what it listens for until it is.
  await connect().catch(() => {});
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const client = current;
    current = null;
    await client?.end().catch(() => {});
  };
}
