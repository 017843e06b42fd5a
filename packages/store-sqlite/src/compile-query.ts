import type { Filter, FindOptions, OrderBy } from '@reelbase/core';
import { column, compileFilter } from './compile-filter';
import { DOC_COLUMN, isText, type Table, type Tables } from './sqlite-schema';
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
  return {
    select: `SELECT id, ${DOC_COLUMN} FROM ${table.sql}${where} ORDER BY ${compileOrderBy(table, options.orderBy)} LIMIT ? OFFSET ?`,
    count: `SELECT count(*) AS n FROM ${table.sql}${where}`,
    params,
  };
}

/** ` WHERE …` or nothing. */
export function compileWhere(tables: Tables, table: Table, where: Filter | undefined, params: SqlValue[]): string {
  return where ? ` WHERE ${compileFilter(tables, table, where, params)}` : '';
}

/** ORDER BY that always ends with id ascending (numeric for auto ids: the column is INTEGER). */
export function compileOrderBy(table: Table, orderBy: readonly OrderBy[] = []): string {
  const terms = orderBy.map(({ field, direction }) => {
    if (direction !== 'asc' && direction !== 'desc') throw new Error(`invalid sort direction ${JSON.stringify(direction)}`);
    // SQLite sorts NULL lowest: first ascending, last descending, as the contract wants.
    const collate = isText(table, field) ? ' COLLATE NOCASE' : '';
    return `${column(table, field)}${collate} ${direction === 'asc' ? 'ASC' : 'DESC'}`;
  });
  if (!orderBy.some((o) => o.field === 'id')) terms.push('id ASC');
  return terms.join(', ');
}
