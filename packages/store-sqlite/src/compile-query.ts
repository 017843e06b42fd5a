import type { Filter, FindOptions, MatchFilter } from '@reelbase/core';
import { canMatch, RELEVANCE, rankedSearch, SEARCH_WEIGHTS, type SearchQuery } from '@reelbase/core';
import { column, compileOrderBy, type SqlParams } from '@reelbase/core/sql';
import { compileFilter, sqliteDialect } from './compile-filter';
import { DOC_COLUMN, type Table, type Tables } from './sqlite-schema';
import { firstTier, ftsQuery, ftsScore, searchTable } from './sqlite-search';
import type { SqlValue } from './sqlite-types';

/** One statement and the values it binds. */
export interface Statement {
  sql: string;
  params: SqlValue[];
}

/**
 * The statements of one `find`: its rows, a page of them, and their total (bind `countParams`).
 * A page may come with a `first` statement to try: its rows are the page when it answers any.
 */
export interface CompiledFind {
  rows(limit: number | undefined, offset: number): Statement & { first?: Statement };
  count: string;
  countParams: SqlValue[];
}

const SCORE = 'rb_score';

export function compileFind(tables: Tables, table: Table, options: FindOptions): CompiledFind {
  const whereParams: SqlValue[] = [];
  const source = ` FROM ${table.sql}${compileWhere(tables, table, options.where, whereParams)}`;
  const counted = compileCount(tables, table, options.where) ?? { count: `SELECT count(*) AS n${source}`, countParams: whereParams };
  const ranked = rankedSearch(options.where, options.orderBy);
  if (ranked && canMatch(ranked)) {
    // A ranked search orders every match. The sort carries only the keys (read from an index that
    // holds them, when the schema declares one) and the page's documents are read afterwards:
    // carrying each row's document through the sort read every match's whole row.
    const scoreParams: SqlValue[] = [];
    const score = ftsScore(table, ranked, (value) => (scoreParams.push(value), '?'));
    const keys = [...new Set((options.orderBy ?? []).map((o) => o.field).filter((f) => f !== RELEVANCE && f !== 'id'))].map((f) => column(table, f));
    const orderBy = compileOrderBy(sqliteDialect, table, options.orderBy, SCORE);
    const inner = `SELECT ${['id', ...keys, `${score} AS ${SCORE}`].join(', ')}${source} ORDER BY ${orderBy}`;
    const document = (page: string) => `SELECT id, (SELECT ${DOC_COLUMN} FROM ${table.sql} AS d WHERE d.id = p.id) AS ${DOC_COLUMN} FROM (${page}) AS p ORDER BY ${orderBy}`;
    const best = bestScored(tables, table, options, ranked, keys, orderBy);
    return {
      rows(limit, offset) {
        const params = [...scoreParams, ...whereParams];
        const sql = document(`${inner}${pageOf(limit, offset, params)}`);
        if (!best || limit === undefined) return { sql, params };
        // The page from the best-scored rows when they fill it (else no row, and the page is read as above).
        const need = offset + limit;
        const first = `WITH ${BEST} AS MATERIALIZED (${best.sql} LIMIT ?) ${document(`SELECT * FROM ${BEST} WHERE (SELECT count(*) FROM ${BEST}) = ? ORDER BY ${orderBy} LIMIT ? OFFSET ?`)}`;
        return { sql, params, first: { sql: first, params: [...best.params, need, need, limit, offset] } };
      },
      ...counted,
    };
  }
  // A query that can match nothing still orders by an expression: a bare constant there names a column position.
  const orderBy = compileOrderBy(sqliteDialect, table, options.orderBy, ranked && 'CAST(NULL AS REAL)');
  const select = `SELECT id, ${DOC_COLUMN}${source} ORDER BY ${orderBy}`;
  return {
    rows(limit, offset) {
      const params = [...whereParams];
      return { sql: select + pageOf(limit, offset, params), params };
    },
    ...counted,
  };
}

const BEST = 'rb_best';

