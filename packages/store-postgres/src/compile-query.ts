import { canMatch, rankedSearch, type Filter, type FindOptions } from '@reelbase/core';
import { compileFilter, compileOrderBy, countBySql, SqlParams, sumBySql } from '@reelbase/core/sql';
import { DOC_COLUMN, type PgTable, type PgTables } from './pg-columns';
import { pgDialect } from './pg-dialect';
import { nearDialect, nearScore, type Near } from './pg-near';
import { tsScore } from './pg-search';

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

/**
 * A page and its total in one statement, so both come from one snapshot: every row carries the
 * total (an uncorrelated subquery PostgreSQL runs once). `limit` undefined means no limit.
 */
export function compileFind(tables: PgTables, table: PgTable, options: FindOptions & { limit?: number; offset: number }, near?: Near): Statement {
  const params = newParams();
  const where = compileWhere(tables, table, options.where, params, near);
  const order = compileOrderBy(pgDialect, table, options.orderBy, scoreOf(table, options.where, options.orderBy, params, near));
  const sql =
    `SELECT id, ${DOC_COLUMN}, (SELECT count(*) FROM ${table.sql}${where}) AS total FROM ${table.sql}${where}` +
    ` ORDER BY ${order} LIMIT ${params.bind(options.limit ?? null)} OFFSET ${params.bind(options.offset)}`;
  return { sql, params: params.values };
}

/** The first match in order, never counting. */
export function compileFindOne(tables: PgTables, table: PgTable, where: Filter, orderBy: FindOptions['orderBy'], near?: Near): Statement {
  const params = newParams();
  const whereSql = compileWhere(tables, table, where, params, near);
  const sql = `SELECT id, ${DOC_COLUMN} FROM ${table.sql}${whereSql} ORDER BY ${compileOrderBy(pgDialect, table, orderBy, scoreOf(table, where, orderBy, params, near))} LIMIT 1`;
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
