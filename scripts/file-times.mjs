// Preloaded into every test process by scripts/test.mjs beside test-timeouts.mjs: when the process
// ends, appends its file and wall time (from process start, so tsx's load and the file's imports
// count) to $REELBASE_TEST_FILE_TIMES. node:test on Node 20 reports no per-file duration, and with
// files run three at a time the run's length follows the files' times more than the tests'.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';

const out = process.env.REELBASE_TEST_FILE_TIMES;
const file = process.argv[1];
if (out && file?.endsWith('.test.ts')) {
  process.on('exit', () => {
    appendFileSync(out, `${JSON.stringify({ file: relative(process.cwd(), file), ms: Math.round(process.uptime() * 1000) })}\n`);
  });
}
