import { httpTransport as clientHttpTransport, InvalidBaseUrlError, type Transport } from '@reelbase/http';
import { UsageError } from '../errors';

/** The client's HTTP transport, with a bad base URL reported as a usage error (exit code 2). */
export function httpTransport(baseUrl: string): Transport {
  try {
    return clientHttpTransport(baseUrl);
  } catch (e) {
    throw e instanceof InvalidBaseUrlError ? new UsageError(e.message) : e;
  }
}
