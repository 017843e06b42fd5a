import type { RunningServer } from '@reelbase/http';
import type { Clock } from './batch/clock';

/** Where a command writes and what it reads from its surroundings; `run` takes one so tests need no process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Environment variables (REELBASE_STORE, REELBASE_URL, REELBASE_TOKEN, PORT, HOST…); default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Directory relative store paths resolve against; default process.cwd(). */
  cwd?: string;
  /** What `import` reads a dump from without --file; default process.stdin. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /**
   * Aborting stops `serve` gracefully and makes `run` resolve; batch work (`batch`, `follow`,
   * `tags`) stops starting requests and records those in flight. Without a signal, both install
   * SIGINT/SIGTERM handlers instead.
   */
  signal?: AbortSignal;
  /** `serve` only: called once the server listens. */
  onListening?(server: RunningServer): void;
  /** The process's stderr when Ink may draw on it (progress bars); absent when output is captured. */
  terminal?: NodeJS.WriteStream;
  /** The process's keyboard and screen for full-screen interfaces (`tui`); absent when output is captured. */
  screen?: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream };
  /** Time for back-off waits in batch work; default the system clock. Tests inject one that never waits. */
  clock?: Clock;
}

/** The io of a real process. */
export const processIo = (): CliIo => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  terminal: process.stderr,
  screen: { stdin: process.stdin, stdout: process.stdout },
});

/** Writes one line (a newline is added). */
export const line = (write: (text: string) => void, text = ''): void => write(`${text}\n`);

/** Pretty JSON, the only format `--json` and `api` print. */
export const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
