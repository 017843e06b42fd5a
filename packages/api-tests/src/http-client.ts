import { Agent, request } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** A request as Harness.call sends it. */
export interface Sent {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** What came back: the parts of a fetch Response the tests read. */
export interface Received {
  status: number;
  headers: Headers;
  text: string;
}

/** Methods fetch upper-cases; any other is sent as written. */
const normalised = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
/** The headers fetch (Node's undici) adds when the request has none of that name. */
const fetchDefaults: [string, string][] = [
  ['accept', '*/*'],
  ['accept-language', '*'],
  ['sec-fetch-mode', 'cors'],
  ['user-agent', 'node'],
  ['accept-encoding', 'gzip, deflate'],
];
const redirects = new Set([301, 302, 303, 307, 308]);

/**
 * Sends a request exactly as `fetch(url, sent)` would put it on the wire (the same URL
 * normalisation, method, headers and Content-Length) and reads the answer as fetch would (decoded,
 * redirects followed), over node:http. The API tests send tens of thousands of requests, and
 * fetch's web streams, wasm parser and per-request promises cost more CPU than the server
 * spends answering them.
 */
export function send(url: string, sent: Sent, agent: Agent): Promise<Received> {
  const target = new URL(url);
  const upper = sent.method.toUpperCase();
  const method = normalised.has(upper) ? upper : sent.method;
  if (sent.body !== undefined && (method === 'GET' || method === 'HEAD')) throw new TypeError('Request with GET/HEAD method cannot have body.');
  // Headers as fetch merges them: names case-insensitive, repeated names joined.
  const headers = new Headers(sent.headers);
  if (sent.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
  for (const [name, value] of fetchDefaults) if (!headers.has(name)) headers.set(name, value);
  const body = sent.body === undefined ? undefined : Buffer.from(sent.body);
  const out: Record<string, string> = Object.fromEntries(headers);
  if (body) out['content-length'] = String(body.length);
  else if (method === 'POST' || method === 'PUT' || method === 'PATCH') out['content-length'] = '0';
  return new Promise<Received>((resolve, reject) => {
    const req = request(target, { method, headers: out, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const received = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) received.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        const status = res.statusCode!;
        const location = received.get('location');
        if (redirects.has(status) && location !== null) {
          resolve(follow(target, status, location, method, headers, sent.body));
          return;
        }
        try {
          resolve({ status, headers: received, text: new TextDecoder().decode(decoded(Buffer.concat(chunks), received.get('content-encoding'))) });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function decoded(bytes: Buffer, encoding: string | null): Buffer {
  if (!bytes.length) return bytes;
  if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(bytes);
  if (encoding === 'deflate') return inflateSync(bytes);
  if (encoding === 'br') return brotliDecompressSync(bytes);
  return bytes;
}

/** The rest of a redirect chain, as fetch's `redirect: 'follow'` goes on from the first answer. */
async function follow(from: URL, status: number, location: string, method: string, headers: Headers, body: string | undefined): Promise<Received> {
  const next = new URL(location, from);
  const nextHeaders = new Headers(headers);
  let nextMethod = method;
  let nextBody = body;
  if (((status === 301 || status === 302) && method === 'POST') || (status === 303 && method !== 'GET' && method !== 'HEAD')) {
    nextMethod = 'GET';
    nextBody = undefined;
    for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) nextHeaders.delete(name);
  }
  if (next.origin !== from.origin) for (const name of ['authorization', 'cookie', 'proxy-authorization']) nextHeaders.delete(name);
  const res = await fetch(next, { method: nextMethod, headers: nextHeaders, body: nextBody });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
