import { canMatch } from '../search';
import type { Filter, Scalar } from '../store';
import { INCOMPARABLE, type SqlDialect, type SqlParams } from './sql-dialect';
import { column, type SqlTable, type SqlTables } from './sql-table';

const RANGE_OPS = { lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/**
 * Compiles a filter tree to an SQL boolean expression, binding values through `params`. Values
 * are never interpolated; field names are checked against the schema.
 *
 * SQL's NULL makes a comparison unknown where JS answers false; WHERE already treats unknown as
 * false, so only `not` needs care (`x IS NOT TRUE` holds for both false and NULL). `ne`/`nin`
 * match missing (NULL) fields, as `!==` does.
 */
export function compileFilter<V>(dialect: SqlDialect<V>, tables: SqlTables, table: SqlTable, filter: Filter, params: SqlParams<V>): string {
  const compile = (f: Filter): string => compileFilter(dialect, tables, table, f, params);
  if (!filter || typeof filter !== 'object') throw new Error(`invalid filter: ${JSON.stringify(filter)}`);
  if ('and' in filter) return group(filter.and, 'AND', 'TRUE', compile);
  if ('or' in filter) return group(filter.or, 'OR', 'FALSE', compile);
  if ('not' in filter) return `(${compile(filter.not)}) IS NOT TRUE`;
  if ('match' in filter) {
    if (!table.search) throw new Error(`collection ${table.name} is not searchable`);
    return canMatch(filter.match) ? dialect.match(table, filter.match, params) : 'FALSE';
  }
  if (!('op' in filter) || typeof filter.field !== 'string') throw new Error(`invalid filter: ${JSON.stringify(filter)}`);

  const { field } = filter;
  const col = column(table, field);
  const convert = (value: Exclude<Scalar, null>) => dialect.value(table, field, value);
  switch (filter.op) {
    case 'eq':
    case 'ne': {
      const eq = filter.op === 'eq';
      if (filter.value === null) return `${col} IS ${eq ? '' : 'NOT '}NULL`;
      const value = convert(filter.value);
      if (value === INCOMPARABLE) return eq ? 'FALSE' : 'TRUE';
      return eq ? `${col} = ${params.bind(value)}` : `(${col} IS NULL OR ${col} <> ${params.bind(value)})`;
    }
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      // Nothing is ordered against null.
      const value = filter.value === null ? INCOMPARABLE : convert(filter.value);
      return value === INCOMPARABLE ? 'FALSE' : `${col} ${RANGE_OPS[filter.op]} ${params.bind(value)}`;
    }
    case 'in':
    case 'nin': {
      const hasNull = filter.values.includes(null);
      // A value nothing can equal changes neither form.
      const values = filter.values.flatMap((v) => (v === null ? [] : [convert(v)])).filter((v): v is V => v !== INCOMPARABLE);
      const member = values.length ? dialect.member(col, values, table, field, params) : undefined;
      if (filter.op === 'in') return group([...(member ? [member] : []), ...(hasNull ? [`${col} IS NULL`] : [])], 'OR', 'FALSE', (p) => p);
      if (!member) return hasNull ? `${col} IS NOT NULL` : 'TRUE';
      return hasNull ? `(${col} IS NOT NULL AND NOT (${member}))` : `(${col} IS NULL OR NOT (${member}))`;
    }
    case 'contains':
      return dialect.contains(col, String(filter.value), params);
    case 'inSelect': {
      const { collection, field: selected, where } = filter.select;
      const other = tables.get(collection);
      if (!other) throw new Error(`unknown collection ${JSON.stringify(collection)} in inSelect`);
      column(other, selected);
      const sub = `SELECT ${dialect.selected(table, field, other, selected)} FROM ${other.sql}`;
      return where ? `${col} IN (${sub} WHERE ${compileFilter(dialect, tables, other, where, params)})` : `${col} IN (${sub})`;
    }
    default:
      throw new Error(`unknown filter op ${JSON.stringify((filter as { op: unknown }).op)}`);
  }
}

function group<T>(items: readonly T[], op: 'AND' | 'OR', empty: string, compile: (item: T) => string): string {
  if (items.length === 0) return empty;
  if (items.length === 1) return compile(items[0]);
  return `(${items.map(compile).join(` ${op} `)})`;
}
