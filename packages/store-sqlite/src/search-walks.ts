import type { Filter, FindOptions, MatchFilter, SearchQuery } from '@reelbase/core';
import { canMatch } from '@reelbase/core';
import { searchColumns, type SqlParams } from '@reelbase/core/sql';
import { compileFilter, compileWhere, sqliteDialect } from './compile-filter';
import type { Statement } from './compile-query';
import { DOC_COLUMN, quote, type Table, type Tables } from './sqlite-schema';
import { firstTier, NOT_PRINTABLE_ASCII, searchTable, wholeQuery, windowOrder, type Vocabulary } from './sqlite-search';
import type { SqlValue } from './sqlite-types';

/**
 * How the SQLite driver reads a search of many matches without reading every match: counts that
 * stop at a bound and estimate past it, and pages walked from rows already in the list's order,
 * each row's words looked up by its id (docs/search.md, "How each store keeps its index").
 */

/** An index's matches in id order, up to a bound: the `walked` of estimatedCount. */
export const walkIndex = (fts: string): string => `SELECT rowid AS rb_match FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rowid LIMIT ?`;

/**
 * The count of the ids `walked` reads (as rb_match, ascending, to one past a bound): exact up to
 * the bound, and past it extrapolated from the share of the table's ids the walk covered. Binds
 * the bound twice, then `walked`'s values (its bound + 1 last).
 */
export function estimatedCount(table: Table, walked: string): string {
  const ends = `(SELECT min(id) FROM ${table.sql}) AS rb_lo, (SELECT max(id) FROM ${table.sql}) AS rb_hi`;
  const estimate = `max(? + 1, CAST(rb_n * (rb_hi - rb_lo + 1.0) / (rb_last - rb_lo + 1) AS INTEGER))`;
  return `SELECT CASE WHEN rb_n <= ? THEN rb_n ELSE ${estimate} END AS n FROM (SELECT count(*) AS rb_n, max(rb_match) AS rb_last, ${ends} FROM (${walked}))`;
}

/**
 * The page of a ranked search from a window: the rows first in its order's tie-break (the most
 * played videos, from an index), walked in that order until the best tier's rows fill the page.
 * Every row after them ranks lower, so the page is the same as from every match: a common word's
 * best page is found among a few hundred rows instead of by ordering 60,000 matches.
 */
export interface Window {
  /** How many rows the best tier holds: exact up to WINDOW_COUNTED, estimated past it. */
  matches: Statement;
  /** The table's id span, max − min + 1 (null when empty): what a window is a share of. */
  span: string;
  /** The page from the first `size` rows in the order: the page when it has `limit` rows. */
  page(size: number): Statement;
}

/**
 * A walked row costs a lookup and a one-row probe of the index, about twelve times what ordering
 * one match costs (6 µs against 0.5 µs at a million videos), and the walk reads need · span /
 * matches rows: so a window is worth it from matches² ≥ 12 · need · span on. It is cut at twice
 * the rows expected to fill the page, past which ordering the matches is cheaper anyway.
 */
const WINDOW_ROW_COST = 12;
const WINDOW_SLACK = 2;
/**
 * A tier's matches are counted up to this many and estimated past it: choosing a window needs
 * the tier's size, not its exact count, and counting to windowBound (17,321 at a million) cost
 * 4 ms of each common word's search.
 */
export const WINDOW_COUNTED = 1000;

/**
 * What a row of an unranked walk (probedPage from an order's window index) costs against one
 * match of the plain plan: about as much. There the plain plan reads each match's row for its
 * sort key (no index covers it) after intersecting the words' lists, while the walk's text test
 * rules out most rows for tenths of a µs: at a million videos, two words by date (13,584
 * matches) took 128 ms of CPU through every match, one word (110,451) 24 ms walking 455 rows,
 * both with the page's representation (load average 40).
 */
export const ORDERED_WALK_ROW_COST = 1;

