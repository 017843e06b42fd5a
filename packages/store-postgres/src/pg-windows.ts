import type { CollectionSchema, OrderBy, Schema } from '@reelbase/core';
import { column, quote, wantedIndexes, type SqlTable } from '@reelbase/core/sql';
import type { PoolClient } from 'pg';
import { identifier, type PgTable, type PgTables } from './pg-columns';
import { pgDialect } from './pg-dialect';

/**
 * A sort a search over every row walks in an index of its own (compile-query.ts compileWalk)
 * instead of sorting every match: the rows in that order, each tested for the words, until a page
 * is full.
 */
export interface SearchWindow {
  /** The sort: one field, ties to the lowest id. */
  field: string;
  direction: 'asc' | 'desc';
  /** The index's name. */
  index: string;
  /** The index's keys, which are also the ORDER BY that walks it. */
  order: string;
}

export const WINDOW_PREFIX = 'rbwin_';

/**
 * The windows of a searchable table: its relevance tie-break descending (CollectionSchema.searchTies,
 * which the ranked walk reads), and every list order of its indexes led by a search key (a user's
 * videos by date, by name…), as store-sqlite's windows are. A list order's window leads with
 * whether the field is null, an expression no list orders by: the planner never walks the whole
 * table's index for a list of one user's rows, which its own index serves.
 */
export function searchWindows(collection: CollectionSchema, table: SqlTable): SearchWindow[] {
  if (!table.search) return [];
  const ties = table.searchTies;
  const keys = new Set(table.searchKeys ?? []);
  const orders = [...wantedIndexes(collection, table).values()]
    .filter((i) => !i.unique && i.keys.length === 2 && keys.has(i.keys[0].field))
    .map((i) => i.keys[1])
    .filter((o) => !(o.field === ties && o.desc));
  const window = (field: string, direction: 'asc' | 'desc', index: string, lead: string[]): SearchWindow => ({
    field,
    direction,
    index: identifier(index),
    order: [...lead, pgDialect.orderTerm(table, field, direction), 'id ASC'].join(', '),
  });
  return [
    ...(ties ? [window(ties, 'desc', `${WINDOW_PREFIX}${table.name}`, [])] : []),
    ...orders.map(({ field, desc }) =>
      window(field, desc ? 'desc' : 'asc', `${WINDOW_PREFIX}${table.name}__${field}${desc ? '_desc' : ''}`, [`(${column(table, field)} IS NULL) ${desc ? 'ASC' : 'DESC'}`]),
    ),
  ];
}

/** The window that walks `orderBy` (one field, then the id ascending), if the table has one. */
export function windowOf(table: PgTable, orderBy: readonly OrderBy[] | undefined): SearchWindow | undefined {
  const rest = orderBy?.filter((o) => o.field !== 'id') ?? [];
  if (rest.length !== 1 || orderBy?.some((o) => o.field === 'id' && o.direction !== 'asc')) return undefined;
  return table.windows?.find((w) => w.field === rest[0].field && w.direction === rest[0].direction);
}

/** The statements that create the windows a store lacks and drop those the schema no longer wants (an index's name says what it holds). */
export async function planWindows(db: PoolClient, schema: Schema, tables: PgTables): Promise<string[]> {
  const existing = new Set(
    (
      await db.query<{ index: string }>(`SELECT relname AS index FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'i' AND starts_with(relname, $1)`, [
        WINDOW_PREFIX,
      ])
    ).rows.map((r) => r.index),
  );
  const wanted = [...tables.values()].flatMap((table) => searchWindows(schema[table.name], table).map((w) => ({ table, ...w })));
  const names = new Set(wanted.map((w) => w.index));
  return [
    ...[...existing].filter((index) => !names.has(index)).map((index) => `DROP INDEX ${quote(index)}`),
    ...wanted.filter((w) => !existing.has(w.index)).map((w) => `CREATE INDEX ${quote(w.index)} ON ${w.table.sql} (${w.order})`),
  ];
}
