import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openEmbedded, openPostgres, type Database } from '../src/db/client.ts';
import { seedBase, DEMO_USERS } from '../src/seed/base.ts';
import type { App } from '../src/types.ts';
import { installResponseContract } from './response-contract.ts';
import { installSerializerCrossCheck } from './serializer-check.ts';
import { giveNewFleetValidDocuments } from './fixtures.ts';

export type Engine = 'embedded' | 'postgres';

/**
 * API tests run against the embedded engine always, and against PostgreSQL when
 * TEST_DATABASE_URL is set (each test file gets a database of its own, dropped at the end).
 */
export const engines: Engine[] = process.env.TEST_DATABASE_URL ? ['embedded', 'postgres'] : ['embedded'];

export interface TestClock {
  now: () => Date;
  set(date: Date | string): void;
  advance(ms: number): void;
}

export function testClock(start = new Date()): TestClock {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (d) => (current = new Date(d)),
    advance: (ms) => (current = new Date(current.getTime() + ms)),
  };
}

export interface TestContext {
  app: App;
  database: Database;
  engine: Engine;
  clock: TestClock;
  branchIds: Map<string, number>;
  /** Logs in and returns the bearer token. */
  login(username: string, password?: string): Promise<string>;
  /** An HTTP call into the real server; `token` adds the bearer header. */
  call(method: string, url: string, options?: CallOptions): Promise<TestResponse>;
  baseUrl: string;
  /** The response-contract violations recorded so far (answers fetched around `call`), cleared. */
  takeViolations(): string[];
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestResponse {
  statusCode: number;
  headers: Headers;
  body: string;
  // Test bodies are asserted field by field; typing every answer would add nothing.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json(): any;
}

/** How many answers had each HTTP status: `{ 201: 1, 409: 49 }`. */
export const statusCounts = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

const demoPassword = (username: string) => DEMO_USERS.find((u) => u.username === username)?.password ?? '';

/** A fresh database on the TEST_DATABASE_URL server, and how to drop it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `tramo_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      // pool.end() resolves before its backends are gone; a forced drop would end them mid-goodbye,
      // so wait (briefly) for them to leave first.
      for (let i = 0; i < 40; i++) {
        const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * The same database on the streaming replica of TEST_DATABASE_URL's server (TEST_DATABASE_READ_URL,
 * which .ci/run starts): a replica copies the whole server, so a database made on the primary
 * appears there under its name.
 */
export function replicaUrlOf(primaryUrl: string): string {
  const url = new URL(process.env.TEST_DATABASE_READ_URL!);
  url.pathname = new URL(primaryUrl).pathname;
  return url.toString();
}

export async function startTestApp(
  engine: Engine,
  options: {
    seed?: (db: Database['db'], branchIds: Map<string, number>) => Promise<void>;
    config?: Partial<Config>;
    /** 'valid' (default): new transports and drivers come with current documents (fixtures.ts). */
    fleetDocuments?: 'valid' | 'none';
    /** PostgreSQL only: reports read from the replica (TEST_DATABASE_READ_URL), as with DATABASE_READ_URL. */
    readReplica?: boolean;
  } & Partial<Pick<BuildOptions, 'providers' | 'log' | 'serveWeb' | 'beforeRoutes'>> = {},
): Promise<TestContext> {
  let database: Database;
  let drop = async () => {};
  if (engine === 'postgres') {
    const created = await createPostgresDatabase();
    drop = created.drop;
    database = await openPostgres(created.url, options.readReplica ? replicaUrlOf(created.url) : null);
  } else {
    database = await openEmbedded(null);
  }
  const branchIds = await seedBase(database.db);
  if (options.fleetDocuments !== 'none') await giveNewFleetValidDocuments(database.db);
  await options.seed?.(database.db, branchIds);
  const clock = testClock();
  const config = {
    ...loadConfig({}),
    jwtSecret: 'test-secret-not-for-production',
    secretCodeKey: 'test-secret-code-key-not-for-production',
    ...options.config,
  };
  // Every answer of every test is checked against its route's declared response schema, and
  // written by the compiled serializer and by zod's alike.
  const violations: string[] = [];
  const app = await buildApp({
    database,
    config,
    now: clock.now,
    providers: options.providers,
    log: options.log,
    serveWeb: options.serveWeb,
    beforeRoutes: async (built) => {
      installResponseContract(built, violations);
      installSerializerCrossCheck(built, violations);
      await options.beforeRoutes?.(built);
    },
  });
  // A real socket: tests go through HTTP exactly as the browser does.
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  // The server never drops an idle kept-alive socket (the client's own 4 s idle timeout closes it
  // first): after a long load, a busy machine could otherwise reuse a socket the server was closing
  // and the next call would fail with ECONNRESET.
  app.server.keepAliveTimeout = 0;

  const call: TestContext['call'] = async (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(address + url, { method, headers, body });
    const text = await res.text();
    if (violations.length > 0) throw new Error(`Response contract broken:\n${violations.splice(0).join('\n')}`);
    return { statusCode: res.status, headers: res.headers, body: text, json: () => JSON.parse(text) };
  };

  return {
    app,
    database,
    engine,
    clock,
    branchIds,
    call,
    baseUrl: address,
    takeViolations: () => violations.splice(0),
    async login(username, password = demoPassword(username)) {
      const res = await call('POST', '/api/auth/login', { body: { username, password } });
      if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
      return res.json().token as string;
    },
    async close() {
      await app.close();
      await database.close();
      await drop();
    },
  };
}
