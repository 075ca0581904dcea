import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shipmentBody } from './fixtures.ts';
import { createPostgresDatabase, statusCounts } from './harness.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

/**
 * How Tramo grows past one machine: several API processes in front of one PostgreSQL. Two real
 * server processes (`apps/api/src/main.ts`, as `npm start` runs it) start together on one fresh
 * database, and every limit that must hold across processes is checked with the requests split
 * between them. Runs when TEST_DATABASE_URL is set (vitest.config.ts leaves it out otherwise).
 */

describe('two API processes on one PostgreSQL', () => {
  let drop: () => Promise<void>;
  let servers: ServerProcess[] = [];
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
    return { status: res.status, headers: res.headers, json: () => JSON.parse(text) };
  };

  const sharedKeys = { SECRET_CODE_KEY: 'two-processes-test-secret-code-key', JWT_SECRET: 'two-processes-test-signing-secret' };

  beforeAll(async () => {
    const database = await createPostgresDatabase();
    drop = database.drop;
    // Both start at once on the empty database: migrations and the demo seed must not collide.
    const started = await Promise.allSettled([
      // As a deployment on several machines must: one secret-code key and one signing secret for all
      // (lib/secret-codes.ts, lib/signing-secret.ts).
      startServerProcess({ DATABASE_URL: database.url, ...sharedKeys }),
      startServerProcess({ DATABASE_URL: database.url, ...sharedKeys }),
    ]);
    // Kept before failing on the other, so afterAll stops whichever did start.
    servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    for (const [username, password] of [
      ['ADMIN', 'admin123'],
      ['AGENTE1', 'agente123'],
      ['AGENTE2', 'agente123'],
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
    await Promise.all(servers.map((s) => s.stop('SIGTERM')));
    await drop?.();
  });

  const shipment = () => shipmentBody({ originBranchId: lima, destinationBranchId: arequipa });
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

  // A notice leaves at commit, before the answer; on a loaded machine the other process may read
  // it a few milliseconds after our next request lands. 'At once' is within 2 s here, far below the
  // caches' 60 s expiry, so a missing notice still fails.
  const soon = async <T>(read: () => Promise<T>, expected: T) => {
    for (let waited = 0; waited < 2000 && (await read()) !== expected; waited += 25) await new Promise((r) => setTimeout(r, 25));
    expect(await read()).toBe(expected);
  };

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

  // Last: it leaves AGENTE2 waiting between attempts, and counted, for 15 minutes.
  it('login throttling is shared: 100 wrong logins across both check at most 10 passwords', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call(i, 'POST', '/api/auth/login', { username: 'AGENTE2', password: `mala-${i}` })),
    );
    const counts = statusCounts(answers.map((r) => r.status));
    expect(counts[401]).toBeLessThanOrEqual(10);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(100);
    // From the 3rd failure each next attempt waits (issue 31), and the burst's attempts that came
    // too early were not counted: wrong passwords on one process, each after its wait, until the
    // wait is 8 s; then the right password is told to wait on either process.
    const wrong = () => call(0, 'POST', '/api/auth/login', { username: 'AGENTE2', password: 'mala-clave' });
    const waitOf = (res: Awaited<ReturnType<typeof wrong>>) => (res.status === 429 ? Number(res.headers.get('retry-after')) : 0);
    let res = await wrong();
    while (waitOf(res) < 8) {
      if (res.status === 429) await new Promise((resolve) => setTimeout(resolve, waitOf(res) * 1000));
      res = await wrong();
    }
    for (let i = 0; i < 2; i++) {
      const right = await call(i, 'POST', '/api/auth/login', { username: 'AGENTE2', password: 'agente123' });
      expect(right.status).toBe(429);
      expect(right.json().code).toBe('LOGIN_SLOWED');
    }
  }, 60_000);
  it('sessions are cached per process, yet a change in one reaches the other at once (LISTEN/NOTIFY)', async () => {
    // Logged in before the throttling test above locks this client's address out.
    const token = tokens.AGENTE2!;
    const me = await call(0, 'GET', '/api/auth/me', undefined, token);
    const id = (me.json().user ?? me.json()).id as number;
    // Both processes have the session cached now.
    for (let i = 0; i < 4; i++) expect((await call(i, 'GET', '/api/auth/me', undefined, token)).status).toBe(200);

    // A role change on one: the other answers with the new role on the very next request.
    const edit = (role: string) =>
      call(0, 'PUT', `/api/users/${id}`, { username: 'AGENTE2', role, branchId: arequipa, firstName: 'Rosa', lastName: 'Huamán' }, tokens.ADMIN);
    expect((await edit('courier')).status).toBe(200);
    const roleOf = async (i: number) => {
      const body = (await call(i, 'GET', '/api/auth/me', undefined, token)).json();
      return (body.user ?? body).role;
    };
    const statusOf = (i: number, bearer: string) => async () => (await call(i, 'GET', '/api/auth/me', undefined, bearer)).status;
    await soon(() => roleOf(1), 'courier');
    expect((await call(1, 'POST', '/api/shipments', shipment(), token)).status).toBe(403);
    expect((await edit('agent')).status).toBe(200);
    await soon(() => roleOf(1), 'agent');

    // A password change on server 0 revokes the token on server 1 at once; the new token works on both.
    const changed = await call(0, 'POST', '/api/auth/change-password', { currentPassword: 'agente123', newPassword: 'nuevo123' }, token);
    expect(changed.status).toBe(200);
    await soon(statusOf(1, token), 401);
    expect((await call(0, 'GET', '/api/auth/me', undefined, token)).status).toBe(401);
    const fresh = changed.json().token as string;
    for (let i = 0; i < 2; i++) expect((await call(i, 'GET', '/api/auth/me', undefined, fresh)).status).toBe(200);

    // And an admin's reset on server 1 revokes the new token on server 0.
    expect((await call(1, 'POST', `/api/users/${id}/reset-password`, undefined, tokens.ADMIN)).status).toBe(200);
    await soon(statusOf(0, fresh), 401);
  });
  it('price tables are cached per process, yet tiers replaced on one price the next creation on the other (LISTEN/NOTIFY)', async () => {
    // Both processes have the route's tables cached now.
    const first = await Promise.all([0, 1].map((i) => call(i, 'POST', '/api/shipments', shipment(), tokens.AGENTE1)));
    for (const res of first) expect(res.status).toBe(201);
    const reverse = first[0]!.json().multiLineDetail[0].usingReverse as boolean;
    const [from, to] = reverse ? [arequipa, lima] : [lima, arequipa];
    const tables = (
      await call(0, 'GET', `/api/weight-factors?originId=${from}&destinationId=${to}&productType=liviano&active=true`, undefined, tokens.ADMIN)
    ).json();
    const replaced = await call(
      0,
      'PUT',
      `/api/weight-factors/${tables[0].id}/tiers`,
      { tiers: [{ from_kg: 1, to_kg: 1000, factor_per_kg: 7 }] },
      tokens.ADMIN,
    );
    expect(replaced.status).toBe(200);
    // 2.5 kg bill as 3 kg: 21.00 at the new factor, on the process that replaced them and on the other.
    const priceOn = (i: number) => async () => (await call(i, 'POST', '/api/shipments', shipment(), tokens.AGENTE1)).json().quotedPrice;
    expect(await priceOn(0)()).toBe(21);
    await soon(priceOn(1), 21);
  });
});
