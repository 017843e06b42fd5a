import { createService, type Service, type ServiceConfig, type ServiceRequest } from '@reelbase/core';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from './errors';
import { line, type CliIo } from './io';
import { limitsFromEnv } from './service-limits';
import { identityFromEnv } from './identity-env';
import { jobRetentionFromEnv } from './job-retention-env';
import { geoipFromEnv } from './geoip-env';
import { describeStore, openStore, storeSpecFrom, type StoreSpec } from './store-spec';

export type Env = Readonly<Record<string, string | undefined>>;

export const envOf = (io: CliIo): Env => io.env ?? process.env;
export const cwdOf = (io: CliIo): string => io.cwd ?? process.cwd();

/** A variable's value, treating an empty one as unset. */
export const fromEnv = (env: Env, name: string): string | undefined => env[name] || undefined;

/** Service settings the environment may change: REELBASE_BASE_URL is the origin of absolute links; limits (see limitsFromEnv); sign-in (identityFromEnv); how long finished jobs are kept (jobRetentionFromEnv); the GeoIP database (geoipFromEnv). */
export function serviceConfig(env: Env): Partial<ServiceConfig> {
  const baseUrl = fromEnv(env, 'REELBASE_BASE_URL');
  return { ...(baseUrl ? { baseUrl: baseUrl.replace(/\/+$/, '') } : {}), ...limitsFromEnv(env), ...identityFromEnv(env), ...jobRetentionFromEnv(env), ...geoipFromEnv(env) };
}

/**
 * For tests only: REELBASE_TEST_CLOCK=2030-01-01T00:00:00Z stops the service's clock at that
 * instant, so that tests driving separate server processes can pin rate-limit windows and make a
 * pre-order's time come. Unset (always, outside tests): the system clock.
 */
export function testClock(env: Env): (() => Date) | undefined {
  const value = fromEnv(env, 'REELBASE_TEST_CLOCK');
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (!/^\d{4}-\d\d-\d\dT/.test(value) || Number.isNaN(time)) throw new UsageError(`REELBASE_TEST_CLOCK: "${value}" is not an ISO 8601 time such as 2030-01-01T00:00:00Z`);
  return () => new Date(time);
}

/**
 * Opens the store a command names (--store, REELBASE_STORE or the default) as a service; `overrides`
 * are settings its flags gave; `onError`: where unexpected errors (bugs) go, default the terminal's stderr.
 */
export async function openService(
  io: CliIo,
  storeFlag: string | undefined,
  overrides: Partial<ServiceConfig> = {},
  onError: (e: unknown, request: ServiceRequest) => void = (e) => io.stderr(`reelbase: unexpected error: ${(e as Error)?.stack ?? String(e)}\n`),
): Promise<{ service: Service; target: string; filesDir: string }> {
  const env = envOf(io);
  const spec = storeSpecFrom(storeFlag, env, cwdOf(io));
  const store = await openStore(spec, { progress: (text) => line(io.stderr, text) });
  const service = createService({
    store,
    clock: testClock(env),
    config: { ...serviceConfig(env), ...overrides },
    onError,
  });
  return { service, target: describeStore(spec), filesDir: filesDirOf(spec, env, cwdOf(io)) };
}

/**
 * Where a store's video files live: `flag` (a command's --files), else REELBASE_FILES, else files/
 * next to its database (./data/files for a PostgreSQL one); an in-memory store uses a temporary
 * directory.
 */
export function filesDirOf(spec: StoreSpec, env: Env, cwd: string, flag?: string): string {
  const beside = spec.path ? join(dirname(spec.path), 'files') : spec.driver === 'postgres' ? join('data', 'files') : undefined;
  const dir = flag ?? fromEnv(env, 'REELBASE_FILES') ?? beside ?? join(tmpdir(), `reelbase-files-${process.pid}`);
  return resolve(cwd, dir);
}

/**
 * The files directory of a store that outlives the command (a file, or a PostgreSQL database,
 * whose files live outside it); undefined for an in-memory store, whose files are not worth keeping.
 */
export const keptFilesDirOf = (spec: StoreSpec, env: Env, cwd: string, flag?: string): string | undefined =>
  spec.path !== null || spec.driver === 'postgres' ? filesDirOf(spec, env, cwd, flag) : undefined;

/** Runs `fn` on an opened service and always closes its store. */
export async function withService<R>(io: CliIo, storeFlag: string | undefined, fn: (service: Service) => Promise<R>): Promise<R> {
  const { service } = await openService(io, storeFlag);
  try {
    return await fn(service);
  } finally {
    await service.close();
  }
}
