/**
 * `npm run test:soak [-- --kills 5 --seconds 3 --workers 6]`: crash the real server under write
 * load and check that nothing it acknowledged is lost. On the embedded engine (a temporary data
 * directory) and, when TEST_DATABASE_URL is set, on a fresh PostgreSQL database: the server
 * (`apps/api/src/main.ts`) takes shipment creations and status changes from several clients, is
 * killed with SIGKILL at a random moment N times and restarted on the same data; at the end every
 * acknowledged write must be there and every code unique. Then the ledger check (`npm run
 * check:ledger`) runs on the data the kills left, as it did on the freshly seeded demo before the
 * first kill: both must print 0 violations (issue 31), and any violation counts as a loss.
 * Prints tried / acknowledged / verified / lost and exits non-zero on any loss. Not part of
 * `npm test`: it takes a minute or two per engine.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { shipmentBody } from './fixtures.ts';
import { createPostgresDatabase } from './harness.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const { values: args } = parseArgs({
  options: {
    kills: { type: 'string', default: '5' },
    // Longest stretch of load between two kills; each kill comes at a random moment within it.
    seconds: { type: 'string', default: '3' },
    workers: { type: 'string', default: '6' },
  },
});
const KILLS = Number(args.kills);
const MAX_LOAD_MS = Number(args.seconds) * 1000;
const WORKERS = Number(args.workers);

const root = path.resolve(import.meta.dirname, '../../..');

/** `npm run check:ledger` on the stopped server's data: violations per check, as its lines print them ('FALLA <name>: <n>'). */
function ledgerViolations(env: Record<string, string>): Map<string, number> {
  const run = spawnSync(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'apps/api/src/scripts/check-ledger.ts')], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (run.status !== 0 && run.status !== 1) throw new Error(`check:ledger failed (${run.status}): ${run.stderr}`);
  return new Map([...run.stdout.matchAll(/^FALLA (.+): (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
}

interface Acknowledged {
  id: number;
  code: string;
  /** Set when a status change to 'En tránsito' was acknowledged. */
  inTransit: boolean;
}

interface Figures {
  tried: number;
  acknowledged: number;
  verified: number;
  lost: string[];
}

async function soak(engine: 'embedded' | 'postgres', env: Record<string, string>): Promise<Figures> {
  // Signed with a fixed secret: tokens stay valid across restarts, as with JWT_SECRET in production.
  const serverEnv = { ...env, JWT_SECRET: 'soak-test-secret-not-for-production' };
  // Seeded once, then stopped for the ledger check (the embedded data directory is single-process): the demo itself is clean.
  await (await startServerProcess(serverEnv)).stop('SIGTERM');
  const seeded = ledgerViolations(env);
  let server: ServerProcess = await startServerProcess(serverEnv);
  let up: Promise<ServerProcess> = Promise.resolve(server);
  const request = async (method: string, url: string, token?: string, body?: unknown) => {
    const { url: base } = await up;
    const res = await fetch(base + url, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  const login = await request('POST', '/api/auth/login', undefined, { username: 'AGENTE1', password: 'agente123' });
  const token = login.body.token as string;
  const branches = (await request('GET', '/api/branches?pageSize=100', token)).body as unknown as { id: number; name: string }[];
  const branchId = (name: string) => branches.find((b) => b.name === name)!.id;
  const newShipment = (n: number) =>
    shipmentBody(
      { originBranchId: branchId('Lima'), destinationBranchId: branchId('Arequipa') },
      { recipientFirstName: 'Carga', recipientLastName: `Prueba ${n}`, lines: [{ productType: 'liviano', weightKg: 1 + (n % 20) }] },
    );

  const acknowledged = new Map<number, Acknowledged>();
  let tried = 0;
  let running = true;
  // Each worker creates a shipment, then moves it to 'En tránsito'; a request cut by a kill is
  // simply not acknowledged, and the worker goes on once the server is back.
  const worker = async (w: number) => {
    for (let n = w; running; n += WORKERS) {
      try {
        tried++;
        const created = await request('POST', '/api/shipments', token, newShipment(n));
        if (created.status !== 201) continue;
        const entry = { id: created.body.id as number, code: created.body.code as string, inTransit: false };
        acknowledged.set(entry.id, entry);
        tried++;
        const moved = await request('PATCH', `/api/shipments/${entry.id}/status`, token, { status: 'En tránsito' });
        if (moved.status === 200) entry.inTransit = true;
      } catch {
        // Connection refused or reset by the kill: not acknowledged.
      }
    }
  };
  const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));

  for (let kill = 0; kill < KILLS; kill++) {
    await new Promise((r) => setTimeout(r, 300 + Math.random() * MAX_LOAD_MS));
    let restarted!: (s: ServerProcess) => void;
    up = new Promise((resolve) => (restarted = resolve));
    await server.stop('SIGKILL');
    server = await startServerProcess(serverEnv);
    restarted(server);
  }
  running = false;
  await Promise.all(workers);

  // Read back after one more crash-free restart.
  await server.stop('SIGTERM');
  server = await startServerProcess(serverEnv);
  up = Promise.resolve(server);
  const lost: string[] = [];
  let verified = 0;
  const codes = new Set<string>();
  for (const entry of acknowledged.values()) {
    const found = await request('GET', `/api/shipments/${entry.id}`, token);
    if (found.status !== 200 || found.body.code !== entry.code) lost.push(`${entry.code}: ${found.status}`);
    else if (entry.inTransit && found.body.status !== 'En tránsito') lost.push(`${entry.code}: status ${String(found.body.status)}`);
    else verified += entry.inTransit ? 2 : 1;
    if (codes.has(entry.code)) lost.push(`${entry.code}: duplicate code`);
    codes.add(entry.code);
  }
  // The sequence goes on past every code handed out before the crashes: none is reused.
  const after = await request('POST', '/api/shipments', token, newShipment(0));
  const highest = Math.max(...[...codes].map((c) => Number(c.slice(4))));
  if (after.status !== 201 || Number(String(after.body.code).slice(4)) <= highest) lost.push(`code after restart: ${String(after.body.code)}`);
  await server.stop('SIGTERM');
  const killed = ledgerViolations(env);
  for (const [when, found] of [
    ['on the seeded demo', seeded],
    [`after ${KILLS} kills`, killed],
  ] as const) {
    const total = [...found.values()].reduce((a, b) => a + b, 0);
    console.log(`check:ledger (${engine}) ${when}: ${total} violations`);
    for (const [check, n] of found) lost.push(`ledger check '${check}' ${when}: ${n} violations`);
  }

  const acked = [...acknowledged.values()].reduce((n, e) => n + (e.inTransit ? 2 : 1), 0);
  console.log(
    `soak (${engine}): ${KILLS} kills, tried ${tried}, acknowledged ${acked} (${acknowledged.size} creations), verified ${verified}, lost ${lost.length}`,
  );
  for (const line of lost) console.log(`  lost: ${line}`);
  return { tried, acknowledged: acked, verified, lost };
}

const results: Figures[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-soak-'));
try {
  results.push(await soak('embedded', { DATA_DIR: dataDir }));
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
if (process.env.TEST_DATABASE_URL) {
  const database = await createPostgresDatabase();
  try {
    results.push(await soak('postgres', { DATABASE_URL: database.url }));
  } finally {
    await database.drop();
  }
} else {
  console.log('soak (postgres): not run, TEST_DATABASE_URL is not set');
}
const lost = results.reduce((n, r) => n + r.lost.length, 0);
console.log(`soak: ${lost === 0 ? 'every acknowledged write survived' : `${lost} acknowledged writes lost`}`);
process.exit(lost === 0 ? 0 : 1);
