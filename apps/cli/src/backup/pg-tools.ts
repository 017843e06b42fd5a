import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Env } from '../context';

/** Where Debian's PostgreSQL client tools live when they are not on PATH (postgresql-client-15). */
export const debianPgBin = '/usr/lib/postgresql/15/bin';

/** The directory searched after PATH: REELBASE_PG_BIN, else Debian's (which its packages leave off PATH). */
const pgBinOf = (env: Env): string => env.REELBASE_PG_BIN || debianPgBin;

/** A PostgreSQL client tool: on PATH, else in pgBinOf's directory; null when in neither. */
export function pgTool(tool: string, env: Env): string | null {
  for (const dir of [...(env.PATH ?? '').split(delimiter), pgBinOf(env)]) {
    if (!dir) continue;
    try {
      accessSync(join(dir, tool), constants.X_OK);
      return join(dir, tool);
    } catch {
      // Not in this directory.
    }
  }
  return null;
}

/** The schema a store URL's `options=-c search_path=…` picks (the store's tables live there), or null for the default. */
export function schemaOf(url: string): string | null {
  const options = new URL(url).searchParams.get('options') ?? '';
  return /search_path=([A-Za-z_][A-Za-z0-9_]*)/.exec(options)?.[1] ?? null;
}

/** The URL with its password masked, for a command the operator is told to run. */
const shown = (url: string): string => {
  const u = new URL(url);
  if (u.password) u.password = 'PASSWORD';
  return u.toString();
};

/**
 * The URL as libpq reads it: a form-encoded space (`+`, as URLSearchParams writes
 * `options=-c+search_path=…`) is percent-encoded, since libpq decodes only `%XX`.
 */
const libpqUrl = (url: string): string => {
  const u = new URL(url);
  u.search = u.search.replace(/\+/g, '%20');
  return u.toString();
};

/** The pg_dump arguments for a custom-format dump of the store at `url` into `to`. */
export const pgDumpArgs = (url: string, to: string): string[] => ['--format=custom', '--no-owner', ...schemaArgs(url), `--file=${to}`, `--dbname=${libpqUrl(url)}`];

/** pg_restore's arguments: into the store at `url`, replacing its tables (in one transaction). */
export const pgRestoreArgs = (url: string, from: string): string[] => [
  '--no-owner',
  '--single-transaction',
  '--exit-on-error',
  '--clean',
  '--if-exists',
  ...schemaArgs(url),
  `--dbname=${libpqUrl(url)}`,
  from,
];

const schemaArgs = (url: string): string[] => {
  const schema = schemaOf(url);
  return schema ? [`--schema=${schema}`] : [];
};

/** A PostgreSQL client tool is missing: what to install, and the command to run by hand. */
export class MissingPgToolError extends Error {
  override readonly name = 'MissingPgToolError';
  constructor(tool: string, args: string[], env: Env) {
    const command = [tool, ...args.map((a) => (a.startsWith('--dbname=') ? `--dbname='${shown(a.slice('--dbname='.length))}'` : a))].join(' ');
    super(
      `${tool} is neither on PATH nor in ${pgBinOf(env)}. Install PostgreSQL's client tools (Debian: apt-get install postgresql-client; they land in ${debianPgBin}) ` +
        `or set REELBASE_PG_BIN to their directory, or run it yourself:\n    ${command}`,
    );
  }
}

/** Runs `tool` (found by pgTool) with `args`; throws with its stderr when it fails. */
export function runPgTool(tool: string, args: string[], env: Env): Promise<void> {
  const path = pgTool(tool, env);
  if (!path) return Promise.reject(new MissingPgToolError(tool, args, env));
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${tool} failed (exit ${code}): ${stderr.trim()}`))));
  });
}
