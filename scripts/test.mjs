// `npm test`: typecheck, lint (ESLint with the layer boundaries, Prettier), then every vitest project (domain, API on the embedded engine and on
// PostgreSQL when TEST_DATABASE_URL is set, web components), then the browser suite. Runs every
// stage even after a failure and ends with one plain summary line: "tests: N passed, N failed".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'reports');
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });

// Output is streamed and also kept, so a failure can be summarised again at the very end: CI shows
// only the tail of a long run.
const logs = {};
const run = (name, cmd, args) => {
  const r = spawnSync(
    'bash',
    ['-o', 'pipefail', '-c', `${[cmd, ...args].map(quote).join(' ')} 2>&1 | tee ${quote(path.join(reports, `${name}.log`))}`],
    {
      cwd: root,
      stdio: 'inherit',
      env: process.env,
    },
  );
  logs[name] = path.join(reports, `${name}.log`);
  return r.status ?? 1;
};
// Colour codes of the tools' output, stripped where it is summarised.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const quote = (s) => `'${String(s).replaceAll("'", "'\\''")}'`;

const stages = [];
stages.push(['typecheck', run('typecheck', 'npm', ['run', 'typecheck', '--silent'])]);
stages.push(['lint', run('lint', 'npm', ['run', 'lint', '--silent'])]);
stages.push([
  'vitest',
  run('vitest', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(reports, 'vitest.json')}`]),
]);
stages.push(['playwright', run('playwright', 'npx', ['playwright', 'test'])]);

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
const failures = [];
if (fs.existsSync(vitest)) {
  for (const file of JSON.parse(fs.readFileSync(vitest, 'utf8')).testResults) {
    const rel = path.relative(root, file.name);
    for (const t of file.assertionResults) {
      if (t.status === 'failed') failures.push(`${rel} › ${t.fullName}\n    ${(t.failureMessages[0] ?? '').split('\n')[0]}`);
    }
    // A failing hook or a file that does not load fails the file with no failed test.
    if (file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed')) {
      failures.push(`${rel}: ${(file.message || 'failed').split('\n').slice(0, 3).join(' | ')}`);
    }
  }
}
if (fs.existsSync(e2e)) {
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        if (t.status === 'unexpected') {
          const err = t.results.at(-1)?.error?.message ?? '';
          failures.push(`${spec.file}:${spec.line} › ${spec.title}\n    ${err.replace(ANSI, '').split('\n')[0]}`);
        }
      }
    }
    for (const s of suite.suites ?? []) walk(s);
  };
  for (const s of JSON.parse(fs.readFileSync(e2e, 'utf8')).suites) walk(s);
}
// Errors outside any test (unhandled rejections, crashes) are only in the stage's output.
for (const [name, code] of stages) {
  if (code === 0 || !logs[name] || !fs.existsSync(logs[name])) continue;
  const lines = fs.readFileSync(logs[name], 'utf8').replace(ANSI, '').split('\n');
  const marks = lines.flatMap((l, i) => (/Unhandled|Error:|error TS|FAIL|⎯⎯|originated/.test(l) ? [i] : []));
  if (marks.length)
    failures.push(
      `${name} output:\n${marks
        .slice(0, 25)
        .map((i) => `    ${lines[i].slice(0, 300)}`)
        .join('\n')}`,
    );
}
if (failures.length) console.log(`\nFailures:\n${failures.map((f) => `  ${f}`).join('\n')}`);

const failedStages = stages.filter(([, code]) => code !== 0).map(([name]) => name);
// A stage that crashed before reporting still fails the run.
if (failedStages.length && failed === 0) failed = failedStages.length;
console.log(`\nStages: ${stages.map(([n, c]) => `${n} ${c === 0 ? 'ok' : 'FAILED'}`).join(', ')}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failedStages.length ? 1 : 0);
