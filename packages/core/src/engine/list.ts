import { boolean, enums, integer, max, min, optional, size, string } from 'superstruct';
import type { AnyStruct } from './params';
import { RELEVANCE, SEARCH_WINDOW } from '../store/search';
import type { OrderBy } from '../store/store';
import { invalidField } from './errors';
import type { Context, Reply } from './operation';

/** The common list parameters an endpoint accepts (SPEC.md request convention 7). */
export interface ListSpec<S extends string = string, F extends string = string> {
  sort?: readonly S[];
  filter?: readonly F[];
  query?: boolean;
  direction?: boolean;
  /** `filter_embeddable`, required when filter is `embeddable`. */
  filterEmbeddable?: boolean;
}

export interface ListParams<S extends string = string, F extends string = string> {
  page?: number;
  per_page?: number;
  sort?: S;
  filter?: F;
  direction?: 'asc' | 'desc';
  query?: string;
  filter_embeddable?: boolean;
}

const maxPage = 1_000_000;

/** Struct fields for an endpoint's list parameters, to spread into its params object. */
export function listParams<S extends string, F extends string>(spec: ListSpec<S, F>) {
  const fields: Record<string, AnyStruct> = {
    page: optional(max(min(integer(), 1), maxPage)),
    per_page: optional(max(min(integer(), 1), 100)),
  };
  if (spec.sort) fields.sort = optional(enums(spec.sort as S[]));
  if (spec.filter) fields.filter = optional(enums(spec.filter as F[]));
  if (spec.direction !== false) fields.direction = optional(enums(['asc', 'desc']));
  if (spec.query) fields.query = optional(size(string(), 0, 500));
  if (spec.filterEmbeddable) fields.filter_embeddable = optional(boolean());
  return fields;
}

export interface Page {
  page: number;
  perPage: number;
  offset: number;
  limit: number;
}

/** Whether a list's parameters ask for a search (a `query` with a word in it); some lists take none. */
const searching = (params: ListParams | undefined): boolean => typeof params?.query === 'string' && params.query.trim() !== '';

export function pageOf(params: ListParams): Page {
  const page = params.page ?? 1;
  const perPage = params.per_page ?? 25;
  const offset = (page - 1) * perPage;
  if (offset >= SEARCH_WINDOW && searching(params)) {
    throw invalidField('page', `is past the first ${SEARCH_WINDOW} results, which are all a search answers: narrow the query instead`);
  }
  return { page, perPage, offset, limit: perPage };
}

/** `filter=embeddable` needs `filter_embeddable` (SPEC.md request convention 7). */
export function embeddableFilter(params: ListParams): boolean | undefined {
  if (params.filter !== 'embeddable') return undefined;
  if (params.filter_embeddable === undefined) throw invalidField('filter_embeddable', 'is required when filter is embeddable');
  return params.filter_embeddable;
}

/** One sort option: the store field it orders by and its default direction. */
export const by = (field: string, direction: 'asc' | 'desc'): OrderBy[] => [{ field, direction }];

/**
 * A sort by a time that many rows share to the second (videos made by a script, an import):
 * newest first, and the newest id first among the same second, so the order is the order they were made in.
 */
export const newest = (field: string): OrderBy[] => [
  { field, direction: 'desc' },
  { field: 'id', direction: 'desc' },
];

/**
 * Sort options name store fields; `direction` sets the direction of the chosen sort's first key
 * (and of an `id` tie-break, which follows it: oldest first is then made-first among equals).
 * A relevance sort turns round whole (its tie-breaks too), so `direction=asc` lists the weakest
 * matches first, the least followed among them first.
 */
export function orderOf(
  sorts: Record<string, OrderBy[]>,
  sort: string,
  direction: 'asc' | 'desc' | undefined,
): OrderBy[] {
  const base = sorts[sort];
  if (direction && base[0].field === RELEVANCE && direction !== base[0].direction) {
    return base.map((o) => ({ ...o, direction: o.direction === 'asc' ? 'desc' : 'asc' }));
  }
  return direction ? base.map((o, i) => (i === 0 || o.field === 'id' ? { ...o, direction } : o)) : base;
}

/**
 * The list envelope with paging links that keep the other query parameters. With
 * `lastModified`, answers `Last-Modified` and 304 to an `If-Modified-Since` not older than it.
 */
export function listReply(
  ctx: Context<unknown>,
  page: Page,
  total: number,
  data: readonly unknown[],
  kind: string | null,
  lastModified?: string | null,
): Reply {
  const headers: Record<string, string> = {};
  if (lastModified) {
    const modified = Math.floor(Date.parse(lastModified) / 1000);
    headers['Last-Modified'] = new Date(modified * 1000).toUTCString();
    const since = Date.parse(ctx.request.headers['if-modified-since'] ?? '');
    if (!Number.isNaN(since) && modified <= Math.floor(since / 1000)) return { status: 304, headers };
  }
  const pages = Math.ceil(total / page.perPage);
  const last = Math.max(1, searching(ctx.params as ListParams | undefined) ? Math.min(pages, Math.ceil(SEARCH_WINDOW / page.perPage)) : pages);
  const link = (n: number): string => {
    const q = new URLSearchParams(ctx.request.search);
    q.set('page', String(n));
    q.set('per_page', String(page.perPage));
    return `${ctx.request.path}?${q.toString()}`;
  };
  return {
    status: 200,
    kind,
    headers,
    body: {
      total,
      page: page.page,
      per_page: page.perPage,
      paging: {
        next: page.page < last ? link(page.page + 1) : null,
        previous: page.page > 1 ? link(Math.min(page.page - 1, last)) : null,
        first: link(1),
        last: link(last),
      },
      data,
    },
  };
}
