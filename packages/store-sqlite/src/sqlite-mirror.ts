import type { Connection } from './sqlite-connection';
import { columnType, quote, type Table, type Tables } from './sqlite-schema';

/**
 * Mirrored fields (CollectionSchema.mirror) are plain columns of the membership table. An insert
 * reads them from the source in its own statement (`mirroredColumns`); triggers keep them equal
 * to the source afterwards, whatever writes the source (update, increment, restore…) or changes a
 * row's key. Queries then filter and sort memberships by them through ordinary indexes.
 *
 * Triggers are recreated, and every row's copies refreshed, whenever their definition changes or
 * a mirrored column is (re)created; otherwise opening costs nothing.
 */
export function mirroredColumns(table: Table, tables: Tables): { key: string; columns: string[]; expressions: string[]; join: (sourceId: string) => string } | null {
  if (!table.mirror) return null;
  const source = tables.get(table.mirror.collection)!;
  const pairs = Object.entries(table.mirror.fields);
  return {
    key: table.mirror.key,
    columns: pairs.map(([local]) => quote(local)),
    expressions: pairs.map(([, from]) => `rb_source.${quote(from)}`),
    // One rowid lookup for every field (NULLs when the source is missing), keyed by a bound value
    // or a column of the inserted rows: cheaper than a subquery per field, or a trigger rewriting
    // the new row.
    join: (sourceId) => `LEFT JOIN ${source.sql} AS rb_source ON rb_source.id = ${sourceId}`,
  };
}

export function ensureMirror(conn: Connection, table: Table, tables: Tables, addedColumns: readonly string[]): void {
  const mirror = table.mirror;
  const prefix = `rb_mirror_${table.name}__`;
  const existing = new Map(
    conn
      .all<{ name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ?`, [prefix.length, prefix])
      .map((t) => [quote(t.name), t.sql]),
  );
  if (!mirror) {
    // The schema no longer mirrors into this table.
    for (const trigger of existing.keys()) conn.db.exec(`DROP TRIGGER ${trigger}`);
    return;
  }
  const source = tables.get(mirror.collection)!;
  const pairs = Object.entries(mirror.fields);
  const key = quote(mirror.key);
  // The key column holds the source id the way the membership stores it ("7" for an auto id).
  const cast = columnType(table, mirror.key) === 'TEXT' && source.id === 'auto';
  const sourceId = (row: 'NEW' | 'OLD') => (cast ? `CAST(${row}.id AS TEXT)` : `${row}.id`);
  const copyNew = pairs.map(([local, from]) => `${quote(local)} = NEW.${quote(from)}`).join(', ');
  const lookup = (row: string) =>
    pairs.map(([local, from]) => `${quote(local)} = (SELECT ${quote(from)} FROM ${source.sql} WHERE id = ${row}.${key})`).join(', ');
  const changed = pairs.map(([, from]) => `OLD.${quote(from)} IS NOT NEW.${quote(from)}`).join(' OR ');
  const name = (event: string) => quote(`${prefix}${event}`);
  const triggers = new Map([
    [name('rekey'), `CREATE TRIGGER ${name('rekey')} AFTER UPDATE OF ${key} ON ${table.sql} BEGIN UPDATE ${table.sql} SET ${lookup('NEW')} WHERE id = NEW.id; END`],
    [name('source_insert'), `CREATE TRIGGER ${name('source_insert')} AFTER INSERT ON ${source.sql} BEGIN UPDATE ${table.sql} SET ${copyNew} WHERE ${key} = ${sourceId('NEW')}; END`],
    [
      name('source_update'),
      `CREATE TRIGGER ${name('source_update')} AFTER UPDATE ON ${source.sql} WHEN ${changed} BEGIN UPDATE ${table.sql} SET ${copyNew} WHERE ${key} = ${sourceId('NEW')}; END`,
    ],
    [
      name('source_delete'),
      `CREATE TRIGGER ${name('source_delete')} AFTER DELETE ON ${source.sql} BEGIN UPDATE ${table.sql} SET ${pairs.map(([local]) => `${quote(local)} = NULL`).join(', ')} WHERE ${key} = ${sourceId('OLD')}; END`,
    ],
  ]);
  const stale = [...triggers].some(([trigger, sql]) => existing.get(trigger) !== sql) || existing.size !== triggers.size;
  if (!stale && !addedColumns.some((c) => c in mirror.fields)) return;
  for (const trigger of existing.keys()) conn.db.exec(`DROP TRIGGER ${trigger}`);
  for (const sql of triggers.values()) conn.db.exec(sql);
  conn.db.exec(`UPDATE ${table.sql} SET ${lookup(table.sql)}`);
}
