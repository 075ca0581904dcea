import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { engines, startTestApp, type TestContext } from './harness.ts';

describe.each(engines)('branches (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('ADMIN');
  });
  afterAll(() => t?.close());

  const branchCount = async () => {
    const r = await t.database.db.execute(sql`select count(*)::int as n from branches`);
    return (r.rows[0] as { n: number }).n;
  };

  it('lists for every logged-in role with X-Total-Count and paging', async () => {
    const courier = await t.login('REPARTIDOR1');
    const all = await t.call('GET', '/api/branches', { token: courier });
    expect(all.statusCode).toBe(200);
    expect(all.json().length).toBe(6);
    expect(all.headers.get('x-total-count')).toBe('6');
    const page = await t.call('GET', '/api/branches?page=2&pageSize=4', { token: courier });
    expect(page.json().length).toBe(2);
    expect(page.headers.get('x-total-count')).toBe('6');
    const q = await t.call('GET', '/api/branches?q=cus', { token: courier });
    expect(q.json().map((b: { name: string }) => b.name)).toEqual(['Cusco']);
    // LIKE wildcards typed by the user are text: '%' and '_' match no branch (they match every one unescaped).
    for (const wildcard of ['%', '_', 'c%o']) {
      expect((await t.call('GET', `/api/branches?q=${encodeURIComponent(wildcard)}`, { token: courier })).json(), wildcard).toEqual([]);
    }
    expect((await t.call('GET', '/api/branches')).statusCode).toBe(401);
  });

  it('writes are admin only', async () => {
    const agent = await t.login('AGENTE1');
    expect((await t.call('POST', '/api/branches', { token: agent, body: { name: 'Tacna' } })).statusCode).toBe(403);
    expect((await t.call('PUT', '/api/branches/1', { token: agent, body: { name: 'Tacna' } })).statusCode).toBe(403);
    expect((await t.call('DELETE', '/api/branches/1', { token: agent })).statusCode).toBe(403);
  });

  it('creates, edits and deletes with audit rows', async () => {
    const created = await t.call('POST', '/api/branches', { token: admin, body: { name: '  Tacna ', city: 'Tacna', address: '' } });
    expect(created.statusCode).toBe(201);
    const branch = created.json();
    expect(branch).toMatchObject({ name: 'Tacna', city: 'Tacna', address: null });
    const edited = await t.call('PUT', `/api/branches/${branch.id}`, {
      token: admin,
      body: { name: 'Tacna Centro', city: 'Tacna', address: 'Av. Bolognesi 500' },
    });
    expect(edited.json()).toMatchObject({ name: 'Tacna Centro', address: 'Av. Bolognesi 500' });
    expect((await t.call('DELETE', `/api/branches/${branch.id}`, { token: admin })).statusCode).toBe(204);
    const audits = await t.database.db.execute(
      sql`select action from audit_log where entity = 'branch' and entity_id = ${String(branch.id)} order by id`,
    );
    expect(audits.rows.map((r) => (r as { action: string }).action)).toEqual(['create', 'update', 'delete']);
  });

  it('refuses duplicates (name + city, any case) with 409', async () => {
    const n = await branchCount();
    const res = await t.call('POST', '/api/branches', { token: admin, body: { name: 'lima', city: 'LIMA' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Ya existe una sucursal con este nombre/ciudad.');
    expect(await branchCount()).toBe(n);
    const other = await t.call('POST', '/api/branches', { token: admin, body: { name: 'Lima', city: 'Callao' } });
    expect(other.statusCode).toBe(201);
  });

  it('refuses to delete a branch with users and keeps it', async () => {
    const res = await t.call('DELETE', `/api/branches/${t.branchIds.get('Arequipa')}`, { token: admin });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/No se puede eliminar la sucursal/);
    const list = await t.call('GET', '/api/branches?q=Arequipa', { token: admin });
    expect(list.json()).toHaveLength(1);
  });

  it('validates the name with the spec messages', async () => {
    const n = await branchCount();
    const missing = await t.call('POST', '/api/branches', { token: admin, body: { city: 'Ica' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields.name).toBe('Nombre es obligatorio');
    const empty = await t.call('POST', '/api/branches', { token: admin, body: { name: '  ' } });
    expect(empty.json().fields.name).toBe('Nombre es obligatorio');
    const short = await t.call('POST', '/api/branches', { token: admin, body: { name: 'I' } });
    expect(short.json().fields.name).toBe('Mínimo 2 caracteres');
    const badId = await t.call('PUT', '/api/branches/abc', { token: admin, body: { name: 'Ica' } });
    expect(badId.statusCode).toBe(400);
    expect((await t.call('PUT', '/api/branches/99999', { token: admin, body: { name: 'Ica' } })).statusCode).toBe(404);
    expect(await branchCount()).toBe(n);
  });
});