/**
 * How much longer a walk that fell short is walked again: four times, so that the rows walked in
 * all stay within a third more than the last walk's. A short walk is common where the order
 * bunches the matches (by name, the titles beginning with the word), and a sort of every match
 * instead cost 0.2–3.5 s at a million videos.
 */
export const WALK_GROWTH = 4;

/** The count of best-tier matches from which a window is worth walking, a walked row costing `rowCost` matches. */
export const windowBound = (need: number, span: number, rowCost = WINDOW_ROW_COST): number => Math.ceil(Math.sqrt(rowCost * need * span));

/** The rows a window may walk for `need` rows of a tier with `matches` in a table of `span` ids, or undefined when ordering the matches is cheaper. */
export function windowSize(need: number, span: number, matches: number, rowCost = WINDOW_ROW_COST): number | undefined {
  if (matches < windowBound(need, span, rowCost)) return undefined;
  return Math.max(need * WINDOW_SLACK, Math.ceil((WINDOW_SLACK * need * span) / matches));
}

/**
 * The Window of an unpinned ranked search whose tie-break is its table's `searchTies` (plays, for
 * videos), its page the columns `selected` (bestScored's) read through `document`: the best tier
 * looked up row by row (wholeQuery), or undefined when a word cannot be.
 */
export function bestWindow(
  tables: Tables,
  table: Table,
  options: FindOptions,
  ranked: SearchQuery,
  selected: string,
  words: Vocabulary,
  document: (page: string) => string,
): ((limit: number, offset: number) => Window) | undefined {
  const tier = firstTier(table)!;
  const ties = (options.orderBy ?? []).slice(1);
  // Read in the window index's order (windowOrder); any other would sort the table.
  const served = ties.length === 1 && ties[0].field === table.searchTies && ties[0].direction === 'desc';
  const probe = served ? wholeQuery(table, ranked, words, { columns: tier }) : undefined;
  if (probe === undefined) return undefined;
  const fts = searchTable(table);
  const whereParams: SqlValue[] = [];
  const probing = {
    ...sqliteDialect,
    match: (t: Table, query: SearchQuery, p: SqlParams<SqlValue>) =>
      t === table && query === ranked ? `${prefilter(tier, query, (w) => p.bind(w))} AND ${lookedUp(table, p.bind(probe))}` : sqliteDialect.match(t, query, p),
  };
  const where = compileFilter(tables, table, options.where!, whereParams, probing);
  // The window's order is the find's here: the tier scores one value.
  const select = walkedPage(table, selected, ` ORDER BY ${windowOrder(table)}`, where);
  return (limit, offset) => ({
    matches: { sql: estimatedCount(table, walkIndex(fts)), params: [WINDOW_COUNTED, WINDOW_COUNTED, probe, WINDOW_COUNTED + 1] },
    span: spanSql(table),
    page: (size) => ({ sql: document(select), params: [size, ...whereParams, limit, offset] }),
  });
}

/** A pinned walk reads at most this many rows for each row of its page: it pays where one row in twenty matches or more. */
export const PROBED_ROWS_PER_ROW = 20;

/** The table's id span, max − min + 1 (null when empty): what a walk's share of the rows is of. Apart, each of min and max is one index step; together SQLite reads the whole table. */
export const spanSql = (table: Table): string => `SELECT (SELECT max(id) FROM ${table.sql}) - (SELECT min(id) FROM ${table.sql}) + 1 AS n`;

/**
 * A page walked from the rows a find's other conditions give, in an order an index serves:
 * `page(size)` the statement walking at most `size` rows (`size` the first try), `plan` the
 * walk's own query plan (EXPLAIN QUERY PLAN), which must read the rows in that order rather than
 * sort them (a walk that first sorts every public video is no walk at all).
 */
export interface ProbedWalk {
  plan: Statement;
  size: number;
  page(size: number): Statement;
}

