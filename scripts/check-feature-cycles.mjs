// Part of `npm run lint`: fails when web features import each other in a circle (DESIGN.md section 2),
// however long the circle (shipments → deliveries → tracking → shipments). eslint-plugin-boundaries
// judges one import at a time and cannot see a circle; a file-level no-cycle rule would also flag
// circles inside one feature, which are not the concern. So: one graph of features, built from every
// import (static, dynamic, type-only and re-exports alike) of every file under features/.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const featuresDir = path.join(root, 'apps/web/src/features');

const featureOf = (file) => {
  const rel = path.relative(featuresDir, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? null : rel.split(path.sep)[0];
};

/** Feature → feature it imports → the first file and specifier that does so (for the message). */
const edges = new Map();
for (const entry of fs.readdirSync(featuresDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const from = featureOf(file);
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  for (const { fileName: spec } of importedFiles) {
    if (!spec.startsWith('.')) continue;
    const to = featureOf(path.resolve(path.dirname(file), spec));
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${path.relative(root, file)} imports '${spec}'`);
  }
}

// Depth-first search; a feature met again while still on the path closes a circle. Each circle is
// reported once, from its alphabetically first feature.
const cycles = new Map();
const visit = (feature, trail) => {
  const at = trail.indexOf(feature);
  if (at >= 0) {
    const circle = trail.slice(at);
    const start = circle.indexOf([...circle].sort()[0]);
    const rotated = [...circle.slice(start), ...circle.slice(0, start)];
    cycles.set(rotated.join(' → '), rotated);
    return;
  }
  for (const next of edges.get(feature)?.keys() ?? []) visit(next, [...trail, feature]);
};
for (const feature of edges.keys()) visit(feature, []);

if (cycles.size > 0) {
  console.error(`Features imported in a circle (compose the page in apps/web/src/app/routes, shared keys in apps/web/src/lib):`);
  for (const circle of cycles.values()) {
    console.error(`\n  ${[...circle, circle[0]].join(' → ')}`);
    circle.forEach((feature, i) => console.error(`    ${edges.get(feature).get(circle[(i + 1) % circle.length])}`));
  }
  process.exit(1);
}
