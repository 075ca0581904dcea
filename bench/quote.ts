// Quote endpoint latency over real HTTP on the embedded engine (in memory, demo branches + pricing).
//   npx tsx bench/quote.ts [--requests 1000] [--concurrency 8]
// Prints figures; asserts nothing.
import { parseArgs } from 'node:util';
import { PRODUCT_TYPES } from '@tramo/domain';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openEmbedded } from '../apps/api/src/db/client.ts';
import { DEMO_USERS, seedBase } from '../apps/api/src/seed/base.ts';
import { seedPricing } from '../apps/api/src/seed/pricing.ts';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '1000' }, concurrency: { type: 'string', default: '8' } },
});
const total = Number(values.requests);
const concurrency = Math.max(1, Number(values.concurrency));

const database = await openEmbedded(null);
const branchIds = await seedBase(database.db);
await seedPricing(database.db, branchIds);
const app = await buildApp({ database, config: { ...loadConfig({}), jwtSecret: 'bench-only-secret' } });
const base = await app.listen({ port: 0, host: '127.0.0.1' });

const agent = DEMO_USERS.find((u) => u.username === 'AGENTE1')!;
const login = await fetch(`${base}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: agent.username, password: agent.password }),
});
const { token } = (await login.json()) as { token: string };

// A deterministic mix of routes (both directions, so reverse fallbacks are included), classes and weights.
const ids = [...branchIds.values()];
const urls = Array.from({ length: total }, (_, i) => {
  const origin = ids[i % ids.length]!;
  const destination = ids[(i + 1 + Math.floor(i / ids.length)) % ids.length]!;
  const d = destination === origin ? ids[(ids.indexOf(origin) + 1) % ids.length]! : destination;
  const productType = PRODUCT_TYPES[i % PRODUCT_TYPES.length]!;
  const weightKg = ((i * 7919) % 99_900) / 100 + 0.1;
  return `${base}/api/weight-factors/quote?originId=${origin}&destinationId=${d}&productType=${productType}&weightKg=${weightKg.toFixed(2)}`;
});

const headers = { authorization: `Bearer ${token}` };
// Warm-up: JIT, statement caches and connection reuse, not measured.
for (const url of urls.slice(0, 20)) await (await fetch(url, { headers })).text();

const latencies: number[] = [];
const statuses = new Map<number, number>();
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < urls.length) {
      const url = urls[next++]!;
      const t0 = performance.now();
      const res = await fetch(url, { headers });
      await res.text();
      latencies.push(performance.now() - t0);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;

latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!.toFixed(2);
console.log(`GET /api/weight-factors/quote — embedded engine (in memory), ${total} requests, concurrency ${concurrency}`);
console.log(`status codes: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}`);
console.log(`latency ms: p50 ${pct(50)}  p95 ${pct(95)}  p99 ${pct(99)}  max ${latencies.at(-1)!.toFixed(2)}`);
console.log(`throughput: ${(total / elapsed).toFixed(0)} req/s (${elapsed.toFixed(2)} s)`);

await app.close();
await database.close();
