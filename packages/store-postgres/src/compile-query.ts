import { canMatch, rankedSearch, type Filter, type FindOptions } from '@reelbase/core';
import { compileFilter, compileOrderBy, SqlParams } from '@reelbase/core/sql';
import { DOC_COLUMN, type PgTable, type PgTables } from './pg-columns';
import { pgDialect } from './pg-dialect';
import { tsScore } from './pg-search';

/** One statement and its parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

const newParams = (): SqlParams<unknown> => new SqlParams((n) => `$${n}`);

/** ` WHERE …` or nothing. */
function compileWhere(tables: PgTables, table: PgTable, where: Filter | undefined, params: SqlParams<unknown>): string {
  return where ? ` WHERE ${compileFilter(pgDialect, tables, table, where, params)}` : '';
}

/**
 * A page and its total in one statement, so both come from one snapshot: every row carries the
 * total (an uncorrelated subquery PostgreSQL runs once). `limit` undefined means no limit.
 */
export function compileFind(tables: PgTables, table: PgTable, options: FindOptions & { limit?: number; offset: number }): Statement {
  const params = newParams();
  const where = compileWhere(tables, table, options.where, params);
  const ranked = rankedSearch(options.where, options.orderBy);
  // A query that can match nothing still orders by an expression: a bare constant there names a column position.
  const score = ranked && (canMatch(ranked) ? tsScore(table, ranked, (v) => params.bind(v)) : 'CAST(NULL AS REAL)');
  const order = compileOrderBy(pgDialect, table, options.orderBy, score);
  const sql =
    `SELECT id, ${DOC_COLUMN}, (SELECT count(*) FROM ${table.sql}${where}) AS total FROM ${table.sql}${where}` +
    ` ORDER BY ${order} LIMIT ${params.bind(options.limit ?? null)} OFFSET ${params.bind(options.offset)}`;
  return { sql, params: params.values };
}

/** The first match in order, never counting. */
export function compileFindOne(tables: PgTables, table: PgTable, where: Filter, orderBy: FindOptions['orderBy']): Statement {
  const params = newParams();
  const whereSql = compileWhere(tables, table, where, params);
  const ranked = rankedSearch(where, orderBy);
  const score = ranked && (canMatch(ranked) ? tsScore(table, ranked, (v) => params.bind(v)) : 'CAST(NULL AS REAL)');
  const sql = `SELECT id, ${DOC_COLUMN} FROM ${table.sql}${whereSql} ORDER BY ${compileOrderBy(pgDialect, table, orderBy, score)} LIMIT 1`;
  return { sql, params: params.values };
}

/** Up to `limit` matches in order, locked for the transaction; rows other transactions hold are skipped. */
export function compileLockNext(tables: PgTables, table: PgTable, where: Filter, orderBy: FindOptions['orderBy'], limit: number): Statement {
  const params = newParams();
  const sql =
    `SELECT id, ${DOC_COLUMN} FROM ${table.sql}${compileWhere(tables, table, where, params)} ORDER BY ${compileOrderBy(pgDialect, table, orderBy)}` +
    ` LIMIT ${params.bind(limit)} FOR UPDATE SKIP LOCKED`;
  return { sql, params: params.values };
}

export function compileCount(tables: PgTables, table: PgTable, where: Filter | undefined): Statement {
  const params = newParams();
  return { sql: `SELECT count(*) AS n FROM ${table.sql}${compileWhere(tables, table, where, params)}`, params: params.values };
}

export function compileDeleteWhere(tables: PgTables, table: PgTable, where: Filter): Statement {
  const params = newParams();
  return { sql: `DELETE FROM ${table.sql}${compileWhere(tables, table, where, params)}`, params: params.values };
}
