import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestApp, type TestContext } from './harness.ts';

describe.each(engines)('auth (%s)', (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t?.close());

  it('health answers without a token and names the engine', async () => {
    const res = await t.call('GET', '/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', db: engine });
  });

  if (engine === 'postgres') {
    it('keeps serving when PostgreSQL ends its connections', async () => {
      // Warm the pool so it holds idle connections, then have the server end every one of them.
      await Promise.all(Array.from({ length: 4 }, () => t.call('GET', '/api/health')));
      const name = (await t.database.db.execute(sql`select current_database() as name`)).rows[0]!.name as string;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const ended = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
      await admin.end();
      expect(ended.rowCount).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 200));
      // Still alive, and the next request gets a fresh connection.
      const res = await t.call('POST', '/api/auth/login', { body: { username: 'AGENTE1', password: 'agente123' } });
      expect(res.statusCode).toBe(200);
    });
  }

  it('logs in case-insensitively and returns the user without secrets', async () => {
    const res = await t.call('POST', '/api/auth/login', { body: { username: 'agente1', password: 'agente123' } });
    expect(res.statusCode).toBe(200);
    const { user, token } = res.json();
    expect(typeof token).toBe('string');
    expect(user).toMatchObject({ username: 'AGENTE1', role: 'agent', branchName: 'Lima', mustChangePassword: false });
    expect(JSON.stringify(user)).not.toMatch(/hash|tokenVersion/i);
    const me = await t.call('GET', '/api/auth/me', { token });
    expect(me.json()).toMatchObject({ username: 'AGENTE1', branchName: 'Lima', name: 'Luis Ramírez' });
  });

  it('gives the same 401 message for a wrong password and an unknown user', async () => {
    const wrong = await t.call('POST', '/api/auth/login', { body: { username: 'AGENTE2', password: 'nope123' } });
    const unknown = await t.call('POST', '/api/auth/login', { body: { username: 'NOEXISTE', password: 'nope123' } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().error).toBe('Usuario o contraseña incorrectos.');
    expect(unknown.json().error).toBe(wrong.json().error);
  });

  it('rejects malformed credentials with the spec messages', async () => {
    const res = await t.call('POST', '/api/auth/login', { body: { username: 'ab', password: '123' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ username: 'Mínimo 3 caracteres', password: 'Mínimo 6 caracteres' });
    const chars = await t.call('POST', '/api/auth/login', { body: { username: 'ab c!', password: '123456' } });
    expect(chars.json().fields.username).toBe('Sólo letras, números, . _ -');
    const long = await t.call('POST', '/api/auth/login', { body: { username: 'A'.repeat(33), password: '123456' } });
    expect(long.json().fields.username).toBe('Máximo 32 caracteres');
    const notJson = await t.call('POST', '/api/auth/login', { body: '{oops', headers: { 'content-type': 'application/json' } });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error).toMatch(/JSON/);
  });

  it('throttles a username after 10 failures in 15 minutes, in the database', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await t.call('POST', '/api/auth/login', { body: { username: 'REPARTIDOR1', password: 'wrong-pass' } });
      expect(res.statusCode).toBe(401);
      // Past each wait the failures earn (issue 31, F9): the lock is what this test is about.
      t.clock.advance(61_000);
    }
    const blocked = await t.call('POST', '/api/auth/login', { body: { username: 'REPARTIDOR1', password: 'reparto123' } });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toMatch(/Demasiados intentos/);
    t.clock.advance(15 * 60_000 + 1000);
    const after = await t.call('POST', '/api/auth/login', { body: { username: 'REPARTIDOR1', password: 'reparto123' } });
    expect(after.statusCode).toBe(200);
  });

  it('slows a username from its 3rd failure: 429 with Retry-After, growing, uncounted while waiting (issue 31, F9)', async () => {
    t.clock.advance(16 * 60_000);
    const login = (password: string) => t.call('POST', '/api/auth/login', { body: { username: 'AGENTE2', password } });
    for (let i = 0; i < 3; i++) expect((await login('wrong-pass')).statusCode).toBe(401);
    // 3 failures: the next attempt waits 1 s after the last, then 2, 4, 8…, the right password too.
    for (const [failures, wait] of [
      [3, 1],
      [4, 2],
      [5, 4],
      [6, 8],
    ] as const) {
      const early = await login('agente123');
      expect(early.statusCode, `after ${failures} failures`).toBe(429);
      expect(early.json()).toEqual({ error: `Demasiados intentos. Espera ${wait} ${wait === 1 ? 'segundo' : 'segundos'}.`, code: 'LOGIN_SLOWED' });
      expect(early.headers.get('retry-after')).toBe(String(wait));
      // Asking again while waiting does not lengthen the wait.
      t.clock.advance(wait * 1000 - 500);
      expect((await login('wrong-pass')).headers.get('retry-after')).toBe('1');
      t.clock.advance(500);
      expect((await login('wrong-pass')).statusCode).toBe(401);
    }
    const failures = await t.database.db.execute(sql`select failures from login_throttle where key = 'user:AGENTE2'`);
    expect(failures.rows).toEqual([{ failures: 7 }]);
    t.clock.advance(16_000);
    expect((await login('agente123')).statusCode).toBe(200);
    expect((await t.database.db.execute(sql`select * from login_throttle where key = 'user:AGENTE2'`)).rows).toEqual([]);
  });

  it('an admin sees who is locked out and lifts the lock at once, audited; only an admin may (issue 31, F9)', async () => {
    t.clock.advance(16 * 60_000);
    const admin = await t.login('ADMIN');
    const agent = await t.login('AGENTE1');
    for (let i = 0; i < 10; i++) {
      expect((await t.call('POST', '/api/auth/login', { body: { username: 'ADMIN', password: 'wrong-pass' } })).statusCode).toBe(401);
      t.clock.advance(61_000);
    }
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'ADMIN', password: 'admin123' } })).json().code).toBe('LOGIN_THROTTLED');
    const list = (await t.call('GET', '/api/users', { token: admin })).json() as { id: number; username: string; lockedUntil: string | null }[];
    const locked = list.find((u) => u.username === 'ADMIN')!;
    expect(new Date(locked.lockedUntil!).getTime()).toBeGreaterThan(t.clock.now().getTime());
    expect(list.filter((u) => u.lockedUntil !== null).map((u) => u.username)).toEqual(['ADMIN']);

    expect((await t.call('POST', `/api/users/${locked.id}/unlock`, { token: agent })).statusCode).toBe(403);
    expect((await t.call('POST', '/api/users/999999/unlock', { token: admin })).statusCode).toBe(404);
    const unlocked = await t.call('POST', `/api/users/${locked.id}/unlock`, { token: admin });
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json()).toMatchObject({ username: 'ADMIN', lockedUntil: null });
    const audited = await t.database.db.execute(
      sql`select before, after from audit_log where entity = 'user' and action = 'unlock' and entity_id = ${String(locked.id)}`,
    );
    // The 10 failures and the refused attempt after them.
    expect(audited.rows).toEqual([{ before: { failures: 11 }, after: { failures: 0 } }]);
    expect(
      (await t.call('GET', '/api/users', { token: admin })).json().find((u: { username: string }) => u.username === 'ADMIN').lockedUntil,
    ).toBeNull();
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'ADMIN', password: 'admin123' } })).statusCode).toBe(200);
  });

  it('throttles a client address after 30 failures whatever the usernames', async () => {
    t.clock.advance(16 * 60_000);
    for (let i = 0; i < 30; i++) {
      await t.call('POST', '/api/auth/login', { body: { username: `FANTASMA${i}`, password: 'wrong-pass' } });
    }
    const blocked = await t.call('POST', '/api/auth/login', { body: { username: 'ADMIN', password: 'admin123' } });
    expect(blocked.statusCode).toBe(429);
    t.clock.advance(16 * 60_000);
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'ADMIN', password: 'admin123' } })).statusCode).toBe(200);
  });

  it('needs a token, refuses a forged or expired one', async () => {
    expect((await t.call('GET', '/api/auth/me')).statusCode).toBe(401);
    expect((await t.call('GET', '/api/auth/me', { token: 'abc.def.ghi' })).statusCode).toBe(401);
    const token = await t.login('ADMIN');
    // Accepted once (its verified claims are kept), then refused all the same when it expires.
    expect((await t.call('GET', '/api/auth/me', { token })).statusCode).toBe(200);
    t.clock.advance(13 * 3600_000);
    const expired = await t.call('GET', '/api/auth/me', { token });
    expect(expired.statusCode).toBe(401);
  });

  it('changes the password, revoking other tokens', async () => {
    const other = await t.login('AGENTE2');
    const token = await t.login('AGENTE2');
    const noCurrent = await t.call('POST', '/api/auth/change-password', { token, body: { newPassword: 'nuevo123' } });
    expect(noCurrent.statusCode).toBe(400);
    const badCurrent = await t.call('POST', '/api/auth/change-password', {
      token,
      body: { currentPassword: 'incorrecta', newPassword: 'nuevo123' },
    });
    expect(badCurrent.statusCode).toBe(422);
    expect(badCurrent.json().fields.currentPassword).toBe('La contraseña actual no es correcta.');
    const short = await t.call('POST', '/api/auth/change-password', { token, body: { currentPassword: 'agente123', newPassword: '123' } });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields.newPassword).toBe('Mínimo 6 caracteres');

    const ok = await t.call('POST', '/api/auth/change-password', {
      token,
      body: { currentPassword: 'agente123', newPassword: 'nuevo123' },
    });
    expect(ok.statusCode).toBe(200);
    const fresh = ok.json().token;
    expect((await t.call('GET', '/api/auth/me', { token: other })).statusCode).toBe(401);
    expect((await t.call('GET', '/api/auth/me', { token })).statusCode).toBe(401);
    expect((await t.call('GET', '/api/auth/me', { token: fresh })).statusCode).toBe(200);
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'AGENTE2', password: 'agente123' } })).statusCode).toBe(401);
    await t.login('AGENTE2', 'nuevo123');
  });

  it('authenticates before it validates: every protected route answers 401 to an anonymous bad request', async () => {
    // The routes anyone may call; a new public route must be added here on purpose.
    const PUBLIC = new Set([
      'GET /api/health',
      'POST /api/auth/login',
      'GET /api/public/tracking/{code}',
      'GET /api/public/tracking/{code}/proof.pdf',
      'GET /api/public/statements/{customerId}/estado-de-cuenta.pdf',
    ]);
    const doc = (await t.call('GET', '/api/docs/json')).json() as { paths: Record<string, Record<string, unknown>> };
    const wrong: string[] = [];
    let checked = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods).map((m) => m.toUpperCase())) {
        if (PUBLIC.has(`${method} ${path}`)) continue;
        // A bad id, a bad query and an empty body: each would be a 400 once past the guard.
        const url = `${path.replace(/\{[^}]+\}/g, 'x')}?page=-1&pageSize=abc`;
        for (const token of [undefined, 'abc.def.ghi']) {
          const res = await t.call(method, url, { token, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
          checked++;
          if (res.statusCode !== 401 || res.json().code !== 'UNAUTHORIZED')
            wrong.push(`${method} ${url} → ${res.statusCode} ${res.body.slice(0, 80)}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(wrong).toEqual([]);
  });

  it('refuses a token signed with the real secret but without an expiry', async () => {
    const me = (await t.call('GET', '/api/auth/me', { token: await t.login('ADMIN') })).json();
    const sign = (claims: object) => {
      const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
      return `${unsigned}.${createHmac('sha256', 'test-secret-not-for-production').update(unsigned).digest('base64url')}`;
    };
    const iat = Math.floor(t.clock.now().getTime() / 1000);
    // The same claims with an expiry are accepted: only the missing `exp` is refused.
    expect((await t.call('GET', '/api/auth/me', { token: sign({ sub: me.id, tv: 0, iat, exp: iat + 600 }) })).statusCode).toBe(200);
    const forever = await t.call('GET', '/api/auth/me', { token: sign({ sub: me.id, tv: 0, iat }) });
    expect(forever.statusCode).toBe(401);
  });
});
