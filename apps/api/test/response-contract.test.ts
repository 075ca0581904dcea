import { answers, userAnswerSchema } from '@tramo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from './harness.ts';

// The harness validates every answer of every API test against its route's declared response
// schema, unknown keys refused. This proves the check can fail.
describe('response contract check of the test harness', () => {
  let t: TestContext;
  const declared = {
    id: 7,
    username: 'AGENTE7',
    firstName: null,
    lastName: null,
    name: 'AGENTE7',
    email: null,
    role: 'agent' as const,
    branchId: null,
    branchName: null,
    mustChangePassword: false,
  };
  beforeAll(async () => {
    t = await startTestApp('embedded', {
      beforeRoutes: (app) => {
        const response = answers({ 200: userAnswerSchema });
        app.get('/api/test/exact', { schema: { response } }, async () => declared);
        app.get('/api/test/leak', { schema: { response } }, async () => ({ ...declared, passwordHash: '$argon2id$v=19$secreto' }));
        app.get('/api/test/wrong-type', { schema: { response } }, async () => ({ ...declared, id: '7' }) as unknown as typeof declared);
        app.get('/api/test/undeclared-status', { schema: { response } }, async (_request, reply) => reply.status(202).send(declared));
        app.get('/api/test/no-schema', async () => ({ anything: true }));
      },
    });
  });
  afterAll(() => t?.close());

  it('passes an answer with exactly the declared keys', async () => {
    const res = await t.call('GET', '/api/test/exact');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(declared);
  });

  it('fails the test on a key the schema does not list (even though serialization drops it)', async () => {
    await expect(t.call('GET', '/api/test/leak')).rejects.toThrow(/Response contract broken[\s\S]*\/api\/test\/leak[\s\S]*additional/);
    // Serialization with the declared schema keeps the hash off the wire all the same.
    const { body } = await fetch(`${t.baseUrl}/api/test/leak`).then(async (r) => ({ body: await r.text() }));
    expect(body).not.toContain('passwordHash');
    expect(body).not.toContain('argon2');
    await t.call('GET', '/api/test/exact').catch(() => undefined); // clears the violation the fetch above recorded
  });

  it('fails on a wrong type and on a status the route does not declare', async () => {
    await expect(t.call('GET', '/api/test/wrong-type')).rejects.toThrow(/Response contract broken/);
    await expect(t.call('GET', '/api/test/undeclared-status')).rejects.toThrow(/status not declared/);
  });

  it('a 204 stays empty although its route declares it', async () => {
    const admin = await t.login('ADMIN');
    const branch = (await t.call('POST', '/api/branches', { token: admin, body: { name: 'Sucursal efímera' } })).json();
    const res = await t.call('DELETE', `/api/branches/${branch.id}`, { token: admin });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });

  it('exempts answers without a route schema: unknown routes, schemaless routes, router errors', async () => {
    expect((await t.call('GET', '/api/no-existe')).statusCode).toBe(404);
    expect((await t.call('GET', '/api/test/no-schema')).statusCode).toBe(200);
    expect((await t.call('GET', `/api/customers/${'9'.repeat(2100)}`)).statusCode).toBe(414);
  });

  it('the OpenAPI document describes a 2xx answer and the error shape for every operation', async () => {
    const doc = (await t.call('GET', '/api/docs/json')).json() as {
      paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: object }> }> }>>;
    };
    const missing: string[] = [];
    let operations = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (path.startsWith('/api/test/')) continue;
      for (const [method, operation] of Object.entries(methods)) {
        operations++;
        const codes = Object.keys(operation.responses ?? {});
        if (!codes.some((c) => c.startsWith('2'))) missing.push(`${method} ${path}: no 2xx`);
        const error = operation.responses?.['4XX'] ?? operation.responses?.['4xx'];
        if (!error?.content?.['application/json']?.schema) missing.push(`${method} ${path}: no error shape`);
      }
    }
    expect(operations).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });
});
