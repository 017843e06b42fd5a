import { SEARCH_WEIGHTS, type SearchQuery, type SearchTerm } from '@reelbase/core';
import { searchColumns } from '@reelbase/core/sql';
import type { Connection } from './sqlite-connection';
import { quote, type Table, type Tables } from './sqlite-schema';

/**
 * A searchable collection's index (CollectionSchema.search) is an FTS5 external-content table over
 * its search columns: the words live only in the index, the text in the collection's own table.
 * Triggers keep it in step with every write, inside the writing transaction. unicode61 with
 * `remove_diacritics 2` folds case and accents as core's `foldText` does; prefix indexes of two
 * to four characters serve the word still being typed.
 */
export const searchTable = (table: Table): string => quote(`rb_search_${table.name}`);

const TRIGGER_PREFIX = 'rb_search_';
const triggerName = (table: Table, event: string): string => quote(`${TRIGGER_PREFIX}${table.name}__${event}`);

function createSql(table: Table): string {
  const columns = searchColumns(table).map(({ field }) => quote(field));
  return (
    `CREATE VIRTUAL TABLE ${searchTable(table)} USING fts5(${columns.join(', ')}, content=${quote(table.name)}, content_rowid='id', ` +
    `tokenize='unicode61 remove_diacritics 2', prefix='2 3 4')`
  );
}

function triggers(table: Table): Map<string, string> {
  const fields = searchColumns(table).map(({ field }) => quote(field));
  const fts = searchTable(table);
  const values = (row: 'NEW' | 'OLD') => fields.map((f) => `${row}.${f}`).join(', ');
  const insert = `INSERT INTO ${fts}(rowid, ${fields.join(', ')}) VALUES (NEW.id, ${values('NEW')});`;
  const remove = `INSERT INTO ${fts}(${fts}, rowid, ${fields.join(', ')}) VALUES ('delete', OLD.id, ${values('OLD')});`;
  const changed = fields.map((f) => `OLD.${f} IS NOT NEW.${f}`).join(' OR ');
  return new Map([
    [triggerName(table, 'insert'), `CREATE TRIGGER ${triggerName(table, 'insert')} AFTER INSERT ON ${table.sql} BEGIN ${insert} END`],
    [triggerName(table, 'delete'), `CREATE TRIGGER ${triggerName(table, 'delete')} AFTER DELETE ON ${table.sql} BEGIN ${remove} END`],
    [triggerName(table, 'update'), `CREATE TRIGGER ${triggerName(table, 'update')} AFTER UPDATE ON ${table.sql} WHEN ${changed} BEGIN ${remove} ${insert} END`],
  ]);
}

/**
 * Brings every searchable table's index and triggers to the schema (inside ensureSchema's
 * transaction). A new or changed index is built once from the rows already stored: an upgraded
 * store becomes searchable on its first open, and an interrupted build is rolled back and done
 * again on the next.
 */
export function ensureSearch(conn: Connection, tables: Tables, onBuild?: (table: string) => void): void {
  const existing = new Map(
    conn
      .all<{ name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE (type = 'table' OR type = 'trigger') AND substr(name, 1, ?) = ?`, [
        TRIGGER_PREFIX.length,
        TRIGGER_PREFIX,
      ])
      .map((t) => [quote(t.name), t.sql]),
  );
  const wanted = new Set<string>();
  for (const table of tables.values()) {
    if (!table.search) continue;
    const fts = searchTable(table);
    const create = createSql(table);
    wanted.add(fts);
    const fresh = existing.get(fts) !== create;
    if (fresh) {
      if (existing.has(fts)) conn.db.exec(`DROP TABLE ${fts}`);
      conn.db.exec(create);
    }
    // A missing trigger let writes past the index: rebuild it.
    let stale = fresh;
    for (const [name, sql] of triggers(table)) {
      wanted.add(name);
      if (existing.get(name) === sql) continue;
      if (existing.has(name)) conn.db.exec(`DROP TRIGGER ${name}`);
      conn.db.exec(sql);
      stale = true;
    }
    if (stale && conn.get(`SELECT 1 AS found FROM ${table.sql} LIMIT 1`)) {
      onBuild?.(table.name);
      rebuildSearch(conn, table);
    }
  }
  // Indexes and triggers the schema no longer wants (their shadow tables go with the table).
  for (const [name, sql] of existing) {
    if (wanted.has(name) || /_(data|idx|docsize|config|content)"$/.test(name)) continue;
    conn.db.exec(sql.startsWith('CREATE TRIGGER') ? `DROP TRIGGER IF EXISTS ${name}` : `DROP TABLE IF EXISTS ${name}`);
  }
}

/** Rebuilds a table's index from its rows: one pass, far cheaper than a trigger per inserted row. */
export const rebuildSearch = (conn: Connection, table: Table): void => {
  conn.db.exec(`INSERT INTO ${searchTable(table)}(${searchTable(table)}) VALUES ('rebuild')`);
};

/** FTS5's query syntax for a parsed search (which has a term to match); every word is quoted, so nothing in it is an operator. */
export function ftsQuery(query: SearchQuery): string {
  const term = (t: SearchTerm) => `"${t.words.join(' ')}"${t.phrase ? '' : '*'}`;
  const wanted = query.terms.filter((t) => !t.exclude).map(term);
  const excluded = query.terms.filter((t) => t.exclude).map(term);
  const all = wanted.join(' AND ');
  return excluded.length ? `(${all}) NOT (${excluded.join(' OR ')})` : all;
}

/**
 * Relevance as every driver scores it (SEARCH_WEIGHTS): for each wanted term, the weight of the
 * heaviest tier it matches in, summed. Each (term, tier) pair is one index lookup, run once per
 * statement; `bind` adds a value and answers its placeholder.
 */
export function ftsScore(table: Table, query: SearchQuery, bind: (value: string) => string): string {
  const fts = searchTable(table);
  const tiers = (table.search ?? []).map((fields, tier) => ({ columns: fields.map(quote).join(' '), weight: SEARCH_WEIGHTS[tier] }));
  const term = (t: SearchTerm) => {
    const cases = tiers.map(({ columns, weight }) => `WHEN id IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${bind(`{${columns}} : ${ftsQuery({ terms: [t] })}`)}) THEN ${weight}`);
    return `(CASE ${cases.join(' ')} ELSE 0 END)`;
  };
  return `(${query.terms.filter((t) => !t.exclude).map(term).join(' + ')})`;
}
