import type { CollectionSchema, FieldType, Schema } from '@reelbase/core';
import { describeTables, INDEX_PREFIX, isText, quote, wantedIndexes, type SqlTable, type SqlTables, type WantedIndex } from '@reelbase/core/sql';
import { withIndexSorting } from './index-sorting';
import type { Connection } from './sqlite-connection';
import { ensureMirror } from './sqlite-mirror';
import { ensureSearch, keyStatistics, type Statistic } from './sqlite-search';

/** A collection as the driver sees it (@reelbase/core/sql); mirrors are kept by triggers, see sqlite-mirror.ts. */
export type Table = SqlTable;
export type Tables = SqlTables;

export { quote };

/** The JSON document column; the source of truth for every field, declared or not. */
export const DOC_COLUMN = 'doc';

const SQL_TYPES: Record<FieldType, string> = {
  string: 'TEXT',
  text: 'TEXT',
  integer: 'INTEGER',
  number: 'REAL',
  boolean: 'INTEGER',
};

/** The declared SQL type (so the affinity) of a field's column, `id` included. */
export function columnType(table: Table, field: string): string {
  if (field === 'id') return table.id === 'auto' ? 'INTEGER' : 'TEXT';
  return SQL_TYPES[table.fields[field]];
}

/** JSON path of a top-level field for json_extract/json_set. */
export const jsonPath = (field: string): string => `$.${JSON.stringify(field)}`;

/** Checks the schema's names, types and keys and describes its tables. */
export const describeSchema = (schema: Schema): Tables => describeTables(schema, [DOC_COLUMN], 'sqlite');

interface ColumnInfo {
  name: string;
  type: string;
}

/**
 * Creates or upgrades every table to the schema, idempotently and in one transaction: new tables,
 * columns for newly declared fields (backfilled from the JSON document, or the source of a
 * mirror), retyped columns, the driver's indexes (composite, unique, and one per declared field
 * not led by another index, text, boolean and `unindexed` fields aside), the triggers that
 * keep mirrors and the full-text indexes (sqlite-search.ts).
 */
export function ensureSchema(conn: Connection, schema: Schema, tables: Tables): void {
  // A new index (an upgrade, or the ones an interrupted seed left to build) may cover millions of rows.
  withIndexSorting(conn, () =>
    conn.immediate(() => {
      const added = new Map<Table, string[]>();
      for (const table of tables.values()) added.set(table, ensureTable(conn, schema[table.name], table));
      // Mirrors read other tables, so they come once every table is in shape.
      for (const table of tables.values()) ensureMirror(conn, table, tables, added.get(table)!);
      ensureSearch(conn, schema, tables);
      ensureIdIndexStatistics(conn, schema, tables);
    }),
  );
}

/** SQLite's own guess at a table's size when it has no statistics. */
const ASSUMED_ROWS = 1_048_576;

/**
 * Without statistics SQLite's planner guesses that an index lookup by its first column finds ten
 * rows, so it reads a row by id from the table even where an index led by id holds every column
 * the statement needs (a search's count and ranking look up every match: the narrow index spares
 * reading each whole row). A statistic for each index led by id says what is true, that an id
 * names one row; the size it gives is the planner's own default. The tables of the search's keys
 * indexes get their row size too (keyStatistics). A bulk load's dropped indexes lose theirs; the
 * next open writes it again.
 */
