import type { FieldType, Schema } from '@reelbase/core';
import { describeTables, INDEX_PREFIX, isText, quote, wantedIndexes, type SqlTable, type WantedIndex } from '@reelbase/core/sql';
import type { Pool, PoolClient } from 'pg';
import { columnType, DOC_COLUMN, identifier, PG_TYPES, type PgTables } from './pg-columns';
import { MIRROR_PREFIX, planMirror, type MirrorCatalog } from './pg-mirror';
import { createRateTable, RATE_TABLE } from './pg-rate-limiter';
import { hasNames, planNear } from './pg-near';
import { extensionSchema, planSearch, searchableTables } from './pg-search';
import { planVocabulary } from './pg-vocabulary';
import { planWindows, searchWindows } from './pg-windows';

/** Any number that serves as the lock every opening process takes before changing the schema. */
export const SCHEMA_LOCK = 7_243_118_015;

interface Catalog extends MirrorCatalog {
  /** table → column → catalog type (with `:C` for text in the C collation). */
  columns: Map<string, Map<string, string>>;
  /** The driver's indexes, by table. */
  indexes: Map<string, Set<string>>;
}

// Every text column the driver makes sorts in the C collation; a text column in another is retyped.
const catalogType = (type: string, collation: string | null): string => (type === 'text' && collation === 'C' ? 'text:C' : type);
const wantedType = (table: SqlTable, field: string): string => catalogType(columnType(table, field), 'C');

async function readCatalog(db: PoolClient): Promise<Catalog> {
  const columns = await db.query<{ table: string; column: string; type: string; collation: string | null }>(
    `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, NULL) AS type, co.collname AS collation
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_collation co ON co.oid = a.attcollation
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`,
  );
  const indexes = await db.query<{ table: string; index: string }>(
    `SELECT tablename AS table, indexname AS index FROM pg_indexes WHERE schemaname = current_schema() AND starts_with(indexname, $1)`,
    [INDEX_PREFIX],
  );
  const functions = await db.query<{ name: string; body: string }>(
    `SELECT proname AS name, prosrc AS body FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND starts_with(proname, $1)`,
    [MIRROR_PREFIX],
  );
  const triggers = await db.query<{ name: string }>(
    `SELECT t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal AND starts_with(t.tgname, $1)`,
    [MIRROR_PREFIX],
  );
  const catalog: Catalog = {
    columns: new Map(),
    indexes: new Map(),
    functions: new Map(functions.rows.map((f) => [f.name, f.body])),
    triggers: new Set(triggers.rows.map((t) => t.name)),
  };
  for (const row of columns.rows) {
    const table = catalog.columns.get(row.table) ?? catalog.columns.set(row.table, new Map()).get(row.table)!;
    table.set(row.column, catalogType(row.type, row.collation));
  }
  for (const row of indexes.rows) (catalog.indexes.get(row.table) ?? catalog.indexes.set(row.table, new Set()).get(row.table)!).add(row.index);
  return catalog;
}

/**
 * The statements that bring the database to the schema: new tables, columns for newly declared
 * fields (backfilled from the JSON document, or the source of a mirror), retyped columns, the
 * driver's indexes, the mirrors' triggers and the shared rate limiter's table. None when it
 * already matches, which is what every open after the first finds.
 */
function plan(schema: Schema, tables: PgTables, catalog: Catalog): string[] {
  const ddl: string[] = [];
  const added = new Map<SqlTable, string[]>();
  for (const table of tables.values()) added.set(table, planTable(ddl, schema, table, catalog));
  // Mirrors read other tables, so they come once every table is in shape.
  for (const table of tables.values()) ddl.push(...planMirror(table, tables, catalog, added.get(table)!));
  if (!catalog.columns.has(RATE_TABLE)) ddl.push(createRateTable);
  return ddl;
}

