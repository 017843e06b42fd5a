import { pathWithQuery, requestHeaders, type Transport } from './transport';

/** A base URL that is not an http(s) URL. */
export class InvalidBaseUrlError extends Error {
  override readonly name = 'InvalidBaseUrlError';
}

/** Talks to a running server with the global fetch. `baseUrl` may carry a path prefix (`https://host/api`). */
export function httpTransport(baseUrl: string): Transport {
  let origin: URL;
  try {
    origin = new URL(baseUrl);
  } catch {
    throw new InvalidBaseUrlError(`invalid base URL "${baseUrl}"`);
  }
  if (origin.protocol !== 'http:' && origin.protocol !== 'https:') throw new InvalidBaseUrlError(`base URL "${baseUrl}" must be http or https`);
  const prefix = origin.href.replace(/\/+$/, '');
  return {
    target: prefix,
    async request(request) {
      const method = request.method.toUpperCase();
      const url = prefix + pathWithQuery(request.path, request.query);
      let res: Response;
      try {
        res = await fetch(url, { method, headers: requestHeaders(request), body: request.body });
      } catch (e) {
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        throw new Error(`cannot reach ${prefix}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
      }
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => (headers[name] = value));
      const text = await res.text();
      return { status: res.status, headers, body: parseBody(text, headers['content-type']) };
    },
    close: async () => {},
  };
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  if (contentType && /json/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
