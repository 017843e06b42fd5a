import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { crashServerCommand } from './bundled-commands';
import { hangGuardMs } from './hang-guard';

/** A reelbase server in its own process (src/crash-server.ts, bundled), for tests that kill or signal it. */
export interface ServerProcess {
  child: ChildProcess;
  base: string;
  token: string;
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Starts the server on a store file (`kind` sqlite or json); with `token`, reuses the user of an earlier run; `env` adds variables (REELBASE_DRAIN_SECONDS). */
export function startServerProcess(kind: string, path: string, token?: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...crashServerCommand, kind, path, ...(token ? [token] : [])], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its stderr stays readable for tests (signal messages); by default it passes through.
  child.stderr!.pipe(process.stderr);
  return new Promise((resolve, reject) => {
    // A server that never says it listens is killed: left running, it would hold the test's
    // process open (its pipes) after the test failed, and the suite would never end.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start within ${hangGuardMs / 1000} s`));
    }, hangGuardMs);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^listening (\d+) (\S+)$/.exec(line);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ child, base: `http://127.0.0.1:${m[1]}`, token: m[2] });
    });
  });
}

/** Resolves once the process has exited, SIGKILLing it first if it is still running. */
export const killed = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

/** A `PATCH /me` the server has taken (Expect: 100-continue) whose body is held back: in flight while a signal lands. */
export interface PatchInFlight {
  /** Sends the body; answers the response. */
  send(): Promise<{ status: number; text: string }>;
}

/** Starts a PATCH of `bio` to `/me` on `server`, answered once the server has taken it (its 100 Continue). */
export async function patchInFlight(server: ServerProcess, bio: string): Promise<PatchInFlight> {
  const body = JSON.stringify({ bio });
  const req = request(`${server.base}/me`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
  });
  const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
  });
  await new Promise<void>((resolve) => req.once('continue', () => resolve()));
  return {
    send() {
      req.end(body);
      return answered;
    },
  };
}
