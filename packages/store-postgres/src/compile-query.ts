import { and, canMatch, RELEVANCE, rankedSearch, SEARCH_EXACT_TOTAL, type Filter, type FindOptions, type SearchQuery } from '@reelbase/core';
import { compileFilter, compileOrderBy, countBySql, SqlParams, sumBySql } from '@reelbase/core/sql';
import { DOC_COLUMN, type PgTable, type PgTables } from './pg-columns';
import { pgDialect } from './pg-dialect';
import { nearDialect, nearScore, type Near } from './pg-near';
import { firstTierMatch, tsScore } from './pg-search';
import { windowOf } from './pg-windows';

/** One statement and its parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

const newParams = (): SqlParams<unknown> => new SqlParams((n) => `$${n}`);

/** ` WHERE …` or nothing; with `near`, its search matches names near its words (pg-near.ts). */
function compileWhere(tables: PgTables, table: PgTable, where: Filter | undefined, params: SqlParams<unknown>, near?: Near): string {
  return where ? ` WHERE ${compileFilter(near ? nearDialect(near) : pgDialect, tables, table, where, params)}` : '';
}

/** What RELEVANCE orders by: the ranked search's score, by its tsquery or by nearness; undefined when the order does not ask. */
function scoreOf(table: PgTable, where: Filter | undefined, orderBy: FindOptions['orderBy'], params: SqlParams<unknown>, near?: Near): string | undefined {
  const ranked = rankedSearch(where, orderBy);
  if (!ranked) return undefined;
  const bind = (v: string) => params.bind(v);
  // A query that can match nothing still orders by an expression: a bare constant there names a column position.
  if (!canMatch(ranked)) return 'CAST(NULL AS REAL)';
  return ranked === near?.query ? nearScore(table, near, bind) : tsScore(table, ranked, bind);
}

/** What compileFind reads: a page of a find. */
export type FindRead = FindOptions & { limit?: number; offset: number };

/**
 * A page and its total in one statement, so both come from one snapshot: every row carries the
 * total (an uncorrelated subquery PostgreSQL runs once). `limit` undefined means no limit.
 *
 * A search's total counts its matches up to one past `exactTotal` (SEARCH_EXACT_TOTAL) and stops:
 * a common word's every match is never looked up for the count (Operations.find estimates past it).
 */
export function compileFind(tables: PgTables, table: PgTable, options: FindRead, near?: Near): Statement {
  const params = newParams();
  const where = compileWhere(tables, table, options.where, params, near);
  // Uncounted (FindOptions.countTotal): the rows carry no total, the caller keeps its own.
  const total = searches(options.where) ? boundedTotal(table, where, options, params) : options.countTotal === false ? '-1' : `SELECT count(*) FROM ${table.sql}${where}`;
  const score = scoreOf(table, options.where, options.orderBy, params, near);
  const order = compileOrderBy(pgDialect, table, options.orderBy, score);
  const page = ` ORDER BY ${order} LIMIT ${params.bind(options.limit ?? null)} OFFSET ${params.bind(options.offset)}`;
  // A page past the first finds its rows' ids first and reads only their documents: an index
  // scan that skips `offset` rows reads each skipped row from the table, where an index-only
  // scan for the ids reads none (a report's page 40 by video and month: 189 → 38 ms at 2,000
  // videos, under load). Not for searches, whose pages have plans of their own (compileWalk).
  if (options.offset > 0 && options.limit !== undefined && !score && !searches(options.where)) {
    return { sql: `SELECT id, ${DOC_COLUMN}, (${total}) AS total FROM ${table.sql} WHERE id IN (SELECT id FROM ${table.sql}${where}${page}) ORDER BY ${order}`, params: params.values };
  }
  return { sql: `SELECT id, ${DOC_COLUMN}, (${total}) AS total FROM ${table.sql}${where}${page}`, params: params.values };
}

/**
 * The search whose ranked page may be its first tier alone (compileWalk): relevance first and
 * descending, over a collection searched in several tiers, for a page of some rows. Rows with
 * every wanted word in a name score the most there is, so when they fill the page it is theirs,
 * in the next key's order (plays), and no other match is scored or sorted.
 */
