import { createRouter, type Operation } from '@reelbase/core';
import type { Answer, Harness } from './harness';

/**
 * A crawl of the API's own links (issue 22, "Compatibility" item 3: no dead connection), as one
 * viewer receives them: every `uri`/`…_uri`, every `link`/`…_link` on this server's origin and
 * every paging link of every JSON answer is followed, breadth first, each URL once. Media files
 * (`/media/`, `/static/`) are the media crawler's; upload links (`/uploads/`) are capabilities
 * for other methods than GET and are left alone.
 */

/** How a representation handed a URL out. */
export interface Handed {
  /** Where: the kind of the answer and the key path inside it (`video: metadata.connections.albums`). */
  where: string;
  /** The answer it was found in. */
  from: string;
  /** `options` of a connection or interaction: the methods it says the URL takes. */
  options?: string[];
  /** `added` of an interaction: false says the GET answers 404 (not liked, not followed…). */
  added?: boolean;
  /** `total` of a connection. */
  total?: number;
}

/** What is wrong with one handed-out URL, as a line of the report. */
export interface Dead {
  url: string;
  pattern: string;
  status: number;
  where: string;
  from: string;
  problem: string;
}

export interface CrawlResult {
  /** Every URL requested, with its status. */
  visited: Map<string, number>;
  /** Visits by URL pattern (ids replaced by `{id}`), the diagnostics. */
  patterns: Map<string, number>;
  dead: Dead[];
  /** Whether the bound stopped the crawl before the queue emptied. */
  truncated: boolean;
}

/**
 * A URL's pattern: the path of the operation that answers it (`/videos/{video_id}/albums`), or for
 * a path no operation answers, the path with numeric segments and the world's named values
 * replaced (`/albums/{id}`); query parameters by name only.
 */
export function patternOf(url: string, route: Router, names: Record<string, string> = {}): string {
  const [path, query] = url.split('?');
  const segments = path.split('/').filter(Boolean);
  const found = route('GET', path);
  const template =
    found.kind === 'found'
      ? found.op.paths.map((p) => p.split('/').filter(Boolean)).find((t) => t.length === segments.length && t.every((s, i) => s.startsWith('{') || s === segments[i]))
      : undefined;
  const byValue = new Map(Object.entries(names).map(([name, value]) => [value, `{${name}}`]));
  const shown = template ?? segments.map((s) => (/^\d+$/.test(s) ? '{id}' : byValue.get(s) ?? (/^[0-9a-f]{10,}$/.test(s) ? '{key}' : s)));
  const keys = query ? [...new URLSearchParams(query).keys()].sort() : [];
  return `/${shown.join('/')}${keys.length ? `?${keys.join('&')}` : ''}`;
}

type Router = ReturnType<typeof createRouter>;

const skipped = /^\/(?:media|static|uploads)\//;

/** The path (with its query, without its fragment) of a link on `origin`, or null for a link elsewhere or not to crawl. */
export function ownPath(value: string, origin: string): string | null {
  let path: string;
  if (value.startsWith('/') && !value.startsWith('//')) path = value;
  else if (value.startsWith(`${origin}/`)) path = value.slice(origin.length);
  else return null;
  path = path.split('#')[0];
  return skipped.test(path) || path.includes('{') ? null : path;
}

const isLinkKey = (key: string): boolean => key === 'uri' || key.endsWith('_uri') || key === 'link' || key.endsWith('_link');

/** Calls `found` for every link of a JSON answer with how it was handed out. */
export function linksOf(body: unknown, kind: string, origin: string, found: (path: string, how: Omit<Handed, 'from'>) => void): void {
  const walk = (value: unknown, at: string[]): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, at);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const o = value as Record<string, unknown>;
    // A connection or an interaction: its uri comes with the methods it takes, its total or whether it was added.
    const described = typeof o.uri === 'string' && Array.isArray(o.options);
    for (const [key, v] of Object.entries(o)) {
      // A list's items are named as the representations they are: `video: metadata.connections.albums.uri`.
      const here = at.length === 0 && key === 'data' ? [] : [...at, key];
      if (typeof v === 'string') {
        const linked = isLinkKey(key) || (at[at.length - 1] === 'paging' && ['next', 'previous', 'first', 'last'].includes(key));
        const path = linked ? ownPath(v, origin) : null;
        if (path === null) continue;
        const how: Omit<Handed, 'from'> = { where: `${kind}: ${here.join('.')}` };
        if (key === 'uri' && described) {
          how.options = o.options as string[];
          if (typeof o.total === 'number') how.total = o.total;
          if (typeof o.added === 'boolean') how.added = o.added;
        }
        found(path, how);
      } else walk(v, here);
    }
  };
  walk(body, []);
}

/** The kind of an answer from its Content-Type (`application/vnd.reelbase.video+json` → video). */
const kindOf = (answer: Answer): string => /vnd\.[\w-]+\.([\w.]+)\+json/.exec(answer.headers.get('content-type') ?? '')?.[1] ?? 'json';

/**
 * Connections whose GET SPEC.md answers with 404 when they are empty, which the hosted API's
 * representations hand out anyway: GET /videos/{id}/available_channels answers 404 to a user who
 * moderates no channel ("404 user moderates no channels"), as its `total: 0` says.
 */