/**
 * The rows a ranked search scores highest, when its table weighs fields in tiers: those holding
 * every wanted term in the first tier (a name), in the find's order. A common word is in a tenth
 * of a million videos' names and in twice as many documents: when the first page is among the
 * name matches, it is ordered from those alone, and no other match is scored or sorted.
 */
function bestScored(tables: Tables, table: Table, options: FindOptions, ranked: SearchQuery, keys: string[], orderBy: string): { sql: string; params: SqlValue[] } | undefined {
  const tier = firstTier(table);
  const first = options.orderBy?.[0];
  if (!tier || first?.field !== RELEVANCE || first.direction !== 'desc') return undefined;
  const params: SqlValue[] = [];
  const text = (query: SearchQuery) => ftsQuery(query, query === ranked ? tier : undefined);
  const narrowed = { ...sqliteDialect, match: (t: Table, query: SearchQuery, p: SqlParams<SqlValue>) => `id IN (SELECT rowid FROM ${searchTable(t)} WHERE ${searchTable(t)} MATCH ${p.bind(text(query))})` };
  const source = ` FROM ${table.sql}${compileWhere(tables, table, options.where, params, narrowed)}`;
  const top = SEARCH_WEIGHTS[0] * ranked.terms.filter((t) => !t.exclude).length;
  return { sql: `SELECT ${['id', ...keys, `${top} AS ${SCORE}`].join(', ')}${source} ORDER BY ${orderBy}`, params };
}

/** The conditions a find's where requires together: itself, or its `and`'s parts (at any depth of `and`s). */
const required = (where: Filter): Filter[] => ('and' in where ? where.and.flatMap(required) : [where]);

/** A condition on a field the planner can start from (an index's leading key): a user's videos, an album's. */
const pins = (f: Filter): boolean => 'op' in f && (f.op === 'eq' || f.op === 'in' || f.op === 'inSelect');

/**
 * The count of a search that nothing else pins (every video the caller may see, every user):
 * from the index's matches, each joined to its row, or from the index alone when nothing else is
 * asked (it holds exactly the table's rows). As a condition (`id IN (…)`), SQLite first copied
 * every match into a temporary index, which for a word in 120,000 videos cost as much as the
 * lookups. Undefined for any other find, which counts its own where: one that pins a key counts
 * from that key's index, the match a condition, so a user's few videos are not found by walking
 * every match of a word.
 */
function compileCount(tables: Tables, table: Table, where: Filter | undefined): { count: string; countParams: SqlValue[] } | undefined {
  const parts = where ? required(where) : [];
  const match = parts.find((p): p is MatchFilter => 'match' in p && canMatch(p.match));
  if (!match || parts.some(pins)) return undefined;
  const countParams: SqlValue[] = [];
  const fts = searchTable(table);
  countParams.push(ftsQuery(match.match));
  const rest = parts.filter((p) => p !== match);
  if (rest.length === 0) return { count: `SELECT count(*) AS n FROM ${fts} WHERE ${fts} MATCH ?`, countParams };
  const from = `(SELECT rowid AS rb_match FROM ${fts} WHERE ${fts} MATCH ?) AS rb_m JOIN ${table.sql} ON ${table.sql}.id = rb_m.rb_match`;
  return { count: `SELECT count(*) AS n FROM ${from} WHERE ${compileFilter(tables, table, { and: rest }, countParams)}`, countParams };
}

/** ` WHERE …` or nothing. */
export function compileWhere(tables: Tables, table: Table, where: Filter | undefined, params: SqlValue[], dialect = sqliteDialect): string {
  return where ? ` WHERE ${compileFilter(tables, table, where, params, dialect)}` : '';
}

/**
 * The page clause, appending its values to `params`: none for a find without a limit or offset
 * (binding LIMIT -1 cost every such read about 3 µs), else `LIMIT ? OFFSET ?` bound. Written into
 * the text, a small LIMIT made SQLite sort a whole table rather than walk an index
 * (query-plans.test.ts), and every page size and offset would be a statement of its own.
 */
function pageOf(limit: number | undefined, offset: number, params: SqlValue[]): string {
  if (limit === undefined && offset === 0) return '';
  params.push(limit ?? -1, offset);
  return ' LIMIT ? OFFSET ?';
}
