import type { CollectionSchema, FieldType, Schema } from '@reelbase/core';
import type { Connection } from './sqlite-connection';

/** A collection as the driver sees it: its table, id kind and declared (column-backed) fields. */
export interface Table {
  name: string;
  /** The quoted table identifier, ready for SQL. */
  sql: string;
  id: CollectionSchema['id'];
  fields: Readonly<Record<string, FieldType>>;
  /** Declared fields in column order for INSERT/UPDATE. */
  columns: readonly string[];
  unique: readonly (readonly string[])[];
}

export type Tables = ReadonlyMap<string, Table>;

/** The JSON document column; the source of truth for every field, declared or not. */
export const DOC_COLUMN = 'doc';
/** Prefix of the indexes this driver owns; indexes with it that the schema no longer wants are dropped. */
const INDEX_PREFIX = 'rb_';

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

/** `text` fields sort case-insensitively (the Store contract), so their sort indexes use NOCASE. */
export const isText = (table: Table, field: string): boolean => table.fields[field] === 'text';

export const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** JSON path of a top-level field for json_extract/json_set. */
export const jsonPath = (field: string): string => `$.${JSON.stringify(field)}`;

export function describeSchema(schema: Schema): Tables {
  const tables = new Map<string, Table>();
  for (const [name, collection] of Object.entries(schema)) {
    checkName(name, 'collection');
    // `id` is the primary key column whatever the schema says about it.
    const fields = Object.fromEntries(Object.entries(collection.fields).filter(([field]) => field !== 'id'));
    for (const [field, type] of Object.entries(fields)) {
      checkName(field, `field of ${name}`);
      if (field === DOC_COLUMN) throw new Error(`collection ${name}: field name "${DOC_COLUMN}" is reserved by the sqlite store`);
      if (!(type in SQL_TYPES)) throw new Error(`collection ${name}: field ${field} has unknown type ${String(type)}`);
    }
    for (const key of [...(collection.indexes ?? []), ...(collection.unique ?? [])]) {
      for (const field of key) {
        if (field !== 'id' && !(field in fields)) throw new Error(`collection ${name}: index or unique key names undeclared field ${field}`);
      }
    }
    tables.set(name, {
      name,
      sql: quote(name),
      id: collection.id,
      fields,
      columns: Object.keys(fields),
      unique: collection.unique ?? [],
    });
  }
  return tables;
}

function checkName(name: string, what: string): void {
  // JSON paths cannot express every character; plain identifiers are all core needs.
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid ${what} name: ${JSON.stringify(name)}`);
}

interface ColumnInfo {
  name: string;
  type: string;
}

/**
 * Creates or upgrades every table to the schema, idempotently and in one transaction: new tables,
 * columns for newly declared fields (backfilled from the JSON document), retyped columns, and the
 * driver's indexes (composite, unique, and one per declared field not led by another index).
 */
export function ensureSchema(conn: Connection, schema: Schema, tables: Tables): void {
  conn.immediate(() => {
    for (const table of tables.values()) ensureTable(conn, schema[table.name], table);
  });
}

function ensureTable(conn: Connection, collection: CollectionSchema, table: Table): void {
  const idColumn = table.id === 'auto' ? 'id INTEGER PRIMARY KEY AUTOINCREMENT' : 'id TEXT PRIMARY KEY NOT NULL';
  const columns = table.columns.map((field) => `${quote(field)} ${SQL_TYPES[table.fields[field]]}`);
  conn.db.exec(`CREATE TABLE IF NOT EXISTS ${table.sql} (${[idColumn, `${DOC_COLUMN} TEXT NOT NULL`, ...columns].join(', ')})`);

  const existing = new Map(conn.all<ColumnInfo>(`SELECT name, type FROM pragma_table_info(?)`, [table.name]).map((c) => [c.name, c.type]));
  const idType = table.id === 'auto' ? 'INTEGER' : 'TEXT';
  if (existing.get('id') !== idType) {
    throw new Error(`collection ${table.name}: existing table has id ${existing.get('id')}, schema wants ${table.id} (${idType})`);
  }
  const retyped = table.columns.filter((f) => existing.has(f) && existing.get(f) !== SQL_TYPES[table.fields[f]]);
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

  for (const field of table.columns) {
    if (existing.has(field) && !retyped.includes(field)) continue;
    conn.db.exec(`ALTER TABLE ${table.sql} ADD COLUMN ${quote(field)} ${SQL_TYPES[table.fields[field]]}`);
    // json_extract yields 1/0 for JSON booleans, matching how booleans are stored.
    conn.run(`UPDATE ${table.sql} SET ${quote(field)} = json_extract(${DOC_COLUMN}, ?)`, [jsonPath(field)]);
  }

  for (const [name, index] of wanted) {
    const cols = index.fields.map((f) => (!index.unique && isText(table, f) ? `${quote(f)} COLLATE NOCASE` : quote(f))).join(', ');
    conn.db.exec(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quote(name)} ON ${table.sql} (${cols})`);
  }
}

function wantedIndexes(collection: CollectionSchema, table: Table): Map<string, { unique: boolean; fields: readonly string[] }> {
  const wanted = new Map<string, { unique: boolean; fields: readonly string[] }>();
  const add = (unique: boolean, fields: readonly string[]) => {
    if (fields.length === 0) return;
    // Names encode table, uniqueness, columns and collation, so an unchanged name means an unchanged index.
    const parts = fields.map((f) => (!unique && isText(table, f) ? `${f}_nocase` : f));
    wanted.set(`${INDEX_PREFIX}${unique ? 'ux' : 'ix'}_${table.name}__${parts.join('__')}`, { unique, fields });
  };
  for (const key of collection.unique ?? []) add(true, key);
  for (const key of collection.indexes ?? []) add(false, key);
  const leading = new Set([...wanted.values()].map((index) => index.fields[0]));
  for (const field of table.columns) if (!leading.has(field)) add(false, [field]);
  return wanted;
}
