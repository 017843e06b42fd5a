import { column, isText, type SqlDialect, type SqlTable } from '@reelbase/core/sql';
import { filterValue, storable } from './row-codec';
import { columnType } from './pg-columns';
import { SEARCH_COLUMN, tsQuery, tsQueryExpression } from './pg-search';

const CANONICAL_INTEGER = `'^(0|-?[1-9][0-9]{0,14})$'`;

/**
 * `expr`, of type `from`, converted to compare with a column of type `to`; text that spells no
 * value of `to` (an id that is not a canonical integer) becomes NULL, which matches nothing.
 */
export function convert(expr: string, from: string, to: string): string {
  if (from === to) return expr;
  if (to === 'text') return `${expr}::text`;
  if (from === 'text' && to === 'bigint') return `CASE WHEN ${expr} ~ ${CANONICAL_INTEGER} THEN ${expr}::bigint END`;
  if (from === 'bigint' && to === 'double precision') return `${expr}::double precision`;
  throw new Error(`cannot compare a ${from} column with a ${to} one in a semi-join`);
}

/** PostgreSQL's side of the shared compiler (@reelbase/core/sql). */
export const pgDialect: SqlDialect<unknown> = {
  value: filterValue,

  // One array parameter whatever the number of values: the statement text stays the same.
  member: (col, values, table, field, params) => `${col} = ANY(${params.bind(values)}::${columnType(table, field)}[])`,

  // Folds case as the database's LC_CTYPE does (Unicode under a UTF-8 locale); strpos takes every character literally.
  contains: (col, needle, params) => `strpos(lower(${col} COLLATE "default"), ${params.bind(storable(needle.toLowerCase()))}) > 0`,

  match: (_table, query, params) => `${SEARCH_COLUMN} @@ ${tsQueryExpression(params.bind(tsQuery(query)))}`,

  selected: (table: SqlTable, field: string, other: SqlTable, selected: string) =>
    convert(column(other, selected), columnType(other, selected), columnType(table, field)),

  orderTerm(table, field, direction) {
    // Text columns are in the C collation, so lower() folds ASCII only, as SQLite's NOCASE does.
    const key = isText(table, field) ? `lower(${column(table, field)})` : column(table, field);
    return direction === 'asc' ? `${key} ASC NULLS FIRST` : `${key} DESC NULLS LAST`;
  },
};
