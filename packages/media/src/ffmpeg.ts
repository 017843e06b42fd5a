import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

export interface FfmpegLocation {
  path: string;
  /** Where it was found: `REELBASE_FFMPEG`, the PATH, or the `@ffmpeg-installer/ffmpeg` package. */
  source: 'env' | 'path' | 'npm';
}

const isExecutableFile = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The ffmpeg `env` points to, unmemoised (tests pass their own environment). */
export function findFfmpeg(env: NodeJS.ProcessEnv): FfmpegLocation | null {
  const configured = env.REELBASE_FFMPEG;
  if (configured && isExecutableFile(configured)) return { path: configured, source: 'env' };
  const name = process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg';
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutableFile(join(dir, name))) return { path: join(dir, name), source: 'path' };
  }
  try {
    // The package throws (a string) at import on platforms it has no binary for.
    const installed: { path: string } = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg');
    if (isExecutableFile(installed.path)) return { path: installed.path, source: 'npm' };
  } catch {
    // No usable npm build: the caller reports that no ffmpeg was found.
  }
  return null;
}

let memo: FfmpegLocation | null | undefined;

/** The ffmpeg this process uses, looked up once: `REELBASE_FFMPEG`, then the PATH, then npm's build. */
export function resolveFfmpeg(): FfmpegLocation | null {
  if (memo === undefined) memo = findFfmpeg(process.env);
  return memo;
}

export interface FfmpegRun {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** The largest stdout kept; a frame of an 8K video is a few megabytes. */
const maxOutput = 64 * 1024 * 1024;

/**
 * Runs ffmpeg (no shell) and answers how it exited, whatever the code. Rejects only when it
 * could not run: missing binary, timeout, or output past `maxOutput`.
 */
export function runFfmpeg(path: string, args: string[], timeoutMs = 30_000): Promise<FfmpegRun> {
  return new Promise((resolve, reject) => {
    const options = { encoding: 'buffer', maxBuffer: maxOutput, timeout: timeoutMs, killSignal: 'SIGKILL', windowsHide: true } as const;
    execFile(path, args, options, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') {
        const why = error.killed && error.code == null ? `timed out after ${timeoutMs / 1000} s` : error.message;
        reject(new Error(`ffmpeg (${path}) ${why}`, { cause: error }));
      } else resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr: stderr.toString() });
    });
  });
}

/** The first line of `ffmpeg -version`, e.g. for a start-up line. */
export async function ffmpegVersion(path: string): Promise<string> {
  const run = await runFfmpeg(path, ['-version'], 10_000);
  const first = run.stdout.toString().split('\n', 1)[0].trim();
  if (run.code !== 0 || !first) throw new Error(`ffmpeg (${path}) -version failed: ${run.stderr.trim() || `exit code ${run.code}`}`);
  return first;
}
