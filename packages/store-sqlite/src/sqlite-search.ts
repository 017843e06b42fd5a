import { tierScore, type SearchQuery, type SearchTerm } from '@reelbase/core';
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
/**
 * Indexes still being built, each with the first id its index does not hold yet: rows from there
 * on are the build's to add, so the triggers leave them alone (an external-content index must
 * never be told to delete a row it does not hold).
 */
const PROGRESS = quote('rb_search_progress');
const CREATE_PROGRESS = `CREATE TABLE ${PROGRESS} (name TEXT PRIMARY KEY NOT NULL, next_id INTEGER NOT NULL)`;
/** Rows a build adds in one transaction: each commits, so a stopped build resumes from the last. */
export const SEARCH_BUILD_BATCH = 20_000;
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
  const built = (row: 'NEW' | 'OLD') => `NOT EXISTS (SELECT 1 FROM ${PROGRESS} WHERE name = '${table.name}' AND ${row}.id >= next_id)`;
  return new Map([
    [triggerName(table, 'insert'), `CREATE TRIGGER ${triggerName(table, 'insert')} AFTER INSERT ON ${table.sql} WHEN ${built('NEW')} BEGIN ${insert} END`],
    [triggerName(table, 'delete'), `CREATE TRIGGER ${triggerName(table, 'delete')} AFTER DELETE ON ${table.sql} WHEN ${built('OLD')} BEGIN ${remove} END`],
    [
      triggerName(table, 'update'),
      `CREATE TRIGGER ${triggerName(table, 'update')} AFTER UPDATE ON ${table.sql} WHEN (${changed}) AND ${built('OLD')} BEGIN ${remove} ${insert} END`,
    ],
  ]);
}

/**
 * Brings every searchable table's index and triggers to the schema (inside ensureSchema's
 * transaction). A new or changed index over rows already stored is emptied and marked to be
 * built (`buildSearch`, after that transaction, in batches).
 */
