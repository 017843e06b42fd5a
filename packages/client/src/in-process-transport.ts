import type { Service } from '@reelbase/core';
import { pathWithQuery, requestHeaders, type Transport } from './transport';

/**
 * Calls `service.handle` directly: no socket, the same answers as over HTTP. The token travels
 * in the Authorization header, as it would over the wire.
 */
export function inProcessTransport(service: Service, target = 'in-process'): Transport {
  return {
    target,
    async request(request) {
      const answer = await service.handle(undefined, {
        method: request.method.toUpperCase(),
        url: pathWithQuery(request.path, request.query),
        headers: requestHeaders(request),
        body: request.body,
        baseUrl: service.config.baseUrl,
      });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers)) headers[name.toLowerCase()] = value;
      return { status: answer.status, headers, body: answer.body };
    },
    close: () => service.close(),
  };
}
