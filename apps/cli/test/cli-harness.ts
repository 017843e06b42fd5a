import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { RunningServer } from '@reelbase/http';
import { run, type CliIo } from '../src/index';

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** A temporary directory the commands run in; relative store paths land inside it. */
export function tempDir(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'reelbase-cli-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A temporary directory for the tests of the enclosing describe: made before them, removed after
 * them. Its path is `.dir`, there once the describe's tests and hooks run.
 */
export function useTempDir(): { readonly dir: string } {
  let made: ReturnType<typeof tempDir> | undefined;
  before(() => void (made = tempDir()));
  after(() => made?.cleanup());
  return {
    get dir() {
      if (!made) throw new Error('useTempDir: .dir is there in tests and hooks, not while describing them');
      return made.dir;
    },
  };
}

/** Runs one command line in-process with captured output and an empty environment. */
export async function cli(argv: string[], io: Partial<CliIo> = {}): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    env: {},
    ...io,
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  return { code, stdout, stderr };
}

/** Parses stdout as JSON, failing with the whole outcome when it is not. */
export function stdoutJson(outcome: Outcome): any {
  try {
    return JSON.parse(outcome.stdout);
  } catch {
    throw new Error(`stdout is not JSON (exit ${outcome.code}):\n${outcome.stdout}\nstderr:\n${outcome.stderr}`);
  }
}

/** `reelbase serve` running in-process until `stop()`, with `env` as its environment; its output is captured. */
export async function startServe(argv: string[], cwd: string, env: Record<string, string> = {}): Promise<{ server: RunningServer; output(): string; stop(): Promise<Outcome> }> {
  const abort = new AbortController();
  let onListening!: (server: RunningServer) => void;
  const listening = new Promise<RunningServer>((resolve) => (onListening = resolve));
  let stdout = '';
  let stderr = '';
  const done = run(['serve', ...argv], {
    env,
    cwd,
    signal: abort.signal,
    onListening,
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  const server = await Promise.race([
    listening,
    done.then((code) => Promise.reject(new Error(`serve exited with ${code} before listening:\n${stdout}\n${stderr}`))),
  ]);
  return {
    server,
    output: () => stdout,
    async stop() {
      abort.abort();
      const code = await done;
      return { code, stdout, stderr };
    },
  };
}

/** The one-time token `serve` prints on its first run. */
export function printedToken(output: string): string {
  const match = /Bearer ([A-Za-z0-9_-]{40,})/.exec(output);
  if (!match) throw new Error(`no token in serve output:\n${output}`);
  return match[1];
}
