import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { BILLING_MESSAGES, limaDay } from '@tramo/domain';
import { seedLimaPrices } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/** The billing findings of the outside attack (issues 30 and 31), each replayed over HTTP. */

const today = limaDay(new Date());

const boleta = (over: Record<string, unknown> = {}) => ({
  type: '03',
  serie: 'BBB1',
  issueDate: today,
  items: [{ description: 'Servicio de transporte', unit: 'ZZ', quantity: 1, unitValue: '100', igvType: '10' }],
  customer: { doc_type: 1, doc_number: '45879612', name: 'María Flores Ccori' },
  ...over,
});

describe.each(engines)('billing attacks (%s)', (engine) => {
  let t: TestContext;
  let agent: string;
  let agentArequipa: string;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;

  beforeAll(async () => {
    billing = await sandboxBilling('billing-attacks');
    t = await startTestApp(engine, {
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '150']] }),
      providers: { billing: billing.provider },
    });
    billing.followClock(t.clock.now);
    [agent, agentArequipa] = await Promise.all([t.login('AGENTE1'), t.login('AGENTE2')]);
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  const emit = (body: unknown, token = agent) => t.call('POST', '/api/billing/create-emit', { token, body });
  const count = async (query: ReturnType<typeof sql>) => Number(((await t.database.db.execute(query)).rows[0] as { n: unknown }).n);

  it('F5: a blank codigo_unico is no key: two emissions with " " are both issued, no 500', async () => {
    const first = await emit(boleta({ serie: 'B501', extras: { codigo_unico: ' ' } }));
    const second = await emit(boleta({ serie: 'B501', extras: { codigo_unico: ' ' } }));
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.json().id).not.toBe(first.json().id);
    const receipt = { amount: '11.80', customer: { doc_type: 1, doc_number: '45879612', name: 'María Flores' }, codigo_unico: ' ' };
    const receipts = [
      await t.call('POST', '/api/billing/emit', { token: agent, body: receipt }),
      await t.call('POST', '/api/billing/emit', { token: agent, body: receipt }),
    ];
    expect(receipts.map((r) => r.statusCode)).toEqual([201, 201]);
    // And the next emission still works: nothing blank was stored to collide with.
    expect((await emit(boleta({ serie: 'B501' }))).statusCode).toBe(201);
    expect(await count(sql`select count(*) as n from documents where idempotency_key is not null and btrim(idempotency_key) = ''`)).toBe(0);
  });

  it("F6: an Arequipa agent reusing a Lima agent's key gets a document of their own", async () => {
    const body = boleta({ serie: 'B601', extras: { codigo_unico: 'caja-0001' } });
    const lima = await emit(body, agent);
    const arequipa = await emit(body, agentArequipa);
    expect([lima.statusCode, arequipa.statusCode]).toEqual([201, 201]);
    expect(arequipa.json().id).not.toBe(lima.json().id);
    expect(arequipa.json().numero).toBe(lima.json().numero + 1);
    const detail = (await t.call('GET', `/api/billing/lookup/${arequipa.json().id}`, { token: agentArequipa })).json();
    expect(detail.branchName).toBe('Arequipa');
    // Each branch's retry still answers its own document.
    expect((await emit(body, agentArequipa)).json().id).toBe(arequipa.json().id);
    expect((await emit(body, agent)).json().id).toBe(lima.json().id);
  });

  it('F6: the same key with another payload is refused (409) and tells nothing of the first document', async () => {
    const first = await emit(boleta({ serie: 'B602', extras: { codigo_unico: 'caja-0002' } }));
    expect(first.statusCode).toBe(201);
    const other = boleta({
      serie: 'B602',
      extras: { codigo_unico: 'caja-0002' },
      customer: { doc_type: 1, doc_number: '70606878', name: 'Juan Pérez' },
    });
    const res = await emit(other);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: BILLING_MESSAGES.idempotencyKeyReused, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(res.body).not.toContain('B602');
    expect(res.body).not.toContain(String(first.json().id));
    expect(await count(sql`select count(*) as n from documents where series = 'B602'`)).toBe(1);
  });
});
