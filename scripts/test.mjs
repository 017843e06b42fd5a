// Runs every workspace's test files through node:test with tsx, straight from source.
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/**
 * The run's temporary directory (TMPDIR of every test process), removed at the end with whatever
 * a test left behind. In memory when /dev/shm has room: the stores and files the tests write are
 * fsynced on every commit, and an fsync to a shared disk costs more than the write it makes safe.
 */
function runDirectory() {
  const shm = '/dev/shm';
  let base = tmpdir();
  try {
    const { bavail, bsize } = statfsSync(shm);
    if (bavail * bsize >= 4 * 1024 ** 3) base = shm;
  } catch {
    // No /dev/shm (not Linux): the system's temporary directory.
  }
  return mkdtempSync(join(base, 'reelbase-test-run-'));
}

const run = runDirectory();
// Ctrl-C reaches the tests too: wait for them to stop, then remove the directory (below).
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {});
// Three files at a time on two cores: most of a file's time is spent waiting on sockets, child
// processes (ffmpeg, servers) and PostgreSQL, and node:test would run one file at a time.
let status;
try {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--conditions=source', '--test', '--test-concurrency=3', '--test-reporter=spec', ...selected],
    // REELBASE_TEST_CACHE: test clips (makeClip) are made once a run, whichever file asks first.
    { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', TMPDIR: run, REELBASE_TEST_CACHE: join(run, 'cache') } },
  );
  status = r.status ?? 1;
} finally {
  rmSync(run, { recursive: true, force: true });
}
process.exit(status);
