import { ApiError, codes } from './errors';
import type { FileReply } from './operation';

/** What a transport hands the service: one HTTP-shaped request, unparsed. */
export interface ServiceRequest {
  method: string;
  /** Path plus query string, e.g. `/videos/7?fields=uri,name`. */
  url: string;
  /** Header names in lower case. */
  headers?: Record<string, string | string[] | undefined>;
  body?: string | Uint8Array;
  /** Origin used for absolute links (`http://host:port`); the transport knows it, core does not. */
  baseUrl?: string;
  /** The video files, when the transport has them (completing a streaming upload needs them). */
  blobs?: import('../blobs/blob-store').BlobAccess;
  /** Image, frame and caption tools, when the transport has them. */
  media?: import('../media/media-tools').MediaTools;
  /** The caller's network address, whose allowance anonymous requests spend (rate limiting); none in-process. */
  clientAddress?: string;
}

/**
 * What answered a request, for the transport's log line and metrics: the operation's id and the
 * path template it matched (never the raw path, which holds ids), and the caller. Null where no
 * operation matched or nobody was identified.
 */
export interface Served {
  operation: string | null;
  route: string | null;
  user: string | null;
  app: string | null;
}

/** What the service answers; `body` is a JSON value, or undefined for an empty body. */
export interface ServiceResponse {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  /** A blob the transport streams (honouring Range) in place of a body. */
  file?: FileReply;
  /** An HTML page (text/html) in place of a JSON body. */
  html?: string;
  /** Bytes made in memory, typed, in place of a JSON body. */
  bytes?: { data: Uint8Array; type: string };
  /** Background work to start after answering (see Reply.tasks). */
  tasks?: { kind: 'pull'; upload: string; link: string }[];
  /** Which operation answered and for whom (absent on answers made outside `handle`). */
  served?: Served;
}

export type BodyKind = 'json' | 'form' | 'none';

export interface ParsedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The query string as sent, without `?`, to rebuild paging links. */
  search: URLSearchParams;
  headers: Record<string, string>;
  bodyKind: BodyKind;
  /** JSON as parsed, or a form nested by its dot-notation names. */
  body: unknown;
}

const maxDepth = 16;
const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype']);

/** One header of a request by its lower-case name; repeated values joined with `, `. */
export const headerOf = (headers: ServiceRequest['headers'], name: string): string | undefined => {
  const v = headers?.[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** `rawBody`: the body is a file for the operation to read, not parameters. */
export function parseRequest(req: ServiceRequest, rawBody = false): ParsedRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers ?? {})) {
    const value = headerOf(req.headers, k) ?? (v as undefined);
    if (value !== undefined) headers[k.toLowerCase()] = value;
  }
  const q = req.url.indexOf('?');
  const rawPath = q < 0 ? req.url : req.url.slice(0, q);
  const search = new URLSearchParams(q < 0 ? '' : req.url.slice(q + 1));
  const query: Record<string, string> = {};
  for (const [k, v] of search) query[k] = v;
  const text = rawBody ? '' : typeof req.body === 'string' ? req.body : req.body ? Buffer.from(req.body).toString('utf8') : '';
  const contentType = (headers['content-type'] ?? '').toLowerCase();
  let bodyKind: BodyKind = 'none';
  let body: unknown;
  if (text.trim() !== '') {
    if (/^application\/([\w.+-]*\+)?json\b/.test(contentType)) {
      bodyKind = 'json';
      try {
        body = JSON.parse(text);
      } catch (e) {
        throw new ApiError(400, codes.badBody, 'The request body could not be read.', `Malformed JSON body: ${(e as Error).message}`);
      }
      checkDepth(body, 0);
    } else {
      bodyKind = 'form';
      body = nestForm(new URLSearchParams(text));
    }
  }
  return { method: req.method.toUpperCase(), path: normalisePath(rawPath), query, search, headers, bodyKind, body };
}

/** The path of a request URL as the router sees it. */
export const requestPath = (url: string): string => {
  const q = url.indexOf('?');
  return normalisePath(q < 0 ? url : url.slice(0, q));
};

function normalisePath(raw: string): string {
  // Most paths have nothing to undo (no escape, no doubled or trailing slash): routed as they are,
  // twice a request, without a decode and a regular expression's replace each time.
  if (raw !== '' && !raw.includes('%') && !raw.includes('//') && (raw.length === 1 || !raw.endsWith('/'))) return raw;
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    path = raw;
  }
  path = path.replace(/\/{2,}/g, '/');
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path || '/';
}

function checkDepth(value: unknown, depth: number): void {
  if (depth > maxDepth) {
    throw new ApiError(400, codes.badBody, 'The request body could not be read.', `The JSON body nests deeper than ${maxDepth} levels.`);
  }
  if (value && typeof value === 'object') for (const v of Object.values(value)) checkDepth(v, depth + 1);
}

/** `privacy.view=x&name=y` → `{ privacy: { view: 'x' }, name: 'y' }` (SPEC.md request convention 3). */
export function nestForm(params: Iterable<[string, string]>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, value] of params) {
    const parts = name.split('.');
    if (parts.length > maxDepth || parts.some((p) => p === '' || forbiddenKeys.has(p))) {
      throw new ApiError(400, codes.invalidInput, 'Something about your request was invalid.', `Invalid parameter name "${name}".`, [
        { field: name, error_code: codes.invalidInput, error: 'Invalid parameter name.', developer_message: `Invalid parameter name "${name}".` },
      ]);
    }
    let node = root;
    for (let i = 0; i < parts.length - 1; i++) {
      const next = node[parts[i]];
      if (next === undefined) node = node[parts[i]] = {} as Record<string, unknown>;
      else if (typeof next === 'object' && next !== null) node = next as Record<string, unknown>;
      else throw conflict(name);
    }
    const leaf = parts[parts.length - 1];
    if (typeof node[leaf] === 'object' && node[leaf] !== null) throw conflict(name);
    node[leaf] = value;
  }
  return root;
}

const conflict = (name: string): ApiError =>
  new ApiError(400, codes.invalidInput, 'Something about your request was invalid.', `Parameter "${name}" is given both as a value and as an object.`, [
    { field: name, error_code: codes.invalidInput, error: 'Conflicting parameter.', developer_message: `"${name}" conflicts with another parameter.` },
  ]);
