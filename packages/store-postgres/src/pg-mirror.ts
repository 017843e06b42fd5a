import { quote, type SqlTable, type SqlTables } from '@reelbase/core/sql';
import { convert } from './pg-dialect';
import { columnType, identifier } from './pg-columns';

/** The driver's mirror functions (name → body) and triggers, as the catalog has them. */
export interface MirrorCatalog {
  functions: ReadonlyMap<string, string>;
  triggers: ReadonlySet<string>;
}

export const MIRROR_PREFIX = 'rb_mirror_';

/**
 * Mirrored fields (CollectionSchema.mirror) are plain columns of the membership table, kept equal
 * to the source document's fields by triggers, so every write path (insert, update, increment,
 * restore…) keeps them without the driver's statements knowing, inside the writing transaction.
 * Queries then filter and sort memberships by them through ordinary indexes.
 *
 * Answers the statements that (re)create the functions and triggers, and refresh every row's
 * copies, when their definition changed or a mirrored column was (re)created; none otherwise.
 */
export function planMirror(table: SqlTable, tables: SqlTables, catalog: MirrorCatalog, addedColumns: readonly string[]): string[] {
  const name = (suffix: string) => identifier(`${MIRROR_PREFIX}${table.name}__${suffix}`);
  const owned = [...catalog.functions.keys()].filter((f) => f === name('row') || f === name('source'));
  const drop = owned.map((f) => `DROP FUNCTION IF EXISTS ${quote(f)}() CASCADE`);
  const { mirror } = table;
  if (!mirror) return drop;

  const source = tables.get(mirror.collection)!;
  const pairs = Object.entries(mirror.fields);
  const key = quote(mirror.key);
  const locals = pairs.map(([local]) => quote(local));
  // The membership's key column holds the source id the way the membership stores it ("7" for an auto id).
  const sourceRow = (row: 'NEW' | 'OLD') => convert(`${row}.id`, columnType(source, 'id'), columnType(table, mirror.key));
  const lookup = (keyExpr: string) =>
    `SELECT ${pairs.map(([, from]) => `s.${quote(from)}`).join(', ')} FROM ${source.sql} s WHERE s.id = ${convert(keyExpr, columnType(table, mirror.key), columnType(source, 'id'))}`;
  const functions = new Map([
    [name('row'), `BEGIN ${lookup(`NEW.${key}`)} INTO ${locals.map((l) => `NEW.${l}`).join(', ')}; RETURN NEW; END`],
    [
      name('source'),
      `BEGIN IF TG_OP = 'DELETE' THEN UPDATE ${table.sql} SET ${locals.map((l) => `${l} = NULL`).join(', ')} WHERE ${key} = ${sourceRow('OLD')}; ` +
        `ELSE UPDATE ${table.sql} SET ${pairs.map(([local, from]) => `${quote(local)} = NEW.${quote(from)}`).join(', ')} WHERE ${key} = ${sourceRow('NEW')}; ` +
        `END IF; RETURN NULL; END`,
    ],
  ]);
  const changed = pairs.map(([, from]) => `OLD.${quote(from)} IS DISTINCT FROM NEW.${quote(from)}`).join(' OR ');
  const triggers = new Map([
    [name('insert'), `BEFORE INSERT ON ${table.sql} FOR EACH ROW EXECUTE FUNCTION ${quote(name('row'))}()`],
    [name('rekey'), `BEFORE UPDATE OF ${key} ON ${table.sql} FOR EACH ROW WHEN (OLD.${key} IS DISTINCT FROM NEW.${key}) EXECUTE FUNCTION ${quote(name('row'))}()`],
    [name('source_insert'), `AFTER INSERT ON ${source.sql} FOR EACH ROW EXECUTE FUNCTION ${quote(name('source'))}()`],
    [name('source_update'), `AFTER UPDATE ON ${source.sql} FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION ${quote(name('source'))}()`],
    [name('source_delete'), `AFTER DELETE ON ${source.sql} FOR EACH ROW EXECUTE FUNCTION ${quote(name('source'))}()`],
  ]);

  const stale = [...functions].some(([f, body]) => catalog.functions.get(f) !== body) || [...triggers.keys()].some((t) => !catalog.triggers.has(t));
  if (!stale && !addedColumns.some((c) => c in mirror.fields)) return [];
  return [
    ...drop,
    ...[...functions].map(([f, body]) => `CREATE FUNCTION ${quote(f)}() RETURNS trigger LANGUAGE plpgsql AS $rb$${body}$rb$`),
    ...[...triggers].map(([t, definition]) => `CREATE TRIGGER ${quote(t)} ${definition}`),
    `UPDATE ${table.sql} AS m SET (${locals.join(', ')}) = (${lookup(`m.${key}`)})`,
  ];
}
