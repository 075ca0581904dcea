// One page of 50 shipments (GET /api/shipments?pageSize=50 over bulk rows on the embedded engine)
// written by zod's serializer (safeEncode + JSON.stringify, the former) and by the compiled one.
//   npx tsx bench/serializer.ts [--iterations 5000]
// Prints figures; asserts nothing.
import { parseArgs } from 'node:util';
import { answers, shipmentPageSchema } from '@tramo/domain';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openEmbedded } from '../apps/api/src/db/client.ts';
import { serializerCompiler } from '../apps/api/src/plugins/serializer.ts';
import { DEMO_USERS, seedBase } from '../apps/api/src/seed/base.ts';
import { bulkInsertShipments } from '../apps/api/src/seed/shipments-bulk.ts';
import { percentile } from './_db.ts';

const { values } = parseArgs({ options: { iterations: { type: 'string', default: '5000' } } });
const iterations = Number(values.iterations);

const database = await openEmbedded(null);
await seedBase(database.db);
await bulkInsertShipments(database.db, 200);
const app = await buildApp({ database, config: { ...loadConfig({}), jwtSecret: 'bench-only-secret' } });
const admin = DEMO_USERS.find((u) => u.username === 'ADMIN')!;
const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: admin.username, password: admin.password } });
const res = await app.inject({ url: '/api/shipments?pageSize=50', headers: { authorization: `Bearer ${login.json<{ token: string }>().token}` } });
const page: unknown = res.json();
await app.close();
await database.close();

const route = { schema: answers({ 200: shipmentPageSchema })[200], method: 'GET', url: '/api/shipments', httpStatus: '200' };
const writers: [string, (data: unknown) => string][] = [
  ['zod (safeEncode + JSON.stringify)', zodSerializerCompiler(route)],
  ['compilado (fast-json-stringify)', serializerCompiler(route)],
];
console.log(`Una página de ${(page as { items: unknown[] }).items.length} envíos, ${res.body.length} bytes; ${iterations} veces cada uno\n`);
for (const [name, write] of writers) {
  for (let i = 0; i < 500; i++) write(page); // warm-up: let V8 optimise both
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    write(page);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const us = (ms: number) => `${(ms * 1000).toFixed(0).padStart(6)} µs`;
  console.log(`${name.padEnd(36)} p50 ${us(percentile(times, 50))}  p95 ${us(percentile(times, 95))}`);
}
