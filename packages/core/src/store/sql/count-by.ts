import { column, type SqlTable } from './sql-table';

/** A row of a grouped count: the group's value and its count (a bigint's text on PostgreSQL). */
export interface GroupRow {
  k: unknown;
  n: number | string;
}

/** The grouped count of Store.countBy over `table`, `where` being the compiled ` WHERE …` (or ''). */
export function countBySql(table: SqlTable, field: string, where: string, distinct?: string): string {
  const key = column(table, field);
  const counted = distinct === undefined ? '*' : `DISTINCT ${column(table, distinct)}`;
  return `SELECT ${key} AS k, count(${counted}) AS n FROM ${table.sql}${where} GROUP BY ${key}`;
}

/** The rows of countBySql as Store.countBy answers them: counts by the value as a string, the null group left out. */
export const groupCounts = (rows: readonly GroupRow[]): Map<string, number> =>
  new Map(rows.filter((row) => row.k !== null).map((row) => [String(row.k), Number(row.n)]));
