import { basename } from 'node:path';
import { killWatched, spawnWatched } from './watched-child';

export interface JobOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Seconds of output written so far, from `-progress pipe:1`. */
  onProgress?: (seconds: number) => void;
}

export interface JobExit {
  code: number;
  stderr: string;
}

/** stderr kept: the first lines say what went wrong, and `-v error` keeps it short anyway. */
const maxStderr = 64 * 1024;

/**
 * A long ffmpeg run (under the watchdog of watched-child.ts: it dies with this process) that
 * reports progress and is killed on abort or timeout. Answers
 * how it exited; rejects when it could not start, timed out (a plain Error) or was aborted
 * (`signal.reason`), in each case only once the process is gone, so the caller may clean up.
 */
export function runFfmpegJob(path: string, args: string[], options: JobOptions): Promise<JobExit> {
  const { signal, onProgress, timeoutMs } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const child = spawnWatched(path, onProgress ? ['-progress', 'pipe:1', ...args] : args, { stdout: !!onProgress });
    let stderr = '';
    let stopped: unknown = null;
    const stop = (why: unknown) => {
      stopped ??= why;
      killWatched(child);
    };
    const onAbort = () => stop(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => stop(new Error(`${basename(path)} timed out after ${timeoutMs / 1000} s`)), timeoutMs);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < maxStderr) stderr += chunk;
    });
    if (onProgress) {
      let partial = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop()!;
        for (const line of lines) {
          const time = /^out_time=(\d+):(\d\d):(\d\d(?:\.\d+)?)$/.exec(line.trim());
          if (time) onProgress(Number(time[1]) * 3600 + Number(time[2]) * 60 + Number(time[3]));
        }
      });
    }
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.once('error', (error) => {
      done();
      reject(new Error(`${basename(path)} (${path}) ${error.message}`, { cause: error }));
    });
    child.once('close', (code, killedBy) => {
      done();
      if (stopped) reject(stopped);
      else resolve({ code: code ?? (killedBy ? 128 : 1), stderr });
    });
  });
}
