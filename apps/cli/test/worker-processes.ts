import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const tsx = import.meta.resolve('tsx');

export interface CliProcess {
  child: ChildProcess;
  /** Every line it printed on stdout so far. */
  lines: string[];
}

/**
 * `reelbase <args>` in a process of its own with exactly `env` (plus PATH), answered once a line
 * of its stdout matches `ready` (the server's "Stop with Ctrl-C.", a worker's first line).
 */
export async function startCli(args: string[], env: Record<string, string>, ready: RegExp, cwd: string): Promise<CliProcess> {
  const child = spawn(process.execPath, ['--import', tsx, '--conditions=source', entry, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  child.stderr!.pipe(process.stderr);
  const lines: string[] = [];
  const exited = once(child, 'exit').then(([code]) => Promise.reject(new Error(`reelbase ${args[0]} exited with ${code} before it was ready:\n${lines.join('\n')}`)));
  const started = new Promise<CliProcess>((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (ready.test(line)) resolve({ child, lines });
    });
  });
  return Promise.race([started, exited]);
}

/** SIGTERM, and the exit code it ended with. */
export async function stopCli({ child }: CliProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exit = once(child, 'exit');
  child.kill('SIGTERM');
  return (await exit)[0] as number | null;
}

/** SIGKILL: the process dies at once, whatever it was doing. */
export async function killCli({ child }: CliProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = once(child, 'exit');
  child.kill('SIGKILL');
  await exit;
}

/** The URL a `reelbase serve` process printed. */
export const servedUrl = (p: CliProcess): string => /^reelbase serving (\S+) /.exec(p.lines.find((l) => l.startsWith('reelbase serving')) ?? '')![1];
