import type { SumRow } from '../store';
import { column, quote, type SqlTable } from './sql-table';

/** The grouped sums of Store.sumBy over `table`, `where` being the compiled ` WHERE …` (or ''); each column is named by its field. */
export function sumBySql(table: SqlTable, by: readonly string[], sums: readonly string[], where: string): string {
  const keys = by.map((field) => column(table, field));
  const selected = [...by.map((field, i) => `${keys[i]} AS ${quote(field)}`), ...sums.map((field) => `coalesce(sum(${column(table, field)}), 0) AS ${quote(field)}`)];
  return `SELECT ${selected.join(', ')} FROM ${table.sql}${where}${keys.length ? ` GROUP BY ${keys.join(', ')}` : ''}`;
}

/** The rows of sumBySql as Store.sumBy answers them: sums as numbers (PostgreSQL answers a bigint's or numeric's text). */
export const sumRows = (rows: readonly Record<string, unknown>[], sums: readonly string[]): SumRow[] =>
  rows.map((row) => {
    const out = { ...row } as SumRow;
    for (const field of sums) out[field] = Number(row[field]);
    return out;
  });
