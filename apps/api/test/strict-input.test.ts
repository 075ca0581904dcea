import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCustomers } from '../src/seed/customers.ts';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

// Ids are decimal digits only (issue 12 item 5) and text refuses control characters (item 3).
const BAD_PATH_IDS = ['0x14', '0b10100', '2e1', '+20', '%2020%20', '20.0', '-20', '%00'];
const BAD_BODY_IDS: unknown[] = [true, [[1]], '0x1', '2e1', '+1', ' 1 ', 1.5, 0, -1, {}, 'uno'];
const NUL = 'Ana\u0000';
const CONTROLS = ['a\u0000b', 'a\u0007b', 'a\u001bb', 'a\u007fb', 'a\u0085b'];

describe.each(engines)('strict ids and clean text (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let route: { originBranchId: number; destinationBranchId: number };
  beforeAll(async () => {
    t = await startTestApp(engine, {
      seed: async (db, ids) => {
        await seedCustomers(db);
        await seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '1.4']] });
      },
    });
    admin = await t.login('ADMIN');
    agent = await t.login('AGENTE1');
    route = { originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! };
  });
  afterAll(() => t?.close());

  /** Everything a refused request could have touched, including the shipment code sequence. */
  const snapshot = async () => {
    const r = await t.database.db.execute(sql`select
      (select count(*) from customers)::int as customers,
      (select count(*) from branches)::int as branches,
      (select string_agg(name, ',' order by id) from branches) as branch_names,
      (select count(*) from users)::int as users,
      (select count(*) from shipments)::int as shipments,
      (select count(*) from shipment_events)::int as events,
      (select count(*) from audit_log)::int as audits,
      (select count(*) from weight_factor_tables)::int as tables,
      (select last_value from shipment_code_seq)::int as codes`);
    return r.rows[0];
  };
  const expectSpanish400 = (res: { statusCode: number; json(): { error?: unknown } }, what: string) => {
    expect(res.statusCode, what).toBe(400);
    expect(res.json().error, what).toMatch(/inválid|no permitidos|Seleccione|Remitente|Sucursal|Origen|Destino/);
  };

  it('refuses ids in other notations in paths with a Spanish 400 and changes nothing', async () => {
    const customer = (await t.call('GET', '/api/customers?pageSize=1', { token: admin })).json().items[0];
    const lima = String(t.branchIds.get('Lima'));
    expect((await t.call('GET', `/api/customers/${customer.id}`, { token: admin })).statusCode).toBe(200);
    const before = await snapshot();
    for (const id of BAD_PATH_IDS) {
      expectSpanish400(await t.call('GET', `/api/customers/${id}`, { token: admin }), `GET customer ${id}`);
      expectSpanish400(await t.call('PUT', `/api/branches/${id}`, { token: admin, body: { name: 'Renombrada' } }), `PUT branch ${id}`);
      expectSpanish400(await t.call('DELETE', `/api/customers/${id}`, { token: admin }), `DELETE customer ${id}`);
      expectSpanish400(await t.call('GET', `/api/shipments/${id}`, { token: admin }), `GET shipment ${id}`);
    }
    // `0x1`-like spellings of Lima's own id are refused too, not read as Lima.
    expectSpanish400(await t.call('PUT', `/api/branches/0x${Number(lima).toString(16)}`, { token: admin, body: { name: 'X' } }), 'PUT hex');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses non-decimal ids in bodies and queries with a Spanish 400, wasting no code', async () => {
    const before = await snapshot();
    for (const bad of BAD_BODY_IDS) {
      const what = JSON.stringify(bad);
      expectSpanish400(
        await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route, { originBranchId: bad }) }),
        `origin ${what}`,
      );
      expectSpanish400(
        await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route, { senderCustomerId: bad === 0 ? -5 : bad }) }),
        `sender ${what}`,
      );
      expectSpanish400(
        await t.call('POST', '/api/users', { token: admin, body: { username: 'NUEVO9', role: 'agent', branchId: bad === 0 ? -5 : bad } }),
        `user branch ${what}`,
      );
      expectSpanish400(
        await t.call('POST', '/api/weight-factors', {
          token: admin,
          body: { origin_branch_id: bad, destination_branch_id: route.destinationBranchId, product_type: 'pesado' },
        }),
        `factor origin ${what}`,
      );
    }
    for (const q of ['originBranchId=0x1', 'originBranchId=%201%20', 'originBranchId=1e0', 'destinationBranchId=%2B2']) {
      expectSpanish400(await t.call('GET', `/api/shipments?${q}`, { token: admin }), `list ${q}`);
      expectSpanish400(await t.call('GET', `/api/dashboard?${q}`, { token: admin }), `dashboard ${q}`);
    }
    for (const q of ['originId=0x1', 'originId=%201%20', 'originId=1e0', 'destinationId=%2B2']) {
      expectSpanish400(await t.call('GET', `/api/shipments/search?q=abc&${q}`, { token: admin }), `search ${q}`);
      expectSpanish400(await t.call('GET', `/api/weight-factors/quote?${q}&productType=liviano&weightKg=2`, { token: admin }), `quote ${q}`);
    }
    expectSpanish400(
      await t.call(
        'GET',
        `/api/weight-factors/quote?originId=${route.originBranchId}&destinationId=${route.destinationBranchId}&productType=liviano&weightKg=0x2`,
        {
          token: admin,
        },
      ),
      'quote weight 0x2',
    );
    for (const weightKg of [true, '0x2', '2e1', [[2]]]) {
      const res = await t.call('POST', '/api/shipments', {
        token: agent,
        body: shipmentBody(route, { lines: [{ productType: 'liviano', weightKg }] }),
      });
      expect(res.statusCode, JSON.stringify(weightKg)).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
    // The plain spellings still work: a JSON number and a decimal string.
    const created = await t.call('POST', '/api/shipments', {
      token: agent,
      body: shipmentBody(route, { originBranchId: String(route.originBranchId), lines: [{ productType: 'liviano', weightKg: '2.5' }] }),
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().originBranchId).toBe(route.originBranchId);
  });

  it('refuses NUL and other control characters in text with a Spanish 400 and changes nothing', async () => {
    const s = (await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route) })).json();
    const before = await snapshot();
    const lima = t.branchIds.get('Lima');
    for (const bad of CONTROLS) {
      const cases: [string, string, unknown][] = [
        ['POST', '/api/customers', { firstName: bad, doc_type: 1, doc_number: '41234567' }],
        ['POST', '/api/customers', { firstName: 'Ana', lastName: bad, doc_type: 1, doc_number: '41234567' }],
        ['POST', '/api/branches', { name: bad }],
        ['PUT', `/api/branches/${lima}`, { name: 'Lima', address: bad }],
        ['POST', '/api/users', { username: 'NUEVO9', role: 'agent', firstName: bad }],
        ['POST', '/api/shipments', shipmentBody(route, { senderName: bad })],
        ['POST', '/api/shipments', shipmentBody(route, { recipientFirstName: bad })],
        ['POST', '/api/shipments', shipmentBody(route, { description: bad })],
        ['PUT', `/api/shipments/${s.id}/description`, { description: bad }],
        ['POST', `/api/shipments/${s.id}/checkpoints`, { name: bad }],
        ['POST', '/api/drivers', { full_name: bad, dni: '12345678', license_number: 'Q1' }],
      ];
      for (const [method, url, body] of cases) {
        const res = await t.call(method, url, { token: method === 'POST' && url.includes('shipments') ? agent : admin, body });
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
        expect(res.json().error).toMatch(/no permitidos|inválid|requerid|obligatori/);
      }
      expectSpanish400(await t.call('GET', `/api/customers?q=${encodeURIComponent(bad)}`, { token: admin }), `search ${JSON.stringify(bad)}`);
    }
    const res = await t.call('POST', '/api/customers', { token: admin, body: { firstName: NUL, doc_type: 1, doc_number: '41234567' } });
    expect(res.json()).toMatchObject({ error: 'Contiene caracteres no permitidos', fields: { firstName: 'Contiene caracteres no permitidos' } });
    expect(await snapshot()).toEqual(before);
  });

  it('keeps line breaks and tabs where the text is multi-line', async () => {
    const s = (
      await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route, { description: 'Caja 1\nCaja 2\r\n\tfrágil' }) })
    ).json();
    expect(s.description).toBe('Caja 1\nCaja 2\r\n\tfrágil');
    // A name is one line: a line break inside it is refused.
    const res = await t.call('POST', '/api/branches', { token: admin, body: { name: 'Sucursal\nNueva' } });
    expect(res.statusCode).toBe(400);
  });
});
