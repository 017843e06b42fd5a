import { createHash } from 'node:crypto';
import type { FieldType } from '@reelbase/core';
import type { SqlTable } from '@reelbase/core/sql';
import type { PoolClient } from 'pg';
import type { SearchWindow } from './pg-windows';

/** A collection's table, with the identity sequence of an `auto` id. */
export interface PgTable extends SqlTable {
  /** The sequence behind an auto id, as a regclass literal; undefined for text ids. */
  sequence?: string;
  /**
   * The schema of pg_trgm when the table's names carry a trigram index, so that a search finding
   * nothing falls back to names near its words (pg-near.ts); undefined when it does not.
   */
  trigrams?: string;
  /** The sorts a search over every row walks in an index (pg-windows.ts). */
  windows?: readonly SearchWindow[];
}

export type PgTables = ReadonlyMap<string, PgTable>;

/** The JSON document column; the source of truth for every field, declared or not. */
export const DOC_COLUMN = 'doc';

/** Column types per field type. Text compares and sorts by code point ("C"), as SQLite and JS do. */
export const PG_TYPES: Record<FieldType, { sql: string; catalog: string }> = {
  string: { sql: 'text COLLATE "C"', catalog: 'text' },
  text: { sql: 'text COLLATE "C"', catalog: 'text' },
  integer: { sql: 'double precision', catalog: 'double precision' },
  number: { sql: 'double precision', catalog: 'double precision' },
  boolean: { sql: 'boolean', catalog: 'boolean' },
};

const ID_TYPES = { auto: 'bigint', text: 'text' } as const;

/** The type of a field's column (`id` included), as the catalog names it. */
export function columnType(table: SqlTable, field: string): string {
  return field === 'id' ? ID_TYPES[table.id] : PG_TYPES[table.fields[field]].catalog;
}

const MAX_IDENTIFIER = 63;

/** A name the driver makes (index, trigger): PostgreSQL truncates identifiers to 63 bytes, so a longer one keeps a readable head and a hash. */
export function identifier(name: string): string {
  if (Buffer.byteLength(name) <= MAX_IDENTIFIER) return name;
  return `${name.slice(0, MAX_IDENTIFIER - 9)}_${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
}

/**
 * The relations of the current schema of one kind (`r` tables, `i` indexes) whose names begin with
 * `prefix`, each with its comment: where the store records what it built a derived relation from,
 * so that a changed definition is made again.
 */
export async function commentedRelations(db: PoolClient, kind: 'r' | 'i', prefix: string): Promise<Map<string, string | null>> {
  const { rows } = await db.query<{ name: string; comment: string | null }>(
    `SELECT relname AS name, obj_description(oid, 'pg_class') AS comment FROM pg_class
      WHERE relnamespace = current_schema()::regnamespace AND relkind = $1 AND starts_with(relname, $2)`,
    [kind, prefix],
  );
  return new Map(rows.map((r) => [r.name, r.comment]));
}
