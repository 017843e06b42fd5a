import { ClientUsageError, createClient, type CallParams, type Client, type TransportResponse } from '@reelbase/http';
import { envOf, fromEnv, openService } from './context';
import { UsageError } from './errors';
import type { CliIo } from './io';
import { httpTransport } from './transport/http';
import { inProcessTransport } from './transport/in-process';

/** The flags every client command shares. */
export interface TargetOptions {
  token?: string;
  baseUrl?: string;
  store?: string;
  apiVersion?: string;
}

/**
 * The client a command talks through: over HTTP with --base-url (or REELBASE_URL), otherwise
 * in-process on --store (or REELBASE_STORE, or the default store). The token comes from --token
 * or REELBASE_TOKEN.
 */
export async function openClient(io: CliIo, opts: TargetOptions): Promise<Client> {
  const env = envOf(io);
  const token = opts.token ?? fromEnv(env, 'REELBASE_TOKEN');
  if (opts.apiVersion !== undefined && !/^\d+\.\d+(\.\d+)?$/.test(opts.apiVersion)) {
    throw new UsageError(`--api-version expects a version like 3.2 (got "${opts.apiVersion}")`);
  }
  const baseUrl = opts.baseUrl ?? (opts.store === undefined ? fromEnv(env, 'REELBASE_URL') : undefined);
  if (baseUrl !== undefined) return createClient({ transport: httpTransport(baseUrl), token, apiVersion: opts.apiVersion });
  const { service, target } = await openService(io, opts.store);
  return createClient({ transport: inProcessTransport(service, target), token, apiVersion: opts.apiVersion });
}

/** `client.call` with the client's usage errors (unknown id, missing path variable) as exit code 2. */
export async function callOrUsage(client: Client, id: string, params: CallParams): Promise<TransportResponse> {
  try {
    return await client.call(id, params);
  } catch (e) {
    throw e instanceof ClientUsageError ? new UsageError(e.message) : e;
  }
}
