import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPostgresDatabase, type Engine } from '../harness.ts';
import { startServerProcess, type ServerProcess } from '../server-process.ts';

export interface DemoServer {
  readonly url: string;
  output(): string;
  /** The demo user's token. */
  login(username: string, password: string): Promise<string>;
  /** GET with a token: the status and the JSON (or the bytes of anything else). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read these JSON answers freely, as res.json() gives them.
  get(url: string, token: string): Promise<{ status: number; body: any }>;
  /** Stops and starts the server again on the same data (a second `npm start`). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `npm start` on an empty database in demo mode: the real server process on `engine`, with a data
 * dir of its own (and a database of its own on PostgreSQL), never the real billing provider.
 */
export async function startDemoServer(engine: Engine, name: string): Promise<DemoServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `tramo-demo-${name}-`));
  const env: Record<string, string> = { DATA_DIR: dataDir, NUBEFACT_URL: '', NUBEFACT_TOKEN: '' };
  let drop = async () => {};
  if (engine === 'postgres') {
    const created = await createPostgresDatabase();
    env.DATABASE_URL = created.url;
    drop = created.drop;
  }
  let server: ServerProcess = await startServerProcess(env);
  return {
    get url() {
      return server.url;
    },
    output: () => server.output(),
    async login(username, password) {
      const res = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      return ((await res.json()) as { token: string }).token;
    },
    async get(url, token) {
      const res = await fetch(server.url + url, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.arrayBuffer() };
    },
    async restart() {
      await server.stop('SIGTERM');
      server = await startServerProcess(env);
    },
    async close() {
      await server.stop('SIGTERM');
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
