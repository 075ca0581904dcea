// Shared by the benchmarks: a fresh database (embedded in a temp dir, or a PostgreSQL database
// created here and dropped by cleanup), or an existing PostgreSQL database measured as is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openEmbedded, openPostgres, type Database } from '../apps/api/src/db/client.ts';

export interface BenchDatabase {
  database: Database;
  engine: string;
  /** The PostgreSQL URL of the database in use; null on the embedded engine. */
  url: string | null;
  fresh: boolean;
  cleanup: () => Promise<void>;
}

export async function benchDatabase(options: { pg?: string | undefined; existing?: string | undefined }): Promise<BenchDatabase> {
  if (options.existing) {
    return { database: await openPostgres(options.existing), engine: 'PostgreSQL', url: options.existing, fresh: false, cleanup: async () => {} };
  }
  if (options.pg) {
    // BENCH_DB_PREFIX names a run's databases apart when several people share one server.
    const name = `${process.env.BENCH_DB_PREFIX ?? 'tramo_bench'}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: options.pg });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(options.pg);
    url.pathname = `/${name}`;
    return {
      database: await openPostgres(url.toString()),
      engine: 'PostgreSQL',
      url: url.toString(),
      fresh: true,
      cleanup: async () => {
        const c = new pg.Client({ connectionString: options.pg });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-bench-'));
  return {
    database: await openEmbedded(path.join(dir, 'pgdata')),
    engine: 'embebido (PGlite)',
    url: null,
    fresh: true,
    cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * VACUUM (ANALYZE) after a bulk load: measure a database as it is in service (hint bits set, the
 * visibility map and statistics current), not the minutes after the load, when the first reads of
 * each page write its hint bits and autovacuum works beside the measurement: on one machine the 1M
 * Comprobantes filtered by a RUC read 24.6 ms fresh and 9.1 ms settled (page 1: 9.1 ms either way).
 */
export async function settle(database: Database): Promise<void> {
  const started = performance.now();
  await database.db.execute(sql`vacuum (analyze)`);
  console.log(`VACUUM (ANALYZE) tras la carga: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

/** A session's token from the server at `base`, signed in as the login page does. */
export async function loginToken(base: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`login ${username}: HTTP ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}
