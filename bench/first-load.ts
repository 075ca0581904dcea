// npm run bench -- first-load [--port 3297] [--throttle [--runs 3]]
// What a newcomer's browser downloads before it can work: the login page, then the Panel after
// signing in. Builds the web app, starts the real server on a fresh demo data dir, drives Chromium
// through both pages and prints every script and stylesheet they fetched with its size as served
// compressed (the .gz the server sends to a gzip client; .br is smaller still). Prints, never asserts.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { measureThrottled } from './_first-load-throttled.ts';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
const portArg = process.argv.indexOf('--port');
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 3297;
const base = `http://127.0.0.1:${port}`;
// With --throttle it times the waits on a slow link instead of listing the files.
const throttle = process.argv.includes('--throttle');
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;

const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
if (build.status !== 0) throw new Error('npm run build failed');

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-first-load-'));
const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/api/src/main.ts')], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '1', LOG_LEVEL: 'warn', DATABASE_URL: '' },
  stdio: 'ignore',
});

async function waitForServer() {
  for (let i = 0; i < 360; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not start');
}

/** The compressed size of a built asset as served (its .gz or .br beside it), or its own size. */
function servedSize(url: string, encoding: 'gz' | 'br'): number {
  const file = path.join(dist, new URL(url).pathname);
  return fs.existsSync(`${file}.${encoding}`) ? fs.statSync(`${file}.${encoding}`).size : fs.statSync(file).size;
}

async function listFiles() {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  const page = await browser.newPage();
  const fetched = new Map<string, 'login' | 'panel'>();
  let stage: 'login' | 'panel' = 'login';
  page.on('request', (r) => {
    const url = r.url();
    if (/\/assets\/.+\.(js|css)$/.test(url) && !fetched.has(url)) fetched.set(url, stage);
  });
  await page.goto(`${base}/login`);
  await page.getByRole('button', { name: 'Ingresar' }).waitFor();
  stage = 'panel';
  await page.getByLabel('Usuario').fill('ADMIN');
  await page.getByLabel('Contraseña', { exact: true }).fill('admin123');
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await page.getByTestId('counter-total').waitFor();
  await page.getByRole('img', { name: 'Envíos por periodo y estado' }).waitFor();
  await browser.close();

  const rows = [...fetched].map(([url, at]) => ({
    at,
    file: path.basename(new URL(url).pathname),
    kb: servedSize(url, 'gz') / 1024,
    br: servedSize(url, 'br') / 1024,
  }));
  const total = (kind: string, upTo: 'login' | 'panel', size: 'kb' | 'br' = 'kb') =>
    rows.filter((r) => r.file.endsWith(kind) && (upTo === 'panel' || r.at === 'login')).reduce((s, r) => s + r[size], 0);
  for (const r of rows.sort((a, b) => b.kb - a.kb)) console.log(`${r.at.padEnd(6)} ${r.kb.toFixed(1).padStart(7)} kB gz  ${r.file}`);
  // The login page's own script and style are inside its HTML (apps/web/vite.config.ts).
  console.log(
    `\nLogin page: ${(servedSize(`${base}/login.html`, 'gz') / 1024).toFixed(1)} kB gz HTML (its script and style inside); fetched while it shows: ${total('.js', 'login').toFixed(1)} kB gz JS, ${total('.css', 'login').toFixed(1)} kB gz CSS`,
  );
  console.log(
    `Login + Panel (first load): ${total('.js', 'panel').toFixed(1)} kB gz JS in ${rows.filter((r) => r.file.endsWith('.js')).length} files, ${total('.css', 'panel').toFixed(1)} kB gz CSS`,
  );
  // What Chromium actually downloads: it asks for brotli, and the server sends the .br.
  console.log(
    `Login + Panel as brotli (what browsers download): ${total('.js', 'panel', 'br').toFixed(1)} kB JS, ${total('.css', 'panel', 'br').toFixed(1)} kB CSS`,
  );
  console.log('The floor of the stack itself: npm run bench -- stack-floor');
}

try {
  await waitForServer();
  if (throttle) await measureThrottled(base, runs);
  else await listFiles();
} finally {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
