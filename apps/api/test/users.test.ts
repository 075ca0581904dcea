import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { engines, startTestApp, type TestContext } from './harness.ts';

describe.each(engines)('users (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('ADMIN');
  });
  afterAll(() => t?.close());

  const userCount = async () => {
    const r = await t.database.db.execute(sql`select count(*)::int as n from users`);
    return (r.rows[0] as { n: number }).n;
  };
  const auditCount = async (entity: string) => {
    const r = await t.database.db.execute(sql`select count(*)::int as n from audit_log where entity = ${entity}`);
    return (r.rows[0] as { n: number }).n;
  };

  it('is admin only: 401 without token, 403 for agent and courier on every endpoint', async () => {
    const agent = await t.login('AGENTE1');
    const courier = await t.login('REPARTIDOR1');
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/users'],
      ['POST', '/api/users', { username: 'XXX', role: 'agent', branchId: 1 }],
      ['PUT', '/api/users/2', { username: 'XXX', role: 'agent', branchId: 1 }],
      ['DELETE', '/api/users/2'],
      ['POST', '/api/users/2/reset-password'],
      ['POST', '/api/users/2/unlock'],
    ];
    for (const [method, url, body] of calls) {
      expect((await t.call(method, url, { body })).statusCode, `${method} ${url}`).toBe(401);
      expect((await t.call(method, url, { body, token: agent })).statusCode, `${method} ${url}`).toBe(403);
      expect((await t.call(method, url, { body, token: courier })).statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it("searches with the user's text taken literally: LIKE wildcards match nothing", async () => {
    expect((await t.call('GET', '/api/users?q=AGENTE', { token: admin })).json().length).toBe(2);
    for (const wildcard of ['%', '_', 'A%1']) {
      expect((await t.call('GET', `/api/users?q=${encodeURIComponent(wildcard)}`, { token: admin })).json(), wildcard).toEqual([]);
    }
  });

  it('creates a user with an uppercase code, a temporary password and the must-change flag', async () => {
    const before = await auditCount('user');
    const res = await t.call('POST', '/api/users', {
      token: admin,
      body: { username: ' nuevo agente ', role: 'agent', branchId: t.branchIds.get('Cusco'), firstName: 'Nora', lastName: 'Paz', email: '' },
    });
    expect(res.statusCode).toBe(201);
    const { user, tempPassword } = res.json();
    expect(user).toMatchObject({ username: 'NUEVOAGENTE', role: 'agent', branchName: 'Cusco', mustChangePassword: true, email: null });
    expect(tempPassword).toHaveLength(10);
    expect(await auditCount('user')).toBe(before + 1);

    const login = await t.call('POST', '/api/auth/login', { body: { username: 'NUEVOAGENTE', password: tempPassword } });
    expect(login.statusCode).toBe(200);
    const token = login.json().token;
    expect(login.json().user.mustChangePassword).toBe(true);
    // Flagged users can reach their session and the password change, nothing else.
    expect((await t.call('GET', '/api/branches', { token })).statusCode).toBe(403);
    expect((await t.call('GET', '/api/auth/me', { token })).statusCode).toBe(200);
    const changed = await t.call('POST', '/api/auth/change-password', { token, body: { newPassword: 'cusco123' } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().user.mustChangePassword).toBe(false);
    expect((await t.call('GET', '/api/branches', { token: changed.json().token })).statusCode).toBe(200);
  });

  it('refuses a duplicate username with 409 and changes nothing', async () => {
    const n = await userCount();
    const res = await t.call('POST', '/api/users', { token: admin, body: { username: 'agente1', role: 'agent', branchId: 1 } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'Username ya registrado', fields: { username: 'Username ya registrado' } });
    expect(await userCount()).toBe(n);
  });

  it('validates with the spec messages and stores nothing', async () => {
    const n = await userCount();
    const cases: [unknown, string, string][] = [
      [{ role: 'agent', branchId: 1 }, 'username', 'Usuario es obligatorio'],
      [{ username: 'a b', role: 'agent', branchId: 1 }, 'username', 'Mínimo 3 caracteres'],
      [{ username: 'PEPE' }, 'role', 'Rol es obligatorio'],
      [{ username: 'PEPE', role: 'jefe' }, 'role', 'Rol es obligatorio'],
      [{ username: 'PE$PE', role: 'admin' }, 'username', 'Sólo letras, números, . _ -'],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.call('POST', '/api/users', { token: admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields[field]).toBe(message);
    }
    const noBranch = await t.call('POST', '/api/users', { token: admin, body: { username: 'PEPE', role: 'courier' } });
    expect(noBranch.statusCode).toBe(422);
    expect(noBranch.json().fields.branchId).toMatch(/sucursal/);
    const ghostBranch = await t.call('POST', '/api/users', { token: admin, body: { username: 'PEPE', role: 'agent', branchId: 9999 } });
    expect(ghostBranch.statusCode).toBe(422);
    expect(await userCount()).toBe(n);
  });

  it('edits, resets (revoking tokens) and deletes', async () => {
    const created = await t.call('POST', '/api/users', { token: admin, body: { username: 'TEMPORAL', role: 'courier', branchId: 1 } });
    const { user, tempPassword } = created.json();
    const edited = await t.call('PUT', `/api/users/${user.id}`, {
      token: admin,
      body: { username: 'temporal', role: 'agent', branchId: t.branchIds.get('Trujillo'), firstName: 'Tito' },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ role: 'agent', branchName: 'Trujillo', name: 'Tito' });

    const token = await t.login('TEMPORAL', tempPassword);
    const reset = await t.call('POST', `/api/users/${user.id}/reset-password`, { token: admin });
    expect(reset.statusCode).toBe(200);
    const next = reset.json().tempPassword;
    expect(next).not.toBe(tempPassword);
    expect((await t.call('GET', '/api/auth/me', { token })).statusCode).toBe(401);
    const relogin = await t.call('POST', '/api/auth/login', { body: { username: 'TEMPORAL', password: next } });
    expect(relogin.json().user.mustChangePassword).toBe(true);

    const deleted = await t.call('DELETE', `/api/users/${user.id}`, { token: admin });
    expect(deleted.statusCode).toBe(204);
    expect((await t.call('GET', '/api/auth/me', { token: relogin.json().token })).statusCode).toBe(401);
    expect((await t.call('DELETE', `/api/users/${user.id}`, { token: admin })).statusCode).toBe(404);
  });

  it('refuses resetting your own password and keeps your session', async () => {
    const own = await t.login('ADMIN');
    const me = (await t.call('GET', '/api/auth/me', { token: own })).json();
    const before = await auditCount('user');
    const res = await t.call('POST', `/api/users/${me.id}/reset-password`, { token: own });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('No puedes restablecer tu propia contraseña; usa Cambiar contraseña.');
    expect((await t.call('GET', '/api/users', { token: own })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/auth/me', { token: own })).json().mustChangePassword).toBe(false);
    expect(await auditCount('user')).toBe(before);
  });

  it('keeps the last admin and refuses self-deletion', async () => {
    const me = (await t.call('GET', '/api/auth/me', { token: admin })).json();
    const self = await t.call('DELETE', `/api/users/${me.id}`, { token: admin });
    expect(self.statusCode).toBe(422);
    expect(self.json().error).toBe('No puedes eliminar tu propio usuario.');
    const demote = await t.call('PUT', `/api/users/${me.id}`, { token: admin, body: { username: 'ADMIN', role: 'agent', branchId: 1 } });
    expect(demote.statusCode).toBe(422);
    expect(demote.json().error).toBe('Debe quedar al menos un administrador.');
    expect((await t.call('GET', '/api/auth/me', { token: admin })).json().role).toBe('admin');
  });

  it('searches by code, name or branch', async () => {
    const res = await t.call('GET', '/api/users?q=repart', { token: admin });
    expect(res.json().map((u: { username: string }) => u.username)).toEqual(['REPARTIDOR1']);
    const byBranch = await t.call('GET', '/api/users?q=arequipa', { token: admin });
    expect(byBranch.json().length).toBeGreaterThanOrEqual(2);
  });
});
