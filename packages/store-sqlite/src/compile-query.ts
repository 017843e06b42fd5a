import type { Filter, FindOptions } from '@reelbase/core';
import { canMatch, RELEVANCE, rankedSearch } from '@reelbase/core';
import { column, compileOrderBy } from '@reelbase/core/sql';
import { compileFilter, sqliteDialect } from './compile-filter';
import { DOC_COLUMN, type Table, type Tables } from './sqlite-schema';
import { ftsQuery, ftsScore, searchTable } from './sqlite-search';
import type { SqlValue } from './sqlite-types';

/** The statements of one `find`: its rows, a page of them (`rows` appends the values it binds to a copy of `params`), and their total (bind `countParams`). */
export interface CompiledFind {
  rows(limit: number | undefined, offset: number): { sql: string; params: SqlValue[] };
  count: string;
  countParams: SqlValue[];
}

const SCORE = 'rb_score';

export function compileFind(tables: Tables, table: Table, options: FindOptions): CompiledFind {
  const countParams: SqlValue[] = [];
  const where = compileWhere(tables, table, options.where, countParams);
  const count = `SELECT count(*) AS n FROM ${table.sql}${where}`;
  const only = options.where && 'match' in options.where && canMatch(options.where.match) ? options.where.match : undefined;
  // The index holds every row and nothing else, so a bare search counts its matches there alone.
  const counted = only ? { count: `SELECT count(*) AS n FROM ${searchTable(table)} WHERE ${searchTable(table)} MATCH ?`, countParams: [ftsQuery(only)] } : { count, countParams };
  const ranked = rankedSearch(options.where, options.orderBy);
  if (ranked && canMatch(ranked)) {
    // A ranked search orders every match. The sort carries only the keys (read from an index that
    // holds them, when the schema declares one) and the page's documents are read afterwards:
    // carrying each row's document through the sort read every match's whole row.
    const scoreParams: SqlValue[] = [];
    const score = ftsScore(table, ranked, (value) => (scoreParams.push(value), '?'));
    const keys = [...new Set((options.orderBy ?? []).map((o) => o.field).filter((f) => f !== RELEVANCE && f !== 'id'))].map((f) => column(table, f));
    const orderBy = compileOrderBy(sqliteDialect, table, options.orderBy, SCORE);
    const inner = `SELECT ${['id', ...keys, `${score} AS ${SCORE}`].join(', ')} FROM ${table.sql}${where} ORDER BY ${orderBy}`;
    return {
      rows(limit, offset) {
        const params = [...scoreParams, ...countParams];
        const sql = `SELECT id, (SELECT ${DOC_COLUMN} FROM ${table.sql} AS d WHERE d.id = p.id) AS ${DOC_COLUMN} FROM (${inner}${pageOf(limit, offset, params)}) AS p ORDER BY ${orderBy}`;
        return { sql, params };
      },
      ...counted,
    };
  }
  // A query that can match nothing still orders by an expression: a bare constant there names a column position.
  const orderBy = compileOrderBy(sqliteDialect, table, options.orderBy, ranked && 'CAST(NULL AS REAL)');
  const select = `SELECT id, ${DOC_COLUMN} FROM ${table.sql}${where} ORDER BY ${orderBy}`;
  return {
    rows(limit, offset) {
      const params = [...countParams];
      return { sql: select + pageOf(limit, offset, params), params };
    },
    ...counted,
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
function pageOf(limit: number | undefined, offset: number, params: SqlValue[]): string {
  if (limit === undefined && offset === 0) return '';
  params.push(limit ?? -1, offset);
  return ' LIMIT ? OFFSET ?';
}