/**
 * CompiledFind.probed: the rows the find's other conditions give in `walk` (an ORDER BY giving
 * `orderBy`'s order), each kept when the index finds the match's words under its id (whole
 * words), up to `size` rows; undefined when a word cannot be whole.
 */
export function probedPage(tables: Tables, table: Table, parts: Filter[], walk: string, orderBy: string, words: Vocabulary, size: number, limit: number, offset: number): ProbedWalk | undefined {
  const match = parts.find((p): p is MatchFilter => 'match' in p && canMatch(p.match));
  const text = match && wholeQuery(table, match.match, words);
  if (!match || text === undefined) return undefined;
  const before: SqlValue[] = [];
  const pinned = `${compileWhere(tables, table, { and: parts.filter((p) => p !== match) }, before)} ORDER BY ${walk}`;
  const after: SqlValue[] = [];
  const bind = (value: string) => (after.push(value), '?');
  const where = `${prefilter(searchColumns(table).map(({ field }) => field), match.match, bind)} AND ${lookedUp(table, bind(text))}`;
  after.push(limit, offset);
  const sql = documents(table, orderBy)(walkedPage(table, '*', pinned, where));
  return {
    plan: { sql: `EXPLAIN QUERY PLAN SELECT id FROM ${table.sql}${pinned} LIMIT ?`, params: [...before, size] },
    size,
    page: (rows) => ({ sql, params: [...before, rows, ...after] }),
  };
}

/** A page of ids and keys (`page`, in `orderBy`) with each row's document read afterwards, for its rows alone. */
export const documents =
  (table: Table, orderBy: string) =>
  (page: string): string =>
    `SELECT id, (SELECT ${DOC_COLUMN} FROM ${table.sql} AS d WHERE d.id = p.id) AS ${DOC_COLUMN} FROM (${page}) AS p ORDER BY ${orderBy}`;

/** The walked row is among the matches of the (bound) FTS5 query `text`: 2–11 µs a row at a million videos. */
const lookedUp = (table: Table, text: string): string =>
  `EXISTS (SELECT 1 FROM ${searchTable(table)} WHERE ${searchTable(table)} MATCH ${text} AND rowid = ${table.sql}.id)`;

/**
 * A condition every row matching `query`'s wanted words in `columns` meets, tested before the
 * index is asked (lookedUp), for a few tenths of a µs: each word is in the lowercased text. It
 * only speaks for ASCII text (printable, tabs and line breaks), which the index folds as lower()
 * does (case alone): a row with any other character, or a word with one, is left to the index.
 */
function prefilter(columns: readonly string[], query: SearchQuery, bind: (value: string) => string): string {
  const text = columns.map((c) => `coalesce(${quote(c)}, '')`).join(` || ' ' || `);
  const words = query.terms.filter((t) => !t.exclude).flatMap((t) => t.words.filter((w) => /^[ -~]+$/.test(w)));
  if (words.length === 0) return 'TRUE';
  return `(${text} GLOB '${NOT_PRINTABLE_ASCII}' OR (${words.map((w) => `instr(lower(${text}), ${bind(w)}) > 0`).join(' AND ')}))`;
}

/**
 * A page walked from the rows `from` gives of `table` (its WHERE and ORDER BY), at most a bound
 * number of them (bound after `from`'s values), each kept when `where` holds (then its values,
 * then the page's limit and offset). The rows are under the table's own name, so `where` reads
 * them as the table's, and come in `from`'s order: the walk stops at the page's last row, and
 * the caller orders those few.
 */
function walkedPage(table: Table, select: string, from: string, where: string): string {
  const columns = ['id', ...Object.keys(table.fields)].map(quote).join(', ');
  return `SELECT ${select} FROM (SELECT ${columns} FROM ${table.sql}${from} LIMIT ?) AS ${table.sql} WHERE ${where} LIMIT ? OFFSET ?`;
}