/** Appends the statements for one table; answers the columns it (re)creates. */
function planTable(ddl: string[], schema: Schema, table: SqlTable, catalog: Catalog): string[] {
  const existing = catalog.columns.get(table.name);
  const wanted = new Map([...wantedIndexes(schema[table.name], table)].map(([name, index]) => [identifier(name), index]));
  const fields = Object.keys(table.fields);
  if (!existing) {
    ddl.push(createTable(table));
    for (const [name, index] of wanted) ddl.push(createIndex(table, name, index));
    return fields;
  }
  const idType = existing.get('id');
  if (idType !== wantedType(table, 'id')) {
    throw new Error(`collection ${table.name}: existing table has id ${idType}, schema wants ${table.id} (${columnType(table, 'id')})`);
  }
  // Dropping a retyped column drops the indexes on it; they are recreated below.
  const retyped = fields.filter((f) => existing.has(f) && existing.get(f) !== wantedType(table, f));
  const owned = catalog.indexes.get(table.name) ?? new Set();
  for (const name of owned) if (!wanted.has(name)) ddl.push(`DROP INDEX IF EXISTS ${quote(name)}`);
  for (const field of retyped) ddl.push(`ALTER TABLE ${table.sql} DROP COLUMN ${quote(field)}`);
  const added = fields.filter((f) => !existing.has(f) || retyped.includes(f));
  for (const field of added) {
    ddl.push(`ALTER TABLE ${table.sql} ADD COLUMN ${quote(field)} ${PG_TYPES[table.fields[field]].sql}`);
    if (table.columns.includes(field)) ddl.push(`UPDATE ${table.sql} SET ${quote(field)} = ${fromDocument(table.fields[field], field)}`);
  }
  for (const [name, index] of wanted) {
    if (!owned.has(name) || index.keys.some(({ field }) => retyped.includes(field))) ddl.push(createIndex(table, name, index));
  }
  return added;
}

function createTable(table: SqlTable): string {
  const id = table.id === 'auto' ? 'id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY' : 'id text COLLATE "C" PRIMARY KEY';
  const columns = Object.keys(table.fields).map((field) => `${quote(field)} ${PG_TYPES[table.fields[field]].sql}`);
  return `CREATE TABLE ${table.sql} (${[id, `${DOC_COLUMN} json NOT NULL`, ...columns].join(', ')})`;
}

/**
 * Unique keys index the values themselves; other keys of `text` fields index their ASCII-folded
 * form, and every key orders nulls first ascending (last descending), as the Store sorts.
 */
function createIndex(table: SqlTable, name: string, index: WantedIndex): string {
  const keys = index.keys.map(({ field, desc }) => {
    const expr = !index.unique && isText(table, field) ? `(lower(${quote(field)}))` : quote(field);
    return `${expr} ${desc ? 'DESC NULLS LAST' : 'ASC NULLS FIRST'}`;
  });
  return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quote(name)} ON ${table.sql} (${keys.join(', ')})`;
}

/** A field's column value computed from the stored document, as the driver writes it (row-codec.ts). */
function fromDocument(type: FieldType, field: string): string {
  const value = `${DOC_COLUMN} -> '${field}'`;
  const text = `${DOC_COLUMN} ->> '${field}'`;
  switch (type) {
    case 'string':
    case 'text':
      return `CASE json_typeof(${value}) WHEN 'string' THEN ${text} WHEN 'null' THEN NULL ELSE (${value})::text END`;
    case 'integer':
    case 'number':
      return `CASE json_typeof(${value}) WHEN 'number' THEN (${text})::double precision END`;
    case 'boolean':
      return `CASE json_typeof(${value}) WHEN 'boolean' THEN (${text})::boolean END`;
  }
}

/**
 * Creates or upgrades every table to the schema, in one transaction under an advisory lock so
 * that servers starting together do not race, and answers the tables with their sequences.
 */
export async function ensureSchema(pool: Pool, schema: Schema): Promise<PgTables> {
  const tables: PgTables = describeTables(schema, [DOC_COLUMN], 'postgres');
  const client = await pool.connect();
  try {
    const searchable = searchableTables(tables);
    const unaccent = searchable.length > 0 ? await extensionSchema(client, 'unaccent') : null;
    // Without pg_trgm a search that finds nothing stays empty: there is nothing to index names with.
    const trigrams = searchable.some(hasNames) ? await extensionSchema(client, 'pg_trgm') : null;
    // The search columns and indexes read the tables' columns, so they come last.
    const planAll = async () => [
      ...plan(schema, tables, await readCatalog(client)),
      ...(await planSearch(client, tables, unaccent)),
      ...(await planVocabulary(client, tables, unaccent)),
      ...(await planWindows(client, schema, tables)),
      ...(await planNear(client, tables, trigrams, unaccent)),
    ];
    if ((await planAll()).length > 0) {
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
        const ddl = await planAll();
        if (ddl.length > 0) await client.query(ddl.join(';\n'));
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    }
    const auto = [...tables.values()].filter((t) => t.id === 'auto').map((t) => t.sql);
    const { rows } = await client.query<{ table: string; sequence: string }>(
      `SELECT t AS table, pg_get_serial_sequence(t, 'id') AS sequence FROM unnest($1::text[]) AS t`,
      [auto],
    );
    const sequences = new Map(rows.map((r) => [r.table, r.sequence]));
    const near = (table: SqlTable) => (trigrams !== null && hasNames(table) ? { trigrams } : {});
    return new Map([...tables].map(([name, table]) => [name, { ...table, sequence: sequences.get(table.sql), ...near(table), windows: searchWindows(schema[name], table) }]));
  } finally {
    client.release();
  }
}