function ensureIdIndexStatistics(conn: Connection, schema: Schema, tables: Tables): void {
  const stats: Statistic[] = [
    ...[...tables.values()].flatMap((table) =>
      [...wantedIndexes(schema[table.name], table)]
        .filter(([, index]) => index.keys[0].field === 'id')
        .map(([idx, index]) => ({ tbl: table.name, idx, stat: [ASSUMED_ROWS, ...index.keys.map(() => 1)].join(' ') })),
    ),
    // The search's keys indexes (sqlite-search.ts), and their tables' row sizes.
    ...keyStatistics(schema, tables, ASSUMED_ROWS),
  ];
  if (stats.length === 0) return;
  // `ANALYZE sqlite_schema` analyses only the schema table (no index): it creates sqlite_stat1 and reloads the statistics.
  if (!conn.get(`SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'`)) conn.db.exec('ANALYZE sqlite_schema');
  const missing = stats.filter((s) => !conn.get(`SELECT 1 AS found FROM sqlite_stat1 WHERE tbl = ? AND idx IS ? AND stat = ?`, [s.tbl, s.idx, s.stat]));
  if (missing.length === 0) return;
  for (const s of missing) {
    conn.run(`DELETE FROM sqlite_stat1 WHERE tbl = ? AND idx IS ?`, [s.tbl, s.idx]);
    conn.run(`INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)`, [s.tbl, s.idx, s.stat]);
  }
  conn.db.exec('ANALYZE sqlite_schema');
}

/** Brings one table to the schema; answers the columns it (re)created. */
function ensureTable(conn: Connection, collection: CollectionSchema, table: Table): string[] {
  const idColumn = table.id === 'auto' ? 'id INTEGER PRIMARY KEY AUTOINCREMENT' : 'id TEXT PRIMARY KEY NOT NULL';
  const fields = Object.keys(table.fields);
  const columns = fields.map((field) => `${quote(field)} ${SQL_TYPES[table.fields[field]]}`);
  conn.db.exec(`CREATE TABLE IF NOT EXISTS ${table.sql} (${[idColumn, `${DOC_COLUMN} TEXT NOT NULL`, ...columns].join(', ')})`);

  const existing = new Map(conn.all<ColumnInfo>(`SELECT name, type FROM pragma_table_info(?)`, [table.name]).map((c) => [c.name, c.type]));
  const idType = table.id === 'auto' ? 'INTEGER' : 'TEXT';
  if (existing.get('id') !== idType) {
    throw new Error(`collection ${table.name}: existing table has id ${existing.get('id')}, schema wants ${table.id} (${idType})`);
  }
  const retyped = fields.filter((f) => existing.has(f) && existing.get(f) !== SQL_TYPES[table.fields[f]]);
  const wanted = wantedIndexes(collection, table);
  const owned = conn
    .all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND substr(name, 1, ?) = ?`, [
      table.name,
      INDEX_PREFIX.length,
      INDEX_PREFIX,
    ])
    .map((row) => row.name);
  // A retyped column is dropped and re-added (its affinity cannot change), which SQLite refuses
  // while an index uses it: drop all owned indexes then; they are recreated below.
  for (const name of owned) if (retyped.length > 0 || !wanted.has(name)) conn.db.exec(`DROP INDEX IF EXISTS ${quote(name)}`);
  for (const field of retyped) conn.db.exec(`ALTER TABLE ${table.sql} DROP COLUMN ${quote(field)}`);

  const added: string[] = [];
  for (const field of fields) {
    if (existing.has(field) && !retyped.includes(field)) continue;
    conn.db.exec(`ALTER TABLE ${table.sql} ADD COLUMN ${quote(field)} ${SQL_TYPES[table.fields[field]]}`);
    added.push(field);
    // json_extract yields 1/0 for JSON booleans, matching how booleans are stored.
    if (table.columns.includes(field)) conn.run(`UPDATE ${table.sql} SET ${quote(field)} = json_extract(${DOC_COLUMN}, ?)`, [jsonPath(field)]);
  }

  for (const [name, index] of wanted) conn.db.exec(createIndexSql(table, name, index));
  return added;
}

/** The statement that creates a wanted index unless it exists. */
export function createIndexSql(table: Table, name: string, index: WantedIndex): string {
  const cols = index.keys.map(({ field, desc }) => `${quote(field)}${!index.unique && isText(table, field) ? ' COLLATE NOCASE' : ''}${desc ? ' DESC' : ''}`).join(', ');
  return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quote(name)} ON ${table.sql} (${cols})`;
}