const prescribedNotFound = [/\.connections\.available_channels\.uri$/];

/** A 404 that says the router knows no operation for the path: a dead link whoever follows it. */
const unrouted = (answer: Answer): boolean => answer.status === 404 && /^No operation answers/.test(answer.body?.developer_message ?? '');

/**
 * What is wrong with the answer to a handed-out GET, or null. Dead: any 405, any 404 the router
 * gives (no operation), and any other 404, since a representation should not hand a viewer a link
 * they cannot follow, except where an interaction said `added: false` (its GET is the check that
 * answers 404 when not added). 401 and 403 are the answers of a link to someone else's (or, for
 * nobody, a signed-in user's) own list: the link exists, the viewer may not read it. Anything
 * else from 400 up is a broken link.
 */
function judge(answer: Answer, how: Handed): string | null {
  if (answer.status < 400 || answer.status === 401 || answer.status === 403) return null;
  if (unrouted(answer)) return 'no operation answers the path';
  if (answer.status === 405) return `method not allowed (Allow: ${answer.headers.get('allow')})`;
  if (answer.status === 404 && how.added === false) return null;
  if (answer.status === 404 && how.total === 0 && prescribedNotFound.some((re) => re.test(how.where))) return null;
  return `${answer.status} ${answer.body?.developer_message ?? answer.text.slice(0, 120)}`;
}

export interface CrawlOptions {
  token?: string;
  /** Where the crawl starts (paths); entry points answer whatever they answer, only what they hand out is judged. */
  entries: string[];
  /** The most requests (default 3000). */
  limit?: number;
  /** World values named in patterns (`{word}` for a tag…). */
  names?: Record<string, string>;
  /** API version to ask for. */
  version?: string;
}

/**
 * Crawls as one viewer. A GET is sent for every URL handed out (each once) unless its `options`
 * leave GET out. The methods `options` lists are checked against the operation table's own router
 * instead of being sent: a PUT or DELETE would like or delete for real, an OPTIONS preflight is
 * answered by the transport whatever the path, and the router is exactly what decides between an
 * operation, a 404 "no operation answers" and a 405 — so the check is sound and changes nothing.
 */
export async function crawl(h: Harness, o: CrawlOptions): Promise<CrawlResult> {
  const route = createRouter(h.service.operations as readonly Operation<unknown>[]);
  const limit = o.limit ?? 3000;
  const origin = h.server.url;
  const visited = new Map<string, number>();
  const patterns = new Map<string, number>();
  const handed = new Map<string, Handed>();
  const routed = new Set<string>();
  const dead: Dead[] = [];
  const report = (url: string, status: number, how: Handed, problem: string) =>
    dead.push({ url, pattern: patternOf(url, route, o.names), status, where: how.where, from: how.from, problem });
  let queue: string[] = [];
  const offer = (from: string) => (path: string, how: Omit<Handed, 'from'>) => {
    const full = { ...how, from };
    // GET is sent (below); every other method listed is asked of the router.
    for (const method of (how.options ?? []).filter((m) => m !== 'GET')) {
      const key = `${method} ${path.split('?')[0]}`;
      if (routed.has(key)) continue;
      routed.add(key);
      const found = route(method, path.split('?')[0]);
      if (found.kind !== 'found') report(path, found.kind === 'none' ? 404 : 405, full, `${how.where} lists ${method}, which ${found.kind === 'none' ? 'no operation answers' : `is not allowed (${found.allow.join(', ')})`}`);
    }
    if (how.options && !how.options.includes('GET')) return;
    // The first way a URL was handed out decides; an interaction seen added by one answer and not by another counts as added.
    const known = handed.get(path);
    if (known) {
      if (how.added === true) known.added = true;
      return;
    }
    handed.set(path, full);
    queue.push(path);
  };
  const fetchOne = async (path: string, how: Handed | null): Promise<void> => {
    const answer = await h.call('GET', path, { token: o.token, version: o.version });
    visited.set(path, answer.status);
    const pattern = patternOf(path, route, o.names);
    patterns.set(pattern, (patterns.get(pattern) ?? 0) + 1);
    if (how) {
      const problem = judge(answer, how);
      if (problem) report(path, answer.status, how, problem);
    } else if (unrouted(answer) || answer.status === 405 || answer.status >= 500) {
      report(path, answer.status, { where: 'entry point', from: '-' }, `entry point answers ${answer.status}`);
    }
    if (answer.status === 200 && answer.body && typeof answer.body === 'object') linksOf(answer.body, kindOf(answer), origin, offer(path));
  };
  for (const entry of o.entries) handed.set(entry, { where: 'entry point', from: '-' });
  await pool(o.entries, 8, (entry) => fetchOne(entry, null));
  let truncated = false;
  while (queue.length) {
    const level = queue.filter((path) => !visited.has(path));
    queue = [];
    const room = limit - visited.size;
    if (level.length > room) truncated = true;
    await pool(level.slice(0, Math.max(0, room)), 8, (path) => fetchOne(path, handed.get(path)!));
    if (truncated) break;
  }
  return { visited, patterns, dead, truncated };
}

/** Runs `work` over `items`, `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
