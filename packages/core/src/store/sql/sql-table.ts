import type { CollectionSchema, FieldType, Mirror, Schema } from '../schema-types';

/** A collection as an SQL driver sees it: its table, id kind and declared (column-backed) fields. */
export interface SqlTable {
  name: string;
  /** The quoted table identifier, ready for SQL. */
  sql: string;
  id: CollectionSchema['id'];
  fields: Readonly<Record<string, FieldType>>;
  /** Declared fields written from the document, in column order for INSERT/UPDATE (mirrored ones are not). */
  columns: readonly string[];
  unique: readonly (readonly string[])[];
  /** Fields copied from another collection's documents (CollectionSchema.mirror), kept by the driver. */
  mirror?: Mirror;
  /** Full-text search tiers (CollectionSchema.search), heaviest first. */
  search?: readonly (readonly string[])[];
  /** Fields the search index keeps beside the words (CollectionSchema.searchKeys). */
  searchKeys?: readonly string[];
  /** The numeric field relevance breaks ties by, descending (CollectionSchema.searchTies). */
  searchTies?: string;
}

export type SqlTables = ReadonlyMap<string, SqlTable>;

/** An index a driver keeps on a table; `name` encodes everything else, so an unchanged name means an unchanged index. */
export interface WantedIndex {
  unique: boolean;
  keys: readonly IndexKey[];
}

/** A field of an index key, as declared: its name, optionally followed by ` desc`. */
export interface IndexKey {
  field: string;
  desc: boolean;
}

export function indexKey(declared: string): IndexKey {
  const desc = / desc$/i.test(declared);
  return { field: desc ? declared.slice(0, -5) : declared, desc };
}

/** Prefix of the indexes the SQL drivers own; indexes with it that the schema no longer wants are dropped. */
export const INDEX_PREFIX = 'rb_';

const FIELD_TYPES: readonly FieldType[] = ['string', 'text', 'integer', 'number', 'boolean'];

export const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** `text` fields sort case-insensitively (the Store contract), so their sort indexes fold case. */
export const isText = (table: SqlTable, field: string): boolean => table.fields[field] === 'text';

/** The quoted column of a declared field, or `id`; anything else is a caller error. */
export function column(table: SqlTable, field: string): string {
  if (field === 'id') return 'id';
  if (!Object.hasOwn(table.fields, field)) {
    throw new Error(`unknown field ${JSON.stringify(field)} in collection ${table.name}: only declared fields can be filtered or sorted`);
  }
  return quote(field);
}

/**
 * Checks a schema and describes its tables. `reserved` names the driver's own columns (the JSON
 * document), which no field may take; `driver` names the driver in that error.
 */
export function describeTables(schema: Schema, reserved: readonly string[], driver: string): SqlTables {
  const tables = new Map<string, SqlTable>();
  for (const [name, collection] of Object.entries(schema)) {
    checkName(name, 'collection');
    // `id` is the primary key column whatever the schema says about it.
    const fields = Object.fromEntries(Object.entries(collection.fields).filter(([field]) => field !== 'id'));
    for (const [field, type] of Object.entries(fields)) {
      checkName(field, `field of ${name}`);
      if (reserved.includes(field)) throw new Error(`collection ${name}: field name "${field}" is reserved by the ${driver} store`);
      if (!FIELD_TYPES.includes(type)) throw new Error(`collection ${name}: field ${field} has unknown type ${String(type)}`);
    }
    for (const key of [...(collection.indexes ?? []), ...(collection.unique ?? [])]) {
      for (const { field } of key.map(indexKey)) {
        if (field !== 'id' && !(field in fields)) throw new Error(`collection ${name}: index or unique key names undeclared field ${field}`);
      }
    }
    for (const field of collection.unindexed ?? []) {
      if (!(field in fields)) throw new Error(`collection ${name}: unindexed names undeclared field ${field}`);
    }
    const { mirror, search, searchKeys, searchTies } = collection;
    if (mirror) checkMirror(schema, name, mirror);
    if (search) checkSearch(name, collection, search);
    if (searchKeys || searchTies) checkSearchExtras(name, collection);
    const mirrored = new Set(Object.keys(mirror?.fields ?? {}));
    tables.set(name, {
      name,
      sql: quote(name),
      id: collection.id,
      fields,
      columns: Object.keys(fields).filter((field) => !mirrored.has(field)),
      unique: collection.unique ?? [],
      ...(mirror ? { mirror } : {}),
      ...(search ? { search } : {}),
      ...(searchKeys?.length ? { searchKeys } : {}),
      ...(searchTies ? { searchTies } : {}),
    });
  }
  return tables;
}

