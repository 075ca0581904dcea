// npx tsx bench/profile-top.ts FILE.cpuprofile [--top 40]
// A V8 CPU profile (`npm run bench -- writes --profile DIR`) summed two ways: by where the time was
// spent (self time per function, with its file), and by whose code it was (the package, or the
// app's module), so that a change's share of a write can be read before and after it.
import fs from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '40' } } });
const profile = JSON.parse(fs.readFileSync(positionals[0]!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
// Self time per node: each sample's interval belongs to the node it hit.
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

/** Whose code a frame is: the package under node_modules, the app's module folder, or Node itself. */
function owner(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const mod = /apps\/api\/src\/(modules\/[^/]+|[^/]+)/.exec(url);
  if (mod) return `api: ${mod[1]}`;
  if (/packages\/domain/.test(url)) return 'domain';
  if (url.startsWith('node:')) return url.replace(/^node:(internal\/)?([^/]+).*/, 'node:$2');
  return url;
}

const functions = new Map<string, number>();
const owners = new Map<string, number>();
for (const [id, us] of selfUs) {
  const { callFrame } = byId.get(id)!;
  const where = callFrame.url.replace(/^.*\/(node_modules|apps|packages)\//, '$1/');
  const key = `${callFrame.functionName || '(anonymous)'}  ${where}:${callFrame.lineNumber + 1}`;
  functions.set(key, (functions.get(key) ?? 0) + us);
  const o = owner(callFrame.url, callFrame.functionName);
  owners.set(o, (owners.get(o) ?? 0) + us);
}
const print = (title: string, m: Map<string, number>, n: number) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    console.log(`${((100 * us) / total).toFixed(1).padStart(6)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
  }
};
console.log(`${(total / 1000).toFixed(0)} ms sampled`);
print('by owner (self time)', owners, 30);
print('by function (self time)', functions, Number(values.top));
