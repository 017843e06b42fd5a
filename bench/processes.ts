import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A server under test in its own process, so its memory and event loop are its own. */
export interface ServerProcess {
  url: string;
  /** Wall time from spawning the process to its listening (node start and module loading included). */
  startMs: number;
  /** What it wrote on stderr so far (warnings). */
  stderr(): string;
  /** Resident memory now and at its peak, in MiB (Linux /proc; null elsewhere). */
  memory(): { rss: number; peak: number } | null;
  /** CPU seconds (user + system) it used so far (Linux /proc; null elsewhere). */
  cpuSeconds(): number | null;
  /** The same by thread: `main`, and the others (V8's GC helpers, libuv's pool) by name, `others` when unnamed; live threads only. */
  threadSeconds(): Record<string, number> | null;
  stop(): Promise<void>;
}

const file = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * `reelbase serve` as users run it: the built CLI (`npm run bench` builds first), without the
 * per-caller request limit, which would answer 429 to a load generator. `env` adds variables
 * (REELBASE_FILES for a PostgreSQL store). `how.node` adds node's own flags (`--cpu-prof`, which
 * NODE_OPTIONS does not take); `how.checkout` runs another built checkout's CLI (a before/after).
 */
export function startReelbase(store: string, env: Record<string, string> = {}, how: { node?: string[]; checkout?: string } = {}): Promise<ServerProcess> {
  const cli = (path: string) => (how.checkout ? join(how.checkout, path) : file(`../${path}`));
  if (!existsSync(cli('apps/cli/dist/index.js'))) throw new Error('the CLI is not built: run npm run build (npm run bench does)');
  const args = [...(how.node ?? []), cli('apps/cli/bin/reelbase.js'), 'serve', '--store', store, '--port', '0', '--host', '127.0.0.1'];
  // No drain: a bench stops servers by the dozen, and no balancer needs telling.
  return start('reelbase', args, /^reelbase serving (http:\/\/\S+)/, { REELBASE_DRAIN_SECONDS: '0', ...env, REELBASE_RATE_LIMIT: 'off' });
}

/** A peer, `bench/servers/<script>.ts` with `args`. */
export const startPeer = (script: 'bare' | 'json-server' | 's3rver', args: string[]): Promise<ServerProcess> =>
  start(script, ['--import', 'tsx', file(`./servers/${script}.ts`), ...args], /^(http:\/\/\S+)$/);

/** Servers started one after another; if one fails to start, those already started are stopped. */
export async function startAll(starts: (() => Promise<ServerProcess>)[]): Promise<ServerProcess[]> {
  const started: ServerProcess[] = [];
  try {
    for (const start of starts) started.push(await start());
    return started;
  } catch (e) {
    await stopAll(started);
    throw e;
  }
}

export const stopAll = async (servers: ServerProcess[]): Promise<void> => void (await Promise.all(servers.map((s) => s.stop())));

async function start(name: string, args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<ServerProcess> {
  const started = performance.now();
  // stdout to a file, as a deployment sends it to a file or journald: a pipe this process read would
  // put the bench's own reading of every request log line on the 2 cores it measures.
  const outDir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const outFile = join(outDir, 'stdout');
  const out = openSync(outFile, 'w');
  const child = spawn(process.execPath, args, { stdio: ['ignore', out, 'pipe'], env: { ...process.env, ...env } });
  closeSync(out);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`bench server ${name} exited with ${code} before listening:\n${stderr}`));
      child.once('exit', exited);
      const look = () => {
        const match = readFileSync(outFile, 'utf8').split('\n').map((line) => ready.exec(line)).find(Boolean);
        if (!match) return void (timer = setTimeout(look, 5));
        child.off('exit', exited);
        resolve(match[1]);
      };
      let timer = setTimeout(look, 5);
      child.once('exit', () => clearTimeout(timer));
    });
    return {
      url,
      startMs: performance.now() - started,
      stderr: () => stderr,
      memory: () => memoryOf(child.pid!),
      cpuSeconds: () => cpuOf(child.pid!),
      threadSeconds: () => threadsOf(child.pid!),
      stop: () => stop(child).finally(() => rmSync(outDir, { recursive: true, force: true })),
    };
  } catch (e) {
    rmSync(outDir, { recursive: true, force: true });
    throw e;
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** utime and stime of a /proc stat file (fields 14 and 15, in USER_HZ ticks of 1/100 s), counted after the command name, which may hold spaces. */
function statSeconds(path: string): number {
  const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function cpuOf(pid: number): number | null {
  try {
    return statSeconds(`/proc/${pid}/stat`);
  } catch {
    return null;
  }
}

function threadsOf(pid: number): Record<string, number> | null {
  try {
    const byName: Record<string, number> = {};
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        // Node 20 names every thread `node`: the main thread is told by its id, the others by name where they have one.
        const name = task === String(pid) ? 'main' : readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim().replace(/^node$/, 'others');
        byName[name] = (byName[name] ?? 0) + statSeconds(`/proc/${pid}/task/${task}/stat`);
      } catch {
        // The thread ended between the listing and the reading.
      }
    }
    return byName;
  } catch {
    return null;
  }
}