function checkMirror(schema: Schema, name: string, mirror: Mirror): void {
  const source = schema[mirror.collection];
  if (!source) throw new Error(`collection ${name}: mirror names unknown collection ${mirror.collection}`);
  if (!(mirror.key in schema[name].fields)) throw new Error(`collection ${name}: mirror key ${mirror.key} is not a declared field`);
  for (const [local, from] of Object.entries(mirror.fields)) {
    if (!(local in schema[name].fields)) throw new Error(`collection ${name}: mirrored field ${local} is not declared`);
    if (!(from in source.fields)) throw new Error(`collection ${name}: mirrored field ${local} copies undeclared ${mirror.collection}.${from}`);
  }
}

function checkSearch(name: string, collection: CollectionSchema, search: readonly (readonly string[])[]): void {
  if (collection.id !== 'auto') throw new Error(`collection ${name}: only auto-id collections are searchable`);
  if (search.length === 0 || search.length > 4 || search.some((tier) => tier.length === 0)) throw new Error(`collection ${name}: search takes one to four non-empty tiers`);
  for (const field of search.flat()) {
    if (collection.fields[field] !== 'text') throw new Error(`collection ${name}: search field ${field} is not a declared text field`);
  }
}

function checkSearchExtras(name: string, collection: CollectionSchema): void {
  if (!collection.search) throw new Error(`collection ${name}: searchKeys and searchTies need search`);
  for (const field of collection.searchKeys ?? []) {
    if (collection.fields[field] !== 'string') throw new Error(`collection ${name}: search key ${field} is not a declared string field`);
  }
  const ties = collection.searchTies;
  if (ties !== undefined && collection.fields[ties] !== 'integer' && collection.fields[ties] !== 'number') {
    throw new Error(`collection ${name}: searchTies ${ties} is not a declared numeric field`);
  }
}

/** The search fields of a table in index column order, each with its tier. */
export const searchColumns = (table: SqlTable): { field: string; tier: number }[] =>
  (table.search ?? []).flatMap((tier, index) => tier.map((field) => ({ field, tier: index })));

function checkName(name: string, what: string): void {
  // JSON paths cannot express every character; plain identifiers are all core needs.
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid ${what} name: ${JSON.stringify(name)}`);
}

/**
 * The indexes a table should have, by name: the schema's unique keys and composite indexes, and
 * one for each other field worth it (see below), so that equality lookups never scan.
 */
export function wantedIndexes(collection: CollectionSchema, table: SqlTable): Map<string, WantedIndex> {
  const wanted = new Map<string, WantedIndex>();
  const add = (unique: boolean, declared: readonly string[]) => {
    if (declared.length === 0) return;
    const keys = declared.map(indexKey);
    // Names encode table, uniqueness, columns, case folding and direction, so an unchanged name means an unchanged index.
    const parts = keys.map(({ field, desc }) => `${field}${!unique && isText(table, field) ? '_nocase' : ''}${desc ? '_desc' : ''}`);
    wanted.set(`${INDEX_PREFIX}${unique ? 'ux' : 'ix'}_${table.name}__${parts.join('__')}`, { unique, keys });
  };
  for (const key of collection.unique ?? []) add(true, key);
  for (const key of collection.indexes ?? []) add(false, key);
  const leading = new Set([...wanted.values()].map((index) => index.keys[0].field));
  // Not `text` fields (searched by substring, which no index serves, or sorted by a declared key),
  // booleans (an index that halves a table only misleads the planner), fields the schema lists as
  // `unindexed`, nor mirrored ones (queried through the keys their collection declares).
  const unindexed = new Set(collection.unindexed);
  const worthIndexing = (field: string) => table.fields[field] !== 'text' && table.fields[field] !== 'boolean' && !unindexed.has(field);
  for (const field of table.columns) if (!leading.has(field) && worthIndexing(field)) add(false, [field]);
  return wanted;
}
