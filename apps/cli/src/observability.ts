import { Option } from 'commander';
import { createLogger, logSettingsFrom, loggedPath, type Logger, type MetricsListen } from '@reelbase/http';
import { currentRequestId, type ServiceRequest } from '@reelbase/core';
import { envOf, fromEnv } from './context';
import { UsageError } from './errors';
import type { CliIo } from './io';

/** The metrics listener's flags, the same on `serve` and `worker`. */
export const metricsOptions = (): Option[] => [
  new Option('--metrics-port <port>', 'serve Prometheus metrics and /health, /health/ready on this port (env REELBASE_METRICS_PORT; default: off)'),
  new Option('--metrics-host <host>', 'address the metrics port binds (env REELBASE_METRICS_HOST; default 127.0.0.1)'),
];

export interface MetricsFlags {
  metricsPort?: string;
  metricsHost?: string;
}

/** Where the metrics listener binds, or undefined (off) when no port is given. */
export function metricsListenOf(opts: MetricsFlags, io: CliIo): MetricsListen | undefined {
  const env = envOf(io);
  const raw = opts.metricsPort ?? fromEnv(env, 'REELBASE_METRICS_PORT');
  if (raw === undefined) return undefined;
  const port = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`invalid metrics port "${raw}": expected 0 to 65535`);
  return { port, host: opts.metricsHost ?? fromEnv(env, 'REELBASE_METRICS_HOST') ?? '127.0.0.1' };
}

/** The process's logger from REELBASE_LOG_LEVEL and REELBASE_LOG_FORMAT, writing to the command's stdout. */
export function loggerOf(io: CliIo): Promise<Logger> {
  const terminal = io.terminal !== undefined && process.stdout.isTTY === true;
  let settings;
  try {
    settings = logSettingsFrom(envOf(io), terminal);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  // A real process's lines go straight to fd 1 (pino's own writer); a test's io captures them.
  return createLogger(settings, io.screen ? undefined : (text) => io.stdout(text), terminal);
}

/** A bug's report as a log line: its stack, the request's id and its path with secrets removed (never its headers or body). */
export const logUnexpected =
  (logger: Logger) =>
  (error: unknown, request: ServiceRequest): void =>
    logger.error({ err: error, req_id: currentRequestId() ?? null, method: request.method, path: loggedPath(request.url, null) }, 'unexpected error');