export function ensureSearch(conn: Connection, tables: Tables): void {
  const existing = new Map(
    conn
      .all<{ name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE (type = 'table' OR type = 'trigger') AND substr(name, 1, ?) = ?`, [
        TRIGGER_PREFIX.length,
        TRIGGER_PREFIX,
      ])
      .map((t) => [quote(t.name), t.sql]),
  );
  const wanted = new Set<string>([PROGRESS]);
  if (!existing.has(PROGRESS)) conn.db.exec(CREATE_PROGRESS);
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
    // A missing trigger let writes past the index: rebuild it. A changed one only gets replaced.
    let stale = fresh;
    for (const [name, sql] of triggers(table)) {
      wanted.add(name);
      if (existing.get(name) === sql) continue;
      if (existing.has(name)) conn.db.exec(`DROP TRIGGER ${name}`);
      else stale = true;
      conn.db.exec(sql);
    }
    if (stale) {
      conn.db.exec(`INSERT INTO ${fts}(${fts}) VALUES ('delete-all')`);
      // Search is for auto ids, which start at 1: the build is to add every row.
      conn.run(`INSERT OR REPLACE INTO ${PROGRESS} (name, next_id) VALUES (?, 0)`, [table.name]);
    }
  }
  const searched = [...tables.values()].filter((t) => t.search).map((t) => t.name);
  conn.run(`DELETE FROM ${PROGRESS} WHERE name NOT IN (SELECT value FROM json_each(?))`, [JSON.stringify(searched)]);
  // Indexes and triggers the schema no longer wants (their shadow tables go with the table).
  for (const [name, sql] of existing) {
    if (wanted.has(name) || /_(data|idx|docsize|config|content)"$/.test(name)) continue;
    conn.db.exec(sql.startsWith('CREATE TRIGGER') ? `DROP TRIGGER IF EXISTS ${name}` : `DROP TABLE IF EXISTS ${name}`);
  }
}

/** How far a build has come: rows indexed and rows in all, of one collection. */
export type SearchBuildProgress = (collection: string, done: number, total: number) => void;

/**
 * Builds the indexes ensureSearch marked, SEARCH_BUILD_BATCH rows a transaction in id order,
 * telling `progress` after each. Each batch commits with its place, so a build stopped anywhere
 * (a crash, a kill) resumes there on the next open; writes meanwhile (other servers) keep the
 * part already built and leave the rest to the build.
 */
export function buildSearch(conn: Connection, tables: Tables, progress?: SearchBuildProgress, batch = SEARCH_BUILD_BATCH): void {
  for (const table of tables.values()) {
    if (!table.search) continue;
    const fts = searchTable(table);
    const columns = searchColumns(table).map(({ field }) => quote(field)).join(', ');
    const place = () => conn.get<{ next_id: number }>(`SELECT next_id FROM ${PROGRESS} WHERE name = ?`, [table.name])?.next_id;
    const start = place();
    if (start === undefined) continue;
    const total = conn.get<{ n: number }>(`SELECT count(*) AS n FROM ${table.sql}`)!.n;
    let done = conn.get<{ n: number }>(`SELECT count(*) AS n FROM ${table.sql} WHERE id < ?`, [start])!.n;
    for (let more = true; more; ) {
      more = conn.immediate(() => {
        const from = place();
        if (from === undefined) return false;
        const last = conn.get<{ id: number | null; n: number }>(`SELECT max(id) AS id, count(*) AS n FROM (SELECT id FROM ${table.sql} WHERE id >= ? ORDER BY id LIMIT ?)`, [from, batch])!;
        if (last.id === null) {
          optimizeSearch(conn, table);
          conn.run(`DELETE FROM ${PROGRESS} WHERE name = ?`, [table.name]);
          return false;
        }
        conn.run(`INSERT INTO ${fts}(rowid, ${columns}) SELECT id, ${columns} FROM ${table.sql} WHERE id >= ? AND id <= ? ORDER BY id`, [from, last.id]);
        conn.run(`UPDATE ${PROGRESS} SET next_id = ? WHERE name = ?`, [last.id + 1, table.name]);
        done += last.n;
        return true;
      });
      if (more) progress?.(table.name, Math.min(done, total), total);
    }
  }
}

/**
 * Merges an index's segments into one. A build (or a bulk load) leaves a dozen, and a read of a
 * common word walks its doclist in each: at a million videos, counting 120,858 matches took 39 ms
 * over 11 segments and 15 ms over one; the merge took 18 s. Later writes add small segments that
 * FTS5's automerge keeps few.
 */
export function optimizeSearch(conn: Connection, table: Table): void {
  const fts = searchTable(table);
  conn.db.exec(`INSERT INTO ${fts}(${fts}) VALUES ('optimize')`);
}

/**
 * FTS5's query syntax for a parsed search (which has a term to match); every word is quoted, so
 * nothing in it is an operator. `columns` narrows where the wanted terms are looked for.
 */
export function ftsQuery(query: SearchQuery, columns?: readonly string[]): string {
  const term = (t: SearchTerm) => `"${t.words.join(' ')}"${t.phrase ? '' : '*'}`;
  const wanted = query.terms.filter((t) => !t.exclude).map(term);
  const excluded = query.terms.filter((t) => t.exclude).map(term);
  const all = columns ? `{${columns.map(quote).join(' ')}} : (${wanted.join(' AND ')})` : wanted.join(' AND ');
  return excluded.length ? `(${all}) NOT (${excluded.join(' OR ')})` : all;
}

/** The first tier's fields of a searchable table with more than one tier, where the best-scored rows hold every wanted term. */
export const firstTier = (table: Table): readonly string[] | undefined => (table.search && table.search.length > 1 ? table.search[0] : undefined);

/**
 * Relevance as every driver scores it (SEARCH_WEIGHTS): for each wanted term, the weight of the
 * heaviest tier it matches in, summed. Each (term, tier) pair but the last tier's (tierScore) is
 * one index lookup, run once per statement; `bind` adds a value and answers its placeholder.
 */
export function ftsScore(table: Table, query: SearchQuery, bind: (value: string) => string): string {
  const fts = searchTable(table);
  const tiers = (table.search ?? []).map((fields) => fields.map(quote).join(' '));
  const term = (t: SearchTerm) =>
    tierScore(tiers.length, (tier) => `id IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${bind(`{${tiers[tier]}} : ${ftsQuery({ terms: [t] })}`)})`);
  return `(${query.terms.filter((t) => !t.exclude).map(term).join(' + ')})`;
}

/**
 * Leaves an empty table's index to `buildSearch` (a bulk load's end): its triggers skip every row
 * from now on, and the build adds them all in a few large statements instead of one index write
 * per row. A load stopped before its end leaves the mark, so the next open builds the index.
 */
export function deferSearch(conn: Connection, table: Table): void {
  if (table.search) conn.run(`INSERT OR REPLACE INTO ${PROGRESS} (name, next_id) VALUES (?, 0)`, [table.name]);
}
