import { quote } from '@reelbase/core/sql';
import type { Statement } from './compile-query';
import { DOC_COLUMN, PG_TYPES, type PgTable } from './pg-columns';

/** One document as a row: its JSON and its columns' values (row-codec.ts). */
export interface EncodedRow {
  json: string;
  values: readonly unknown[];
}

/** The array type a column's values are bound as: the column's type without its collation (the column applies its own). */
const arrayType = (table: PgTable, field: string): string => `${PG_TYPES[table.fields[field]].catalog}[]`;

/**
 * Many documents in one INSERT: each column's values bound as one array and read back as rows by
 * `unnest`, so a batch costs one round trip and one statement whatever its size (a row of `$n`
 * placeholders each would meet the protocol's 65,535-parameter limit at a few thousand rows).
 * `ids` are the rows' ids, or undefined to let the identity hand them out, in the rows' order.
 * A clashing row is skipped (ON CONFLICT DO NOTHING), so fewer ids come back than rows went in.
 */
export function compileInsertMany(table: PgTable, rows: readonly EncodedRow[], ids: readonly unknown[] | undefined): Statement {
  const columns = [DOC_COLUMN, ...table.columns.map(quote)];
  const types = ['json[]', ...table.columns.map((field) => arrayType(table, field))];
  const params: unknown[] = [rows.map((r) => r.json), ...table.columns.map((_, c) => rows.map((r) => r.values[c]))];
  if (ids !== undefined) {
    columns.unshift('id');
    types.unshift(table.id === 'auto' ? 'bigint[]' : 'text[]');
    params.unshift(ids);
  }
  // WITH ORDINALITY and its ORDER BY hand the rows to the identity in the batch's order.
  const arrays = types.map((type, i) => `$${i + 1}::${type}`).join(', ');
  const names = columns.map((_, i) => `c${i}`);
  const sql =
    `INSERT INTO ${table.sql} (${columns.join(', ')}) SELECT ${names.join(', ')} FROM unnest(${arrays}) WITH ORDINALITY AS r(${names.join(', ')}, n) ORDER BY n` +
    ` ON CONFLICT DO NOTHING RETURNING id`;
  return { sql, params };
}
