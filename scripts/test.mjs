// Runs every workspace's test files through node:test with tsx, straight from source.
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['packages', 'apps'];
const files = [];
for (const root of roots) {
  for (const pkg of readdirSync(root)) {
    const dir = join(root, pkg, 'test');
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) if (f.endsWith('.test.ts')) files.push(join(dir, f));
  }
}
const only = process.argv.slice(2);
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
// Two files at a time: most of a file's time is spent waiting on fsyncs, sockets and child
// processes, and node:test would run one file at a time on two cores.
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--conditions=source', '--test', '--test-concurrency=2', '--test-reporter=spec', ...selected],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(r.status ?? 1);
