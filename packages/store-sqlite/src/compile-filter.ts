import type { Filter } from '@reelbase/core';
import { column, compileFilter as compile, isText, SqlParams, type SqlDialect } from '@reelbase/core/sql';
import { LOWER_FUNCTION } from './connect';
import { toSql, toSqlId } from './row-codec';
import { columnType, type Table, type Tables } from './sqlite-schema';
import { ftsQuery, matchRows } from './sqlite-search';
import type { SqlValue } from './sqlite-types';

// Above this many values an `in` list is bound as one JSON array, keeping the statement text
// (and so the statement cache) stable and staying far from SQLite's bound-parameter limit.
const MAX_INLINE_VALUES = 100;

/** SQLite's side of the shared compiler (@reelbase/core/sql). */
export const sqliteDialect: SqlDialect<SqlValue> = {
  // Never INCOMPARABLE: a non-canonical auto id is bound as a BLOB, which no INTEGER key equals.
  value: (table, field, value) => (field === 'id' ? toSqlId(table, value) : toSql(value)),

  member: (col, values, _table, _field, params) =>
    values.length > MAX_INLINE_VALUES
      ? `${col} IN (SELECT value FROM json_each(${params.bind(JSON.stringify(values))}))`
      : `${col} IN (${values.map((v) => params.bind(v)).join(', ')})`,

  contains(col, needle, params) {
    // LIKE folds ASCII case only; other needles go through the Unicode-aware function (a scan
    // either way: a leading % never uses an index).
    if (/^[\u0000-\u007f]*$/.test(needle)) return `${col} LIKE ${params.bind(`%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)} ESCAPE '\\'`;
    return `instr(${LOWER_FUNCTION}(${col}), ${params.bind(needle.toLowerCase())}) > 0`;
  },

  match: (table, query, params) => matchRows(table, params.bind(ftsQuery(table, query))),

  selected(table, field, other, selected) {
    // Callers keep auto ids in TEXT columns ("7"). `text IN (SELECT integer)` would compare
    // numerically and lose the index on the text column, so the id is cast to TEXT (CAST gives
    // TEXT affinity). The other way round, `id IN (SELECT text)`, already compares numerically
    // and searches by rowid.
    const cast = columnType(table, field) === 'TEXT' && columnType(other, selected) === 'INTEGER' && selected === 'id';
    return cast ? 'CAST(id AS TEXT)' : column(other, selected);
  },

  // SQLite sorts NULL lowest: first ascending, last descending, as the contract wants.
  orderTerm: (table, field, direction) => `${column(table, field)}${isText(table, field) ? ' COLLATE NOCASE' : ''} ${direction === 'asc' ? 'ASC' : 'DESC'}`,
};

/** Compiles a filter tree to an SQL boolean expression, appending bound values to `params`. */
export function compileFilter(tables: Tables, table: Table, filter: Filter, params: SqlValue[], dialect = sqliteDialect): string {
  return compile(dialect, tables, table, filter, new SqlParams(() => '?', params));
}

/** ` WHERE …` or nothing. */
export function compileWhere(tables: Tables, table: Table, where: Filter | undefined, params: SqlValue[], dialect = sqliteDialect): string {
  return where ? ` WHERE ${compileFilter(tables, table, where, params, dialect)}` : '';
}
