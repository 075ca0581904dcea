// Quote endpoint latency over real HTTP on the embedded engine (in memory, demo branches + pricing):
// the spec's GET /weight-factors/quote beside issue 34's POST /quotes.
//   npx tsx bench/quote.ts [--requests 1000] [--concurrency 8]
// Prints figures; asserts nothing.
import { parseArgs } from 'node:util';
import { PRODUCT_TYPES } from '@tramo/domain';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openEmbedded } from '../apps/api/src/db/client.ts';
import { DEMO_USERS, seedBase } from '../apps/api/src/seed/base.ts';
import { seedPricing } from '../apps/api/src/seed/pricing.ts';
import { loginToken } from './_db.ts';

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
const token = await loginToken(base, agent.username, agent.password);

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
const jsonHeaders = { ...headers, 'content-type': 'application/json' };

/** The same route mix as POST /api/quotes bodies (issue 34): weight only, and volume + surcharge + insurance. */
const bodies = (full: boolean) =>
  urls.map((u) => {
    const q = new URL(u).searchParams;
    const line = { productType: q.get('productType'), weightKg: Number(q.get('weightKg')) };
    return JSON.stringify({
      originBranchId: Number(q.get('originId')),
      destinationBranchId: Number(q.get('destinationId')),
      lines: [full ? { ...line, packages: 2, lengthCm: 50, widthCm: 40, heightCm: 30, basis: 'volumen' } : line],
      ...(full ? { surcharges: ['entrega_domicilio'], declaredValue: 800, insured: true } : {}),
    });
  });

type Request = () => Promise<Response>;
async function measure(label: string, requests: Request[]) {
  // Warm-up: JIT, statement caches and connection reuse, not measured.
  for (const r of requests.slice(0, 20)) await (await r()).text();
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests.length) {
        const r = requests[next++]!;
        const t0 = performance.now();
        const res = await r();
        await res.text();
        latencies.push(performance.now() - t0);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!;
  console.log(`${label} — embedded engine (in memory), ${total} requests, concurrency ${concurrency}`);
  console.log(`  status codes: ${[...statuses].map(([st, n]) => `${st}×${n}`).join(', ')}`);
  console.log(`  latency ms: p50 ${pct(50).toFixed(2)}  p95 ${pct(95).toFixed(2)}  p99 ${pct(99).toFixed(2)}  max ${latencies.at(-1)!.toFixed(2)}`);
  console.log(`  throughput: ${(total / elapsed).toFixed(0)} req/s (${elapsed.toFixed(2)} s)`);
  return pct(50);
}

const spec = await measure(
  'GET /api/weight-factors/quote',
  urls.map((url) => () => fetch(url, { headers })),
);
const post = (body: string) => () => fetch(`${base}/api/quotes`, { method: 'POST', headers: jsonHeaders, body });
const weightOnly = await measure('POST /api/quotes, weight only', bodies(false).map(post));
const full = await measure('POST /api/quotes, volume + home delivery + insurance', bodies(true).map(post));
console.log(`p50 ÷ spec quote p50: weight only ${(weightOnly / spec).toFixed(2)}×, full ${(full / spec).toFixed(2)}× (issue 34: within 1.5×)`);

await app.close();
await database.close();
