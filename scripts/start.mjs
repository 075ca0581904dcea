// `npm start`: build the web app and the API when they are missing or older than their sources,
// then run the API (plain JavaScript), which applies migrations, seeds an empty database and serves
// both on one port.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureApiBuilt } from './api-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
// WEB_DIST lets parallel test servers each build into their own folder.
const distDir = process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : path.join(root, 'apps/web/dist');
const dist = path.join(distDir, 'index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

const sources = [
  path.join(root, 'apps/web/src'),
  path.join(root, 'apps/web/index.html'),
  path.join(root, 'apps/web/seguimiento.html'),
  path.join(root, 'apps/web/login.html'),
  path.join(root, 'apps/web/vite.config.ts'),
  path.join(root, 'packages/domain/src'),
];
const sourcesChanged = () => {
  const built = fs.statSync(dist).mtimeMs;
  return sources.some((s) => (fs.statSync(s).isDirectory() ? newestMtime(s) : fs.statSync(s).mtimeMs) > built);
};

if (!fs.existsSync(dist) || sourcesChanged()) {
  console.log('Construyendo la aplicación web…');
  execFileSync('npx', ['vite', 'build', '--outDir', distDir, '--emptyOutDir'], { cwd: path.join(root, 'apps/web'), stdio: 'inherit' });
}

// Errors logged with their TypeScript file and line.
process.setSourceMapsEnabled(true);
await import(await ensureApiBuilt('main'));
