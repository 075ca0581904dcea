import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCustomers } from '../src/seed/customers.ts';
import { seedFleet } from '../src/seed/fleet.ts';
import { seedPricing } from '../src/seed/pricing.ts';
import { seedShipments } from '../src/seed/shipments.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

// Malformed bodies, ids and query strings for every route the OpenAPI document lists.
const BODIES = [
  '{}',
  '[]',
  '"texto"',
  'null',
  '{"id":"abc","name":123,"lines":"x","tiers":[{"from_kg":"a"}],"shipmentIds":["x"],"status":9,"doc_type":"9","weightKg":1e308}',
  '{"tiers":[{"from_kg":1e30,"to_kg":1e31,"factor_per_kg":1e30}],"capacity_kg":1e300,"secretCode":"' + 'x'.repeat(5000) + '"}',
  // Ids past the 32-bit columns.
  '{"branchId":3000000000,"originBranchId":3000000000,"destinationBranchId":3000000001,"senderCustomerId":3000000000,"shipmentIds":[3000000000],"driver_id_1":3000000000,"origin_branch_id":3000000000,"destination_branch_id":3000000001,"role":"agent","username":"NUEVO","name":"x","product_type":"liviano","currency":"PEN","plate_primary":"ZZZ-999","full_name":"Ana","dni":"12345678","license_number":"Q1","firstName":"Ana","doc_type":1,"doc_number":"12345678"}',
  '{"lines":[{"productType":"alto","weightKg":99999999}],"senderName":"x","recipientDoc":"12345678","recipientFirstName":"a","recipientLastName":"b","originBranchId":1,"destinationBranchId":2,"secretCode":"abcd"}',
];
const IDS = ['1', 'abc', '-1', '3000000000', '99999999999999999999', 'TMT-999999', 'x'.repeat(150)];
// HTTP reason phrases: what a framework answers on its own, in English, when nobody handled the error.
const ENGLISH = /^(Bad Request|Not Found|URI Too Long|Unsupported Media Type|Payload Too Large|Method Not Allowed|Internal Server Error)$/;
// Deletes also walk real rows: many of them are still referenced (a refusal must be a 409).
const DELETE_IDS = [...IDS, ...Array.from({ length: 15 }, (_, i) => String(i + 2))];
const QUERIES = ['', '?page=-1&pageSize=99999&q=%27%22%5C%25&dateFrom=2026-13-40&dateTo=x&weightKg=abc&originId=x&status=Nada'];

describe.each(engines)('bad input never gives a 5xx (%s)', (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(engine, {
      seed: async (db, branchIds) => {
        await seedCustomers(db);
        await seedPricing(db, branchIds);
        await seedShipments(db, branchIds);
        await seedFleet(db, branchIds);
      },
    });
  });
  afterAll(() => t?.close());

  it('answers every malformed request of every route with a 4xx and a Spanish error', async () => {
    const token = await t.login('ADMIN');
    const doc = (await t.call('GET', '/api/docs/json')).json() as { paths: Record<string, Record<string, unknown>> };
    const failures: string[] = [];
    let sent = 0;
    // Resetting or changing the sweeping admin's own password would end its session mid-sweep.
    const sweep = Object.entries(doc.paths).filter(([path]) => !/reset-password|change-password|auth\/login/.test(path));
    for (const [path, methods] of sweep) {
      for (const method of Object.keys(methods).map((m) => m.toUpperCase())) {
        const bodies = method === 'GET' || method === 'DELETE' ? [undefined] : BODIES;
        for (const id of path.includes('{') ? (method === 'DELETE' ? DELETE_IDS : IDS) : ['']) {
          for (const body of bodies) {
            for (const query of QUERIES) {
              const url = path.replace(/\{[^}]+\}/g, id) + query;
              const res = await t.call(method, url, { token, body });
              sent++;
              if (res.statusCode === 401) failures.push(`401 (session lost): ${method} ${url}`);
              if (res.statusCode >= 500) failures.push(`${res.statusCode} ${method} ${url} ${body ?? ''} → ${res.body.slice(0, 160)}`);
              else if (res.statusCode >= 400 && res.body && typeof res.json().error !== 'string') failures.push(`no error text: ${method} ${url}`);
              else if (res.statusCode >= 400 && res.body && ENGLISH.test(res.json().error))
                failures.push(`English error: ${res.statusCode} ${method} ${url}`);
            }
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  }, 180_000); // thousands of calls, more with every route: 25 s alone, over a minute beside other files on two cores
});
