import type { Filter, FindOptions } from '@reelbase/core';
import { compileOrderBy } from '@reelbase/core/sql';
import { compileFilter, sqliteDialect } from './compile-filter';
import { DOC_COLUMN, type Table, type Tables } from './sqlite-schema';
import type { SqlValue } from './sqlite-types';

/** The statements of one `find`: the page (bind `params`, then limit and offset) and its total. */
export interface CompiledFind {
  select: string;
  count: string;
  params: SqlValue[];
}

export function compileFind(tables: Tables, table: Table, options: FindOptions): CompiledFind {
  const params: SqlValue[] = [];
  const where = compileWhere(tables, table, options.where, params);
  const orderBy = compileOrderBy(sqliteDialect, table, options.orderBy);
  return {
    select: `SELECT id, ${DOC_COLUMN} FROM ${table.sql}${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
    count: `SELECT count(*) AS n FROM ${table.sql}${where}`,
    params,
  };
}

/** ` WHERE …` or nothing. */
export function compileWhere(tables: Tables, table: Table, where: Filter | undefined, params: SqlValue[]): string {
  return where ? ` WHERE ${compileFilter(tables, table, where, params)}` : '';
}
