// Compiles the API (and the domain package it imports as TypeScript) into plain JavaScript in
// apps/api/dist, so production runs node on JavaScript: no TypeScript loader at run time. Built
// again only when a source is newer than the bundle, as scripts/start.mjs does for the web app.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const apiDir = path.join(root, 'apps/api');
const outDir = path.join(apiDir, 'dist');

/** The programs operators run: the server and the scripts `npm run <name>` starts. */
export const entries = {
  main: 'src/main.ts',
  backup: 'src/scripts/backup.ts',
  restore: 'src/scripts/restore.ts',
  'check-ledger': 'src/scripts/check-ledger.ts',
};

const sources = [
  path.join(apiDir, 'src'),
  path.join(root, 'packages/domain/src'),
  path.join(apiDir, 'package.json'),
  path.join(root, 'scripts/api-build.mjs'),
];

function newestMtime(p) {
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

function upToDate() {
  const built = Object.keys(entries).map((name) => path.join(outDir, `${name}.js`));
  if (!built.every((f) => fs.existsSync(f))) return false;
  const oldest = Math.min(...built.map((f) => fs.statSync(f).mtimeMs));
  return sources.every((s) => newestMtime(s) <= oldest);
}

/** Builds apps/api/dist when it is missing or older than its sources; answers the path of an entry. */
export async function ensureApiBuilt(entry = 'main') {
  if (!upToDate()) {
    console.log('Compilando la API…');
    const { build } = await import('esbuild');
    const pkg = JSON.parse(fs.readFileSync(path.join(apiDir, 'package.json'), 'utf8'));
    // npm packages stay in node_modules (PGlite's WebAssembly, argon2's native binding); only our own
    // workspace package (TypeScript sources) is bundled in.
    const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@tramo/'));
    // One file per program, no shared chunks: every bundled module then sits in apps/api/dist, one
    // level below apps/api as its source does below src/, so import.meta.dirname means the same.
    await build({
      absWorkingDir: apiDir,
      entryPoints: entries,
      outdir: outDir,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: true,
      external,
      logLevel: 'warning',
    });
  }
  return path.join(outDir, `${entry}.js`);
}

// `node scripts/api-build.mjs [entry] [args…]`: build if needed, then run that program.
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const [entry = 'main', ...args] = process.argv.slice(2);
  if (!(entry in entries)) {
    console.error(`Programa desconocido: ${entry} (${Object.keys(entries).join(', ')})`);
    process.exit(2);
  }
  const file = await ensureApiBuilt(entry);
  process.argv = [process.argv[0], file, ...args];
  await import(file);
}
