// npm run bench -- NAME [args…]: runs bench/NAME.ts; with no NAME, lists the benchmarks.
// Benchmarks print figures (p50/p95…); they never assert.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const available = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .map((f) => f.replace(/\.ts$/, ''));
const [name, ...args] = process.argv.slice(2);
if (!name || !available.includes(name)) {
  console.log(`Uso: npm run bench -- <${available.join('|')}> [opciones]`);
  process.exit(name ? 1 : 0);
}
const tsx = path.resolve(dir, '../node_modules/.bin/tsx');
const res = spawnSync(tsx, [path.join(dir, `${name}.ts`), ...args], { stdio: 'inherit' });
process.exit(res.status ?? 1);