function firstTierOf(table: PgTable, read: FindRead): SearchQuery | undefined {
  const [first] = read.orderBy ?? [];
  if (first?.field !== RELEVANCE || first.direction !== 'desc' || (table.search?.length ?? 0) < 2) return undefined;
  const ranked = rankedSearch(read.where, read.orderBy);
  return ranked && canMatch(ranked) ? ranked : undefined;
}

/** How a page of a search may be walked (compileWalk): the window's order, and for a ranked page the first tier it tests. */
export interface Walk {
  order: string;
  firstTier?: SearchQuery;
}

/**
 * The walk of a page of a search with many matches, if it has one (pg-operations.ts decides
 * whether it is short enough to try). A ranked page walks its first tier in its tie-break's
 * window when it wants one word: names holding two or three given words are too few for a walk
 * to fill a page soon (measured at 300,000 videos: the count and estimate that decide it, then
 * every match read, cost a third more than reading every match at once), and the planner
 * estimates a phrase as its words together, many times what it finds (300,000 videos: a phrase
 * ranked took 219 ms p50 with the failing walk, 103 without, load 21). A page in a field's
 * order walks that order's window (pg-windows.ts) and tests every row for the whole search,
 * unless the find is pinned to a search key (one user's videos), ranked or not: that user's own
 * index serves those, and a walk of every row would pass over the other users'. Not for near
 * matches, which rank by nearness.
 */
export function walkOf(table: PgTable, read: FindRead, near?: Near): Walk | undefined {
  const parts = topParts(read.where);
  const keys = new Set(table.searchKeys);
  if (near || !read.limit || !parts.some((p) => 'match' in p) || parts.some((p) => 'op' in p && p.op === 'eq' && keys.has(p.field))) return undefined;
  const firstTier = firstTierOf(table, read);
  if (firstTier) {
    const window = windowOf(table, read.orderBy!.slice(1));
    const wanted = firstTier.terms.filter((t) => !t.exclude);
    return window && wanted.length === 1 && !wanted[0].phrase ? { order: window.order, firstTier } : undefined;
  }
  // By the tie-break alone the plain page is walked already: PostgreSQL reads its window (keys the
  // ORDER BY's own) and filters, so a walk would only add its estimate.
  const window = windowOf(table, read.orderBy);
  return window && window.field !== table.searchTies ? { order: window.order } : undefined;
}

/** The table's size, as the planner has it: with the estimate of a search's matches, how long a walk may be. */
export const compileSize = (table: PgTable): Statement => ({ sql: `SELECT reltuples AS size FROM pg_class WHERE oid = $1::regclass`, params: [table.sql] });

/** The bounded total of a search whose WHERE is `where` (compileFind's), for each row of a page to carry. */
function boundedTotal(table: PgTable, where: string, read: FindRead, params: SqlParams<unknown>): string {
  return `SELECT count(*) FROM (SELECT FROM ${table.sql}${where} LIMIT ${params.bind((read.exactTotal ?? SEARCH_EXACT_TOTAL) + 1)}) AS bounded`;
}

/**
 * A page of a search with many matches, walked (walkOf): the rows that pass the find's other
 * conditions (visibility, an owner) in the window's order, by its index, at most `budget` of
 * them, each tested for the search (for a ranked page: every wanted word in a name) after it is
 * read. The text search is kept out of the walk (OFFSET 0 fences it): inside, the planner would
 * rather read every match from the GIN index and sort them, which is what this avoids. Fewer
 * rows than the page asks mean the budget ran out, not that there are no more. Each row carries
 * the search's bounded total, as compileFind's do.
 */
