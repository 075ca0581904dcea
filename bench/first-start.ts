// npm run bench -- first-start [--port 3980] [--dir /tmp/tramo-first-start] [--ref COMMIT] [--npm-ci]
// The README's first start, as a newcomer meets it: a fresh clone of this repository's HEAD (no
// apps/web/dist, no apps/api/dist, no data), its node_modules hard-linked from here (or `npm ci` with
// --npm-ci, timed apart), then `npm start`. Prints when each phase's line appeared, when /api/health
// first answered and when the demo's documents were all issued; then a second start on the same
// clone (nothing to build, data there). Prints, never asserts.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const port = Number(arg('--port') ?? 3980);
const dir = path.resolve(arg('--dir') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-first-start-')));
const base = `http://127.0.0.1:${port}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

fs.rmSync(dir, { recursive: true, force: true });
execFileSync('git', ['clone', '--quiet', root, dir]);
// --ref: an earlier commit, to compare with (HEAD by default).
const ref = arg('--ref');
if (ref) execFileSync('git', ['checkout', '--quiet', ref], { cwd: dir });
const installStarted = performance.now();
if (process.argv.includes('--npm-ci')) execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'ignore' });
else for (const nm of ['node_modules', 'apps/web/node_modules']) execFileSync('cp', ['-al', path.join(root, nm), path.join(dir, nm)]);
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, ${os.cpus().length} cores`,
);
console.log(`clone ${dir} at ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir }).toString().trim()}`);
console.log(`${process.argv.includes('--npm-ci') ? 'npm ci' : 'node_modules linked'}: ${seconds(performance.now() - installStarted)}`);

/** What the server printed, by the time it appeared. */
const PHASES: [RegExp, string][] = [
  [/Construyendo la aplicación web/, 'web build starts'],
  [/Compilando la API/, 'API compile starts'],
  [/✓ built in/, 'web build done'],
  [/Datos de demostración cargados/, 'migrations + demo data loaded'],
  [/Tramo listo/, 'server listening'],
  [/Comprobantes de demostración emitidos/, 'demo documents issued'],
];

async function start(label: string): Promise<void> {
  const started = performance.now();
  // The README's defaults: the embedded engine in the clone's ./data, the web app in its apps/web/dist.
  const { DATABASE_URL: _db, DATABASE_READ_URL: _read, DATA_DIR: _data, WEB_DIST: _web, DEMO: _demo, ...inherited } = process.env;
  const env = { ...inherited, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const server = spawn('npm', ['start'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const seen = new Map<string, number>();
  const documents = new Promise<void>((resolve) => {
    const onLine = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        for (const [re, name] of PHASES) if (re.test(line) && !seen.has(name)) seen.set(name, performance.now() - started);
        if (/Comprobantes de demostración/.test(line)) resolve();
      }
    };
    server.stdout.on('data', onLine);
    server.stderr.on('data', onLine);
  });
  let health = NaN;
  for (let i = 0; i < 3000 && Number.isNaN(health); i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) health = performance.now() - started;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  // A second start issues none (already there): it prints nothing about them.
  await Promise.race([documents, new Promise((r) => setTimeout(r, label === 'first' ? 300_000 : 2_000))]);
  console.log(`\n${label} npm start`);
  for (const [name, ms] of [...seen.entries()].sort((a, b) => a[1] - b[1])) console.log(`  ${seconds(ms).padStart(7)}  ${name}`);
  console.log(`  ${seconds(health).padStart(7)}  /api/health answers`);
  process.kill(-server.pid!, 'SIGTERM');
  await new Promise((r) => server.once('exit', r));
}

await start('first');
await start('second');
fs.rmSync(dir, { recursive: true, force: true });
