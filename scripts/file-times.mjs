// Preloaded into every test process by scripts/test.mjs beside test-timeouts.mjs: when the process
// ends, appends its file, wall time (from process start, so tsx's load and the file's imports
// count) and CPU time to $REELBASE_TEST_FILE_TIMES. node:test on Node 20 reports no per-file
// duration, and with files run three at a time the run's length follows the files' times more than
// the tests'. The CPU time (the process's and its children's that ended: servers, workers, ffmpeg)
// hardly depends on what else the machine runs: on a shared machine it says what a file costs.
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const out = process.env.REELBASE_TEST_FILE_TIMES;
const file = process.argv[1];
/** utime + stime + cutime + cstime of /proc/self/stat (fields 14–17, in ticks of 10 ms); null off Linux. */
function cpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) * 10;
  } catch {
    return null;
  }
}

if (out && file?.endsWith('.test.ts')) {
  process.on('exit', () => {
    appendFileSync(out, `${JSON.stringify({ file: relative(process.cwd(), file), ms: Math.round(process.uptime() * 1000), cpuMs: cpuMs() })}\n`);
  });
}
