import { createService, type Service, type ServiceConfig } from '@reelbase/core';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { CliIo } from './io';
import { limitsFromEnv } from './service-limits';
import { describeStore, openStore, storeSpecFrom, type StoreSpec } from './store-spec';

export type Env = Readonly<Record<string, string | undefined>>;

export const envOf = (io: CliIo): Env => io.env ?? process.env;
export const cwdOf = (io: CliIo): string => io.cwd ?? process.cwd();

/** A variable's value, treating an empty one as unset. */
export const fromEnv = (env: Env, name: string): string | undefined => env[name] || undefined;

/** Service settings the environment may change: REELBASE_BASE_URL is the origin of absolute links; limits (see limitsFromEnv). */
export function serviceConfig(env: Env): Partial<ServiceConfig> {
  const baseUrl = fromEnv(env, 'REELBASE_BASE_URL');
  return { ...(baseUrl ? { baseUrl: baseUrl.replace(/\/+$/, '') } : {}), ...limitsFromEnv(env) };
}

/** Opens the store a command names (--store, REELBASE_STORE or the default) as a service. */
export async function openService(io: CliIo, storeFlag: string | undefined): Promise<{ service: Service; target: string; filesDir: string }> {
  const env = envOf(io);
  const spec = storeSpecFrom(storeFlag, env, cwdOf(io));
  const store = await openStore(spec);
  const service = createService({
    store,
    config: serviceConfig(env),
    onError: (e) => io.stderr(`reelbase: unexpected error: ${(e as Error)?.stack ?? String(e)}\n`),
  });
  return { service, target: describeStore(spec), filesDir: filesDirOf(spec, env, cwdOf(io)) };
}

/**
 * Where a store's video files live: REELBASE_FILES, else files/ next to its database (./data/files
 * for a PostgreSQL one); an in-memory store uses a temporary directory.
 */
export function filesDirOf(spec: StoreSpec, env: Env, cwd: string): string {
  const beside = spec.path ? join(dirname(spec.path), 'files') : spec.driver === 'postgres' ? join('data', 'files') : undefined;
  const dir = fromEnv(env, 'REELBASE_FILES') ?? beside ?? join(tmpdir(), `reelbase-files-${process.pid}`);
  return resolve(cwd, dir);
}

/** Runs `fn` on an opened service and always closes its store. */
export async function withService<R>(io: CliIo, storeFlag: string | undefined, fn: (service: Service) => Promise<R>): Promise<R> {
  const { service } = await openService(io, storeFlag);
  try {
    return await fn(service);
  } finally {
    await service.close();
  }
}
