import type { Filter, FindOptions } from '@reelbase/core';
import { canMatch, rankedSearch } from '@reelbase/core';
import { compileOrderBy } from '@reelbase/core/sql';
import { compileFilter, sqliteDialect } from './compile-filter';
import { DOC_COLUMN, type Table, type Tables } from './sqlite-schema';
import { ftsScore } from './sqlite-search';
import type { SqlValue } from './sqlite-types';

/** The statements of one `find`: the rows (bind `params`; `pageOf` adds the limit and offset) and their total (bind `countParams`). */
export interface CompiledFind {
  select: string;
  count: string;
  params: SqlValue[];
  countParams: SqlValue[];
}

export function compileFind(tables: Tables, table: Table, options: FindOptions): CompiledFind {
  const countParams: SqlValue[] = [];
  const where = compileWhere(tables, table, options.where, countParams);
  const params = [...countParams];
  const ranked = rankedSearch(options.where, options.orderBy);
  // A query that can match nothing still orders by an expression: a bare constant there names a column position.
  const score = ranked && (canMatch(ranked) ? ftsScore(table, ranked, (value) => (params.push(value), '?')) : 'CAST(NULL AS REAL)');
  const orderBy = compileOrderBy(sqliteDialect, table, options.orderBy, score);
  return {
    select: `SELECT id, ${DOC_COLUMN} FROM ${table.sql}${where} ORDER BY ${orderBy}`,
    count: `SELECT count(*) AS n FROM ${table.sql}${where}`,
    params,
    countParams,
  };
}

/** ` WHERE …` or nothing. */
export function compileWhere(tables: Tables, table: Table, where: Filter | undefined, params: SqlValue[]): string {
  return where ? ` WHERE ${compileFilter(tables, table, where, params)}` : '';
}

/**
 * The page clause, appending its values to `params`: none for a find without a limit or offset
 * (binding LIMIT -1 cost every such read about 3 µs), else `LIMIT ? OFFSET ?` bound. Written into
 * the text, a small LIMIT made SQLite sort a whole table rather than walk an index
 * (query-plans.test.ts), and every page size and offset would be a statement of its own.
 */
export function pageOf(limit: number | undefined, offset: number, params: SqlValue[]): string {
  if (limit === undefined && offset === 0) return '';
  params.push(limit ?? -1, offset);
  return ' LIMIT ? OFFSET ?';
}
