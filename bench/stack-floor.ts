// npm run bench -- stack-floor
// The smallest first load the decided stack allows (DESIGN.md: React 19, React Router's data
// router, TanStack Query, Mantine): builds a throwaway page that uses only what any staff page
// needs (MantineProvider, AppShell, Paper, TextInput, Select, Tooltip, Button, Table, one query,
// one route) and prints its JavaScript as served gzip-compressed (level 9, as the real build
// stores it), by package. It is the floor under `npm run bench -- first-load`; prints, never asserts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SourceMapConsumer } from 'source-map-js';

const web = path.resolve(import.meta.dirname, '../apps/web');
const work = fs.mkdtempSync(path.join(web, '.stack-floor-'));
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-stack-floor-'));

fs.writeFileSync(
  path.join(work, 'floor.tsx'),
  `import { createRoot } from 'react-dom/client';
import { AppShell, Button, MantineProvider, Paper, Select, Table, TextInput, Tooltip } from '@mantine/core';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
const client = new QueryClient();
function Page() {
  const q = useQuery({ queryKey: ['x'], queryFn: async () => 1 });
  return <AppShell><Paper><TextInput label="a" /><Select data={['a']} /><Tooltip label="b"><Button>{q.data}</Button></Tooltip><Table /></Paper></AppShell>;
}
const router = createBrowserRouter([{ path: '/', element: <Page /> }]);
createRoot(document.getElementById('root')!).render(
  <MantineProvider><QueryClientProvider client={client}><RouterProvider router={router} /></QueryClientProvider></MantineProvider>,
);
`,
);
fs.writeFileSync(path.join(work, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="./floor.tsx"></script>');
fs.writeFileSync(
  path.join(work, 'vite.config.ts'),
  `import react from '@vitejs/plugin-react';
export default { root: ${JSON.stringify(work)}, plugins: [react()], logLevel: 'warn', build: { outDir: ${JSON.stringify(out)}, emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 10000 } };
`,
);

try {
  const build = spawnSync(path.join(web, 'node_modules/.bin/vite'), ['build', '-c', path.join(work, 'vite.config.ts')], {
    cwd: web,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('vite build failed');
  const assets = path.join(out, 'assets');
  let total = 0;
  const byPackage = new Map<string, number>();
  for (const file of fs.readdirSync(assets).filter((f) => f.endsWith('.js'))) {
    const code = fs.readFileSync(path.join(assets, file), 'utf8');
    total += zlib.gzipSync(code, { level: 9 }).length;
    // Share the gzip size out by the raw bytes each package contributes (a fair approximation).
    const lines = code.split('\n');
    const map = new SourceMapConsumer(JSON.parse(fs.readFileSync(path.join(assets, `${file}.map`), 'utf8')));
    const mappings: { line: number; column: number; source: string }[] = [];
    map.eachMapping((m) => mappings.push({ line: m.generatedLine, column: m.generatedColumn, source: m.source ?? '' }));
    const raw = new Map<string, number>();
    mappings.forEach((m, i) => {
      const next = mappings[i + 1];
      const length = next && next.line === m.line ? next.column - m.column : lines[m.line - 1]!.length - m.column;
      const name = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(m.source)?.[1] ?? 'página';
      raw.set(name, (raw.get(name) ?? 0) + length);
    });
    const gz = zlib.gzipSync(code, { level: 9 }).length;
    for (const [name, bytes] of raw) byPackage.set(name, (byPackage.get(name) ?? 0) + (bytes / code.length) * gz);
  }
  for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).filter(([, b]) => b >= 512)) {
    console.log(`${(bytes / 1024).toFixed(1).padStart(7)} kB gz  ${name}`);
  }
  console.log(`\nStack floor (one page, nothing of Tramo): ${(total / 1024).toFixed(1)} kB gz JS`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(out, { recursive: true, force: true });
}
