import type { SearchQuery } from '../search';
import type { OrderBy, Scalar } from '../store';
import type { SqlTable } from './sql-table';

/** What a dialect answers for a filter value that no stored value of the field can equal or be ordered against. */
export const INCOMPARABLE: unique symbol = Symbol('incomparable');

/**
 * The bound values of one statement and the placeholder each gets (`?` in SQLite, `$1`… in
 * PostgreSQL, where a placeholder may be used twice).
 */
export class SqlParams<V> {
  constructor(
    private readonly placeholder: (position: number) => string,
    readonly values: V[] = [],
  ) {}

  bind(value: V): string {
    this.values.push(value);
    return this.placeholder(this.values.length);
  }
}

/** Where SQL engines differ in compiling the Store's query forms; see compile-filter.ts for the rest. */
export interface SqlDialect<V> {
  /**
   * A non-null filter value as bound against `field` of `table` (`id` included), or INCOMPARABLE
   * when no stored value can compare with it (an auto id that is not a canonical integer, say).
   */
  value(table: SqlTable, field: string, value: Exclude<Scalar, null>): V | typeof INCOMPARABLE;
  /** `column` is one of `values` (converted by `value`, at least one, no nulls). */
  member(column: string, values: V[], table: SqlTable, field: string, params: SqlParams<V>): string;
  /** Case-insensitive substring match of `needle` in the (text) `column`, every character literal. */
  contains(column: string, needle: string, params: SqlParams<V>): string;
  /** The select list of a semi-join `table.field IN (SELECT other.selected …)`, converted to compare with `table.field`. */
  selected(table: SqlTable, field: string, other: SqlTable, selected: string): string;
  /** Rows of the searchable `table` that match `query` (which has a term to match) in its search index. */
  match(table: SqlTable, query: SearchQuery, params: SqlParams<V>): string;
  /** One ORDER BY term: nulls first ascending and last descending, `text` fields folding ASCII case. */
  orderTerm(table: SqlTable, field: string, direction: OrderBy['direction']): string;
}
