import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { descendants, stillRunning, until, type ProcessEntry } from '../src/index';
import { fromSource } from '../src/from-source';

const media = fileURLToPath(new URL('../../media/src/', import.meta.url));

/**
 * A process that runs two endless ffmpegs, one as a transcode does (runFfmpegJob) and one as a
 * probe or a frame does (runFfmpeg), until it is killed.
 */
const program = `
  const { runFfmpegJob } = await import(${JSON.stringify(`${media}ffmpeg-job.ts`)});
  const { runFfmpeg, toolPath } = await import(${JSON.stringify(`${media}ffmpeg.ts`)});
  const endless = ['-nostdin', '-v', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=size=64x64:rate=5', '-f', 'null', '-'];
  runFfmpegJob(toolPath('ffmpeg'), endless, { timeoutMs: 600_000 });
  runFfmpeg(toolPath('ffmpeg'), endless, 600_000);
`;

describe('ffmpeg dies with the process that started it (issue 48)', () => {
  it('SIGKILL of the parent: both of its ffmpegs are gone from the process table within 3 s', async () => {
    const parent = spawn(process.execPath, [...fromSource, '--input-type=module', '-e', program], { stdio: 'ignore' });
    try {
      let tools: ProcessEntry[] = [];
      await until(() => (tools = descendants(parent.pid!).filter((p) => p.name === 'ffmpeg')).length === 2, 'two ffmpegs to start');
      const exit = once(parent, 'exit');
      parent.kill('SIGKILL');
      await exit;
      const killed = performance.now();
      // Issue 48's 3 s holds on a loaded machine: the kernel ends the watchdog's pipe with the parent,
      // and what is left (a shell's read returning, one kill) is a wake-up, not CPU work.
      await until(() => !tools.some(stillRunning), 'the ffmpegs to die with their parent', 3000);
      assert.ok(performance.now() - killed <= 3000);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
