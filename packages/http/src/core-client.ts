import { createClient as createBareClient, type Client, type ClientOptions } from '@reelbase/client';
import { operations } from '@reelbase/core';

/**
 * @reelbase/client's `createClient` with @reelbase/core's operation table by default: what this
 * entry point exported before the client became a package that needs nothing of core at run time.
 */
export const createClient = (options: ClientOptions): Client => createBareClient({ ...options, operations: options.operations ?? operations });
