import { ClientUsageError, createClient, type CallParams, type Client, type TransportResponse } from '@reelbase/http';
import { openService } from './context';
import { UsageError } from './errors';
import type { CliIo } from './io';
import { resolveTarget, type Target, type TargetOptions } from './target';
import { httpTransport } from './transport/http';
import { inProcessTransport } from './transport/in-process';

export type { Target, TargetOptions } from './target';

/**
 * The client a command talks through, on the target `resolveTarget` picks from the flags,
 * the environment and the saved profiles: over HTTP to a server, or in-process on a store.
 */
export async function openClient(io: CliIo, opts: TargetOptions): Promise<Client> {
  checkApiVersion(opts.apiVersion);
  return connect(io, await resolveTarget(io, opts), opts.apiVersion);
}

/** A client for an already resolved target. */
export async function connect(io: CliIo, target: Target, apiVersion?: string): Promise<Client> {
  const { token } = target;
  if (target.baseUrl !== undefined) return createClient({ transport: httpTransport(target.baseUrl), token, apiVersion });
  const { service, target: described } = await openService(io, target.store);
  return createClient({ transport: inProcessTransport(service, described), token, apiVersion });
}

export function checkApiVersion(apiVersion: string | undefined): void {
  if (apiVersion !== undefined && !/^\d+\.\d+(\.\d+)?$/.test(apiVersion)) {
    throw new UsageError(`--api-version expects a version like 3.2 (got "${apiVersion}")`);
  }
}

/** `client.call` with the client's usage errors (unknown id, missing path variable) as exit code 2. */
export async function callOrUsage(client: Client, id: string, params: CallParams): Promise<TransportResponse> {
  try {
    return await client.call(id, params);
  } catch (e) {
    throw e instanceof ClientUsageError ? new UsageError(e.message) : e;
  }
}
