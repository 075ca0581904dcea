// `npm test`: typecheck, then every vitest project (domain, API on the embedded engine and on
// PostgreSQL when TEST_DATABASE_URL is set, web components), then the browser suite. Runs every
// stage even after a failure and ends with one plain summary line: "tests: N passed, N failed".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'reports');
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });

const run = (cmd, args, extraEnv = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...extraEnv } }).status ?? 1;

const stages = [];
stages.push(['typecheck', run('npm', ['run', 'typecheck', '--silent'])]);
stages.push([
  'vitest',
  run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(reports, 'vitest.json')}`]),
]);
stages.push(['playwright', run('npx', ['playwright', 'test'])]);

let passed = 0;
let failed = 0;
let skipped = 0;
const vitest = path.join(reports, 'vitest.json');
if (fs.existsSync(vitest)) {
  const r = JSON.parse(fs.readFileSync(vitest, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
}
const e2e = path.join(reports, 'e2e.json');
if (fs.existsSync(e2e)) {
  const s = JSON.parse(fs.readFileSync(e2e, 'utf8')).stats;
  passed += s.expected + s.flaky;
  failed += s.unexpected;
  skipped += s.skipped;
}
const failedStages = stages.filter(([, code]) => code !== 0).map(([name]) => name);
// A stage that crashed before reporting still fails the run.
if (failedStages.length && failed === 0) failed = failedStages.length;
console.log(`\nStages: ${stages.map(([n, c]) => `${n} ${c === 0 ? 'ok' : 'FAILED'}`).join(', ')}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failedStages.length ? 1 : 0);
