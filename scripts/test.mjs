// Runs every workspace's test files through node:test, straight from source (./source-loader).
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync, mkdtempSync, rmSync, statfsSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { slowestFiles } from './slowest-files.mjs';
import { cliBundle } from './cli-bundle.mjs';

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

// The CLI that tests start as a process, bundled from the current source once for the run
// (@reelbase/api-tests/bundled-commands). Source that does not build fails only the files that
// start the CLI (they build it again, and say why), not the whole run.
const cli = await cliBundle().catch((e) => console.error(`# the CLI did not bundle: ${e.message}`));
const run = runDirectory();
const fileTimes = join(run, 'file-times.jsonl');
// Ctrl-C reaches the tests too: wait for them to stop, then remove the directory (below).
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {});
/**
 * Every test and hook that states no timeout of its own gets this one (scripts/test-timeouts.mjs),
 * so a hang fails that test, by name, instead of stopping the run. The slowest tests (the fleets of
 * processes of s3-fleet and transcode-workers) took 100 to 160 s on a 2-core machine with a load
 * average of 20 to 40; a test that needs longer says so with its reason.
 */
const defaultTimeoutMs = 300_000;
const reporters = ['spec', fileURLToPath(new URL('slowest-tests.mjs', import.meta.url))].flatMap((r) => [`--test-reporter=${r}`, '--test-reporter-destination=stdout']);
// Three files at a time on two cores: most of a file's time is spent waiting on sockets, child
// processes (ffmpeg, servers) and PostgreSQL, and node:test would run one file at a time.
// REELBASE_TEST_CONCURRENCY sets another number (to measure it, or on a machine with more cores).
const concurrency = Number(process.env.REELBASE_TEST_CONCURRENCY) || 3;
let status;
try {
  const r = spawnSync(
    process.execPath,
    [...['source-loader/register.mjs', 'test-timeouts.mjs', 'file-times.mjs'].flatMap((m) => ['--import', fileURLToPath(new URL(m, import.meta.url))]), '--conditions=source', '--test', `--test-concurrency=${concurrency}`, ...reporters, ...selected],
    // REELBASE_TEST_CACHE: test clips (makeClip) are made once a run, whichever file asks first.
    {
      stdio: 'inherit',
      env: { REELBASE_TEST_TIMEOUT_MS: String(defaultTimeoutMs), ...process.env, NODE_ENV: 'test', TMPDIR: run, REELBASE_TEST_CACHE: join(run, 'cache'), REELBASE_TEST_FILE_TIMES: fileTimes, ...(cli && { REELBASE_TEST_CLI: cli }) },
    },
  );
  status = r.status ?? 1;
  process.stdout.write(slowestFiles(fileTimes));
  // REELBASE_TEST_FILE_TIMES_OUT keeps every file's time (one JSON object a line) for comparing runs.
  if (process.env.REELBASE_TEST_FILE_TIMES_OUT && existsSync(fileTimes)) copyFileSync(fileTimes, process.env.REELBASE_TEST_FILE_TIMES_OUT);
} finally {
  rmSync(run, { recursive: true, force: true });
}
process.exit(status);
