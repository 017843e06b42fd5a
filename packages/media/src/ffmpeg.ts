import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, delimiter, join } from 'node:path';
import { killWatched, spawnWatched } from './watched-child';

/** The two FFmpeg programs reelbase runs. */
export type ToolName = 'ffmpeg' | 'ffprobe';

export interface ToolLocation {
  path: string;
  /** Where it was found: its variable (`REELBASE_FFMPEG`, `REELBASE_FFPROBE`), the PATH, or its npm package. */
  source: 'env' | 'path' | 'npm';
}

/** The name `findFfmpeg` has always answered with. */
export type FfmpegLocation = ToolLocation;

/** Where each program is looked for after the PATH: a static build a package installs from npm. */
const tools: Record<ToolName, { variable: string; npm: string }> = {
  ffmpeg: { variable: 'REELBASE_FFMPEG', npm: '@ffmpeg-installer/ffmpeg' },
  ffprobe: { variable: 'REELBASE_FFPROBE', npm: '@ffprobe-installer/ffprobe' },
};

const isExecutableFile = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The program `env` points to, unmemoised (tests pass their own environment): its variable, the PATH, then npm's build. */
export function findTool(name: ToolName, env: NodeJS.ProcessEnv): ToolLocation | null {
  const { variable, npm } = tools[name];
  const configured = env[variable];
  if (configured && isExecutableFile(configured)) return { path: configured, source: 'env' };
  const file = process.platform === 'win32' ? `${name}.exe` : name;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutableFile(join(dir, file))) return { path: join(dir, file), source: 'path' };
  }
  try {
    // Both packages throw at import on platforms they have no binary for.
    const installed: { path: string } = createRequire(import.meta.url)(npm);
    if (isExecutableFile(installed.path)) return { path: installed.path, source: 'npm' };
  } catch {
    // No usable npm build: the caller reports that none was found.
  }
  return null;
}

export const findFfmpeg = (env: NodeJS.ProcessEnv): ToolLocation | null => findTool('ffmpeg', env);
export const findFfprobe = (env: NodeJS.ProcessEnv): ToolLocation | null => findTool('ffprobe', env);

const memo = new Map<ToolName, ToolLocation | null>();

/** The program this process uses, looked up once in `process.env`. */
export function resolveTool(name: ToolName): ToolLocation | null {
  if (!memo.has(name)) memo.set(name, findTool(name, process.env));
  return memo.get(name)!;
}

export const resolveFfmpeg = (): ToolLocation | null => resolveTool('ffmpeg');
export const resolveFfprobe = (): ToolLocation | null => resolveTool('ffprobe');

/** `given`, else the resolved program's path; a plain error saying how to provide one when there is none. */
export function toolPath(name: ToolName, given?: string): string {
  const path = given ?? resolveTool(name)?.path;
  if (!path) throw new Error(`No ${name} found: set ${tools[name].variable}, put ${name} on the PATH or install ${tools[name].npm}.`);
  return path;
}

export interface FfmpegRun {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** The largest stdout kept; a frame of an 8K video is a few megabytes. */
const maxOutput = 64 * 1024 * 1024;

/**
 * Runs ffmpeg or ffprobe (under the watchdog of watched-child.ts: it dies with this process) and
 * answers how it exited, whatever the code. Rejects only when it could not run: missing binary,
 * timeout, or output past `maxOutput`; then only once the process is gone.
 */
export function runFfmpeg(path: string, args: string[], timeoutMs = 30_000): Promise<FfmpegRun> {
  return new Promise((resolve, reject) => {
    const child = spawnWatched(path, args, { stdout: true });
    const stdout: Buffer[] = [];
    let [size, stderr] = [0, ''];
    let stopped: string | null = null;
    const stop = (why: string) => {
      stopped ??= why;
      killWatched(child);
    };
    const timer = setTimeout(() => stop(`timed out after ${timeoutMs / 1000} s`), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxOutput) stop(`wrote more than ${maxOutput} bytes`);
      else stdout.push(chunk);
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < maxOutput) stderr += chunk;
    });
    const failed = (why: string, cause?: unknown) => reject(new Error(`${basename(path)} (${path}) ${why}`, { cause }));
    child.once('error', (error) => {
      clearTimeout(timer);
      failed(error.message, error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (stopped) failed(stopped);
      else resolve({ code: code ?? 1, stdout: Buffer.concat(stdout), stderr });
    });
  });
}

/** The first line of `<program> -version` (ffmpeg or ffprobe), e.g. for a start-up line. */
export async function toolVersion(path: string): Promise<string> {
  const run = await runFfmpeg(path, ['-version'], 10_000);
  const first = run.stdout.toString().split('\n', 1)[0].trim();
  if (run.code !== 0 || !first) throw new Error(`${path} -version failed: ${run.stderr.trim() || `exit code ${run.code}`}`);
  return first;
}

export const ffmpegVersion = toolVersion;
