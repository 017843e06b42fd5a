import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
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
  stop(): Promise<void>;
}

const file = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * `reelbase serve` as users run it: the built CLI (`npm run bench` builds first), without the
 * per-caller request limit, which would answer 429 to a load generator. `env` adds variables
 * (REELBASE_FILES for a PostgreSQL store).
 */
export function startReelbase(store: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  if (!existsSync(file('../apps/cli/dist/index.js'))) throw new Error('the CLI is not built: run npm run build (npm run bench does)');
  const args = [file('../apps/cli/bin/reelbase.js'), 'serve', '--store', store, '--port', '0', '--host', '127.0.0.1'];
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
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = ready.exec(line);
      if (!match) return;
      // What it prints from now on (request logs) is read and dropped, not parsed.
      lines.close();
      child.stdout!.resume();
      resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`bench server ${name} exited with ${code} before listening:\n${stderr}`)));
  });
  return {
    url,
    startMs: performance.now() - started,
    stderr: () => stderr,
    memory: () => memoryOf(child.pid!),
    cpuSeconds: () => cpuOf(child.pid!),
    stop: () => stop(child),
  };
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

function cpuOf(pid: number): number | null {
  try {
    // utime and stime (fields 14 and 15, in USER_HZ ticks of 1/100 s), counted after the command name, which may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}