export function compileWalk(tables: PgTables, table: PgTable, read: FindRead, walk: Walk, budget: number): Statement {
  const params = newParams();
  const parts = topParts(read.where);
  // A ranked page's rows all score the most there is: its order is the rest.
  const order = compileOrderBy(pgDialect, table, walk.firstTier ? read.orderBy!.slice(1) : read.orderBy);
  const walked = compileWhere(tables, table, and(...parts.filter((p) => !('match' in p))), params);
  const tested = compileWhere(tables, table, and(...parts.filter((p) => 'match' in p)), params);
  const firstTier = walk.firstTier ? ` AND ${firstTierMatch(walk.firstTier, (v) => params.bind(v))}` : '';
  const sql =
    `SELECT id, ${DOC_COLUMN}, (${boundedTotal(table, compileWhere(tables, table, read.where, params), read, params)}) AS total` +
    ` FROM (SELECT * FROM ${table.sql}${walked} ORDER BY ${walk.order} LIMIT ${params.bind(budget)} OFFSET 0) AS ${table.sql}` +
    `${tested}${firstTier} ORDER BY ${order} LIMIT ${params.bind(read.limit ?? null)} OFFSET ${params.bind(read.offset)}`;
  return { sql, params: params.values };
}

/** A where's parts: the conditions of its top `and`s, flattened. */
const topParts = (where: Filter | undefined): Filter[] => (!where ? [] : 'and' in where ? where.and.flatMap(topParts) : [where]);

/** Whether a find searches: its where requires a `match` (itself, under its `and`s, or in a semi-join's). */
export function searches(where: Filter | undefined): boolean {
  if (!where) return false;
  if ('match' in where) return true;
  if ('and' in where) return where.and.some(searches);
  return 'op' in where && where.op === 'inSelect' && searches(where.select.where);
}

/** The planner's estimate of a search's matches, when counting them stopped past exactTotal. */
export function compileEstimate(tables: PgTables, table: PgTable, where: Filter | undefined, near?: Near): Statement {
  const params = newParams();
  return { sql: `EXPLAIN (FORMAT JSON) SELECT FROM ${table.sql}${compileWhere(tables, table, where, params, near)}`, params: params.values };
}

/** The first match in order, never counting. */
export function compileFindOne(tables: PgTables, table: PgTable, where: Filter, orderBy: FindOptions['orderBy'], near?: Near): Statement {
  const params = newParams();
  const whereSql = compileWhere(tables, table, where, params, near);
  const sql = `SELECT id, ${DOC_COLUMN} FROM ${table.sql}${whereSql} ORDER BY ${compileOrderBy(pgDialect, table, orderBy, scoreOf(table, where, orderBy, params, near))} LIMIT 1`;
  return { sql, params: params.values };
}

/** Whether anything matches: its first row in no order, so the planner may stop at the first it finds. */
export function compileExists(tables: PgTables, table: PgTable, where: Filter): Statement {
  const params = newParams();
  return { sql: `SELECT FROM ${table.sql}${compileWhere(tables, table, where, params)} LIMIT 1`, params: params.values };
}

/** Up to `limit` matches in order, locked for the transaction; rows other transactions hold are skipped. */
export function compileLockNext(tables: PgTables, table: PgTable, where: Filter, orderBy: FindOptions['orderBy'], limit: number): Statement {
  const params = newParams();
  const sql =
    `SELECT id, ${DOC_COLUMN} FROM ${table.sql}${compileWhere(tables, table, where, params)} ORDER BY ${compileOrderBy(pgDialect, table, orderBy)}` +
    ` LIMIT ${params.bind(limit)} FOR UPDATE SKIP LOCKED`;
  return { sql, params: params.values };
}

export function compileCount(tables: PgTables, table: PgTable, where: Filter | undefined, near?: Near): Statement {
  const params = newParams();
  return { sql: `SELECT count(*) AS n FROM ${table.sql}${compileWhere(tables, table, where, params, near)}`, params: params.values };
}

export function compileCountBy(tables: PgTables, table: PgTable, field: string, where: Filter | undefined, distinct: string | undefined, near?: Near): Statement {
  const params = newParams();
  return { sql: countBySql(table, field, compileWhere(tables, table, where, params, near), distinct), params: params.values };
}

export function compileSumBy(tables: PgTables, table: PgTable, by: readonly string[], sums: readonly string[], where: Filter | undefined): Statement {
  const params = newParams();
  return { sql: sumBySql(table, by, sums, compileWhere(tables, table, where, params)), params: params.values };
}

export function compileDeleteWhere(tables: PgTables, table: PgTable, where: Filter): Statement {
  const params = newParams();
  return { sql: `DELETE FROM ${table.sql}${compileWhere(tables, table, where, params)}`, params: params.values };
}
