import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from './harness.ts';

/**
 * How Tramo grows past one machine: several API processes in front of one PostgreSQL. Two real
 * server processes (`apps/api/src/main.ts`, as `npm start` runs it) start together on one fresh
 * database, and every limit that must hold across processes is checked with the requests split
 * between them. Runs when TEST_DATABASE_URL is set (vitest.config.ts leaves it out otherwise).
 */

const root = path.resolve(import.meta.dirname, '../../..');

interface Server {
  process: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts `main.ts` on a free port and resolves with its address once it says it is ready. */
function startServer(databaseUrl: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/api/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO: '1',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(root, 'no-web'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /Tramo listo en (http:\/\/\S+)/.exec(output);
      if (ready) resolve({ process: child, url: ready[1]!, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

const statusCounts = (codes: number[]) => codes.reduce<Record<number, number>>((acc, c) => ({ ...acc, [c]: (acc[c] ?? 0) + 1 }), {});

describe('two API processes on one PostgreSQL', () => {
  let drop: () => Promise<void>;
  let servers: Server[] = [];
  const tokens: Record<string, string> = {};
  let lima: number;
  let arequipa: number;

  /** The i-th request of a burst goes to server i mod 2. */
  const call = async (i: number, method: string, url: string, body?: unknown, token?: string) => {
    const res = await fetch(servers[i % servers.length]!.url + url, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: () => JSON.parse(text) };
  };

  beforeAll(async () => {
    const database = await createPostgresDatabase();
    drop = database.drop;
    // Both start at once on the empty database: migrations and the demo seed must not collide.
    servers = await Promise.all([startServer(database.url), startServer(database.url)]);
    for (const [username, password] of [
      ['ADMIN', 'admin123'],
      ['AGENTE1', 'agente123'],
      ['REPARTIDOR1', 'reparto123'],
    ] as const) {
      const res = await call(username.length, 'POST', '/api/auth/login', { username, password });
      expect(res.status).toBe(200);
      tokens[username] = res.json().token;
    }
    const branches = (await call(0, 'GET', '/api/branches?pageSize=100', undefined, tokens.ADMIN)).json() as { id: number; name: string }[];
    lima = branches.find((b) => b.name === 'Lima')!.id;
    arequipa = branches.find((b) => b.name === 'Arequipa')!.id;
  });
  afterAll(async () => {
    await Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.process.once('exit', () => resolve());
            s.process.kill('SIGTERM');
          }),
      ),
    );
    await drop?.();
  });

  const shipment = () => ({
    senderName: 'Comercial Andina SAC',
    recipientDoc: '45879612',
    recipientFirstName: 'María',
    recipientLastName: 'Flores Ccori',
    originBranchId: lima,
    destinationBranchId: arequipa,
    lines: [{ productType: 'liviano', weightKg: 2.5 }],
    secretCode: 'clave-7',
  });
  const create = async (i: number) => {
    const res = await call(i, 'POST', '/api/shipments', shipment(), tokens.AGENTE1);
    expect(res.status).toBe(201);
    return res.json() as { id: number; code: string };
  };
  const deliver = (i: number, id: number, secretCode: string) =>
    call(
      i,
      'POST',
      `/api/shipments/${id}/deliver`,
      { secretCode, receiverName: 'María Flores Ccori', receiverDoc: '45879612', deliveredByName: 'Jorge Mamani' },
      tokens.REPARTIDOR1,
    );

  it('both started together on the empty database; a session signed by one is valid on the other', async () => {
    expect(servers).toHaveLength(2);
    expect(servers[0]!.url).not.toBe(servers[1]!.url);
    for (let i = 0; i < 2; i++) expect((await call(i, 'GET', '/api/auth/me', undefined, tokens.ADMIN)).status).toBe(200);
  });

  it('200 parallel shipment creations split across both get unique, gapless codes', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => call(i, 'POST', '/api/shipments', shipment(), tokens.AGENTE1)));
    expect(statusCounts(answers.map((r) => r.status))).toEqual({ 201: 200 });
    const numbers = answers.map((r) => Number(r.json().code.slice(4))).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(200);
    expect(numbers.at(-1)! - numbers[0]!).toBe(199);
  });

  it('the delivery lock is shared: 40 wrong codes across both count 5, and the right code is then refused', async () => {
    const { id } = await create(0);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => deliver(i, id, `mala-${i}`)));
    expect(statusCounts(answers.map((r) => r.status))).toEqual({ 422: 4, 429: 36 });
    expect((await deliver(0, id, 'clave-7')).status).toBe(429);
    expect((await deliver(1, id, 'clave-7')).status).toBe(429);
  });

  it('one delivery wins: 20 parallel right deliveries across both deliver once', async () => {
    const { id } = await create(1);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => deliver(i, id, 'clave-7')));
    expect(statusCounts(answers.map((r) => r.status))).toEqual({ 200: 1, 422: 19 });
    const detail = await call(0, 'GET', `/api/shipments/${id}`, undefined, tokens.ADMIN);
    expect(detail.json().status).toBe('Entregado');
    expect(detail.json().checkpoints.filter((c: { name: string }) => c.name.startsWith('Entregado a')).length).toBe(1);
  });

  // Last: the burst also uses up this address's login allowance for 15 minutes.
  it('login throttling is shared: 100 wrong logins across both check at most 10 passwords', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call(i, 'POST', '/api/auth/login', { username: 'AGENTE2', password: `mala-${i}` })),
    );
    const counts = statusCounts(answers.map((r) => r.status));
    expect(counts[401]).toBeLessThanOrEqual(10);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(100);
    for (let i = 0; i < 2; i++) expect((await call(i, 'POST', '/api/auth/login', { username: 'AGENTE2', password: 'agente123' })).status).toBe(429);
  });
});
