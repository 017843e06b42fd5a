import type { Filter, Scalar } from '@reelbase/core';
import { toSql, toSqlId } from './row-codec';
import { columnType, quote, type Table, type Tables } from './sqlite-schema';
import type { SqlValue } from './sqlite-types';

/** Registered on every connection: Unicode lower-casing (SQLite's lower() and LIKE fold ASCII only). */
export const LOWER_FUNCTION = 'rb_lower';

// Above this many values an `in` list is bound as one JSON array, keeping the statement text
// (and so the statement cache) stable and staying far from SQLite's bound-parameter limit.
const MAX_INLINE_VALUES = 100;

/**
 * Compiles a filter tree to an SQL boolean expression, appending bound values to `params`. Values
 * are never interpolated; field names are checked against the schema.
 *
 * SQL's NULL makes a comparison unknown where JS answers false; WHERE already treats unknown as
 * false, so only `not` needs care (`x IS NOT 1` is true for both 0 and NULL). `ne`/`nin` match
 * missing (NULL) fields, as `!==` does.
 */
export function compileFilter(tables: Tables, table: Table, filter: Filter, params: SqlValue[]): string {
  if (!filter || typeof filter !== 'object') throw new Error(`invalid filter: ${JSON.stringify(filter)}`);
  if ('and' in filter) return group(filter.and, 'AND', '1', (f) => compileFilter(tables, table, f, params));
  if ('or' in filter) return group(filter.or, 'OR', '0', (f) => compileFilter(tables, table, f, params));
  if ('not' in filter) return `(${compileFilter(tables, table, filter.not, params)}) IS NOT 1`;
  if (!('op' in filter) || typeof filter.field !== 'string') throw new Error(`invalid filter: ${JSON.stringify(filter)}`);

  const col = column(table, filter.field);
  const convert = (value: Scalar): SqlValue => (filter.field === 'id' ? toSqlId(table, value) : toSql(value));
  const bind = (value: Scalar): string => {
    params.push(convert(value));
    return '?';
  };
  switch (filter.op) {
    case 'eq':
      return filter.value === null ? `${col} IS NULL` : `${col} = ${bind(filter.value)}`;
    case 'ne':
      return filter.value === null ? `${col} IS NOT NULL` : `(${col} IS NULL OR ${col} <> ${bind(filter.value)})`;
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      // Nothing is ordered against null.
      return filter.value === null ? '0' : `${col} ${RANGE_OPS[filter.op]} ${bind(filter.value)}`;
    case 'in':
    case 'nin': {
      const values = filter.values.filter((v) => v !== null);
      const hasNull = values.length < filter.values.length;
      const list =
        values.length > MAX_INLINE_VALUES
          ? `(SELECT value FROM json_each(${(params.push(JSON.stringify(values.map(convert))), '?')}))`
          : `(${values.map(bind).join(', ')})`;
      if (filter.op === 'in') {
        const parts = [...(values.length ? [`${col} IN ${list}`] : []), ...(hasNull ? [`${col} IS NULL`] : [])];
        return group(parts, 'OR', '0', (p) => p);
      }
      if (!values.length) return hasNull ? `${col} IS NOT NULL` : '1';
      return hasNull ? `(${col} IS NOT NULL AND ${col} NOT IN ${list})` : `(${col} IS NULL OR ${col} NOT IN ${list})`;
    }
    case 'contains':
      return containsSql(col, String(filter.value), params);
    case 'inSelect': {
      const { collection, field, where } = filter.select;
      const other = tables.get(collection);
      if (!other) throw new Error(`unknown collection ${JSON.stringify(collection)} in inSelect`);
      // Callers keep auto ids in TEXT columns ("7"). `text IN (SELECT integer)` would compare
      // numerically and lose the index on the text column, so the id is cast to TEXT (CAST gives
      // TEXT affinity). The other way round, `id IN (SELECT text)`, already compares numerically
      // and searches by rowid.
      const cast = columnType(table, filter.field) === 'TEXT' && columnType(other, field) === 'INTEGER' && field === 'id';
      const selected = cast ? 'CAST(id AS TEXT)' : column(other, field);
      const sub = `SELECT ${selected} FROM ${other.sql}`;
      return where ? `${col} IN (${sub} WHERE ${compileFilter(tables, other, where, params)})` : `${col} IN (${sub})`;
    }
    default:
      throw new Error(`unknown filter op ${JSON.stringify((filter as { op: unknown }).op)}`);
  }
}

export function column(table: Table, field: string): string {
  if (field === 'id') return 'id';
  if (!Object.hasOwn(table.fields, field)) {
    throw new Error(`unknown field ${JSON.stringify(field)} in collection ${table.name}: only declared fields can be filtered or sorted`);
  }
  return quote(field);
}

const RANGE_OPS = { lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

function group<T>(items: readonly T[], op: 'AND' | 'OR', empty: string, compile: (item: T) => string): string {
  if (items.length === 0) return empty;
  if (items.length === 1) return compile(items[0]);
  return `(${items.map(compile).join(` ${op} `)})`;
}

function containsSql(col: string, needle: string, params: SqlValue[]): string {
  // LIKE folds ASCII case only; other needles go through the Unicode-aware function (a scan
  // either way: a leading % never uses an index).
  if (/^[\u0000-\u007f]*$/.test(needle)) {
    params.push(`%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    return `${col} LIKE ? ESCAPE '\\'`;
  }
  params.push(needle.toLowerCase());
  return `instr(${LOWER_FUNCTION}(${col}), ?) > 0`;
}
