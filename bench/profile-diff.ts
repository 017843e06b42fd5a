/**
 * `node --import tsx bench/profile-diff.ts A.cpuprofile B.cpuprofile [REQUESTS] [ROWS]`: where two
 * V8 CPU profiles (`--cpu-prof`, e.g. `npm run bench:cpu` with BENCH_PROFILE) spend their time
 * differently. For each function (name, file, line): its self time and its total time (itself and
 * what it calls, each sample counted once however deep the recursion), in A, in B and B − A, sorted
 * by the largest difference of either. Idle samples are left out; with REQUESTS (how many requests
 * each profiled server answered) the figures are µs a request, otherwise ms.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

interface Times {
  self: Map<string, number>;
  total: Map<string, number>;
  busy: number;
}

const keyOf = ({ functionName, url, lineNumber }: ProfileNode['callFrame']): string =>
  url ? `${functionName || '(anonymous)'} ${basename(url)}:${lineNumber + 1}` : functionName;

/** Self and total µs a function of one profile. */
function timesOf(file: string): Times {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const times: Times = { self: new Map(), total: new Map(), busy: 0 };
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  profile.samples.forEach((id, i) => {
    // A sample's time is the delta to the next sample (V8 records the delta before each one).
    const us = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') return;
    times.busy += us;
    add(times.self, keyOf(node.callFrame), us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = keyOf(byId.get(at)!.callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      add(times.total, key, us);
    }
  });
  return times;
}

const [fileA, fileB, requestsArg, rowsArg] = process.argv.slice(2);
if (!fileA || !fileB) throw new Error('usage: profile-diff.ts A.cpuprofile B.cpuprofile [REQUESTS] [ROWS]');
const a = timesOf(fileA);
const b = timesOf(fileB);
const requests = requestsArg ? Number(requestsArg) : 0;
const unit = requests ? 'µs a request' : 'ms';
const scale = (us: number) => (requests ? us / requests : us / 1000);
const rows = Number(rowsArg ?? 40);
const shown = (n: number) => scale(n).toFixed(requests ? 2 : 1).padStart(9);

console.log(`busy: A ${shown(a.busy)}  B ${shown(b.busy)}  B−A ${shown(b.busy - a.busy)}  (${unit})`);
for (const kind of ['self', 'total'] as const) {
  const keys = new Set([...a[kind].keys(), ...b[kind].keys()]);
  const diff = [...keys].map((key) => ({ key, a: a[kind].get(key) ?? 0, b: b[kind].get(key) ?? 0 })).sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a));
  console.log(`\n${kind} time (${unit}):       A         B       B−A  function`);
  for (const d of diff.slice(0, rows)) console.log(`${' '.repeat(18)}${shown(d.a)} ${shown(d.b)} ${shown(d.b - d.a)}  ${d.key}`);
}
