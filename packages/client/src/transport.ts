/**
 * One request to the reelbase API, independent of how it travels. The client (and through it the
 * CLI and the TUI) speaks only this; `inProcessTransport` and `httpTransport` carry it.
 */
export interface TransportRequest {
  method: string;
  /** Path, optionally with a query string: `/me/videos?fields=uri`. */
  path: string;
  /** Extra query parameters, appended to any already in `path`. */
  query?: Iterable<readonly [string, string]>;
  /** The body as sent; use `jsonBody` / `formBody` to build it with its content type. */
  body?: string;
  contentType?: string;
  /** Extra request headers (any case), e.g. `authorization`, `accept`. */
  headers?: Record<string, string>;
}

export interface TransportResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** Parsed JSON; the raw text when a body is not JSON; undefined when empty. */
  body: unknown;
}

export interface Transport {
  request(request: TransportRequest): Promise<TransportResponse>;
  /** Where requests go, for messages: `http://127.0.0.1:8080` or `sqlite:/path/reelbase.db`. */
  readonly target: string;
  /** Releases what the transport holds (the store of an in-process transport). */
  close(): Promise<void>;
}

/** A JSON body with its content type. */
export const jsonBody = (value: unknown): Pick<TransportRequest, 'body' | 'contentType'> => ({
  body: JSON.stringify(value),
  contentType: 'application/json',
});

/** An urlencoded body; keys go as given, so dot notation (`privacy.view`) nests on the server. */
export const formBody = (pairs: Iterable<readonly [string, string]>): Pick<TransportRequest, 'body' | 'contentType'> => ({
  body: searchParams(pairs).toString(),
  contentType: 'application/x-www-form-urlencoded',
});

/** `path` with `query` appended (`?` or `&` as needed). */
export function pathWithQuery(path: string, query: TransportRequest['query']): string {
  const extra = query ? searchParams(query).toString() : '';
  if (!extra) return path;
  return `${path}${path.includes('?') ? (path.endsWith('?') || path.endsWith('&') ? '' : '&') : '?'}${extra}`;
}

/** Request headers with lower-case names and the content type filled in. */
export function requestHeaders(request: TransportRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  if (request.contentType && request.body !== undefined) headers['content-type'] = request.contentType;
  return headers;
}

const searchParams = (pairs: Iterable<readonly [string, string]>): URLSearchParams => {
  const params = new URLSearchParams();
  for (const [name, value] of pairs) params.append(name, value);
  return params;
};
