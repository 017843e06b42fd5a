import type { RunningServer } from '@reelbase/http';

/** Where a command writes and what it reads from its surroundings; `run` takes one so tests need no process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Environment variables (REELBASE_STORE, REELBASE_URL, REELBASE_TOKEN, PORT, HOST…); default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Directory relative store paths resolve against; default process.cwd(). */
  cwd?: string;
  /**
   * `serve` only: aborting stops the server gracefully and makes `run` resolve. Without a signal,
   * `serve` installs SIGINT/SIGTERM handlers that close the server and exit the process.
   */
  signal?: AbortSignal;
  /** `serve` only: called once the server listens. */
  onListening?(server: RunningServer): void;
}

/** The io of a real process. */
export const processIo = (): CliIo => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
});

/** Writes one line (a newline is added). */
export const line = (write: (text: string) => void, text = ''): void => write(`${text}\n`);

/** Pretty JSON, the only format `--json` and `api` print. */
export const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
