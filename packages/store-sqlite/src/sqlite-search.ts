import { searchWords, tierScore, type OrderBy, type Schema, type SearchQuery, type SearchTerm } from '@reelbase/core';
import { isText, searchColumns, wantedIndexes } from '@reelbase/core/sql';
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
/** The lengths of the prefix indexes: a bare word no longer than the last is looked up in one. */
const PREFIXES = [2, 3, 4];
/** A word beginning more index words than this stays a prefix (see `wholeQuery`). */
const MAX_EXPANSION = 32;
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

/** The index's columns: the searched fields, then the keys kept beside them (CollectionSchema.searchKeys). */
const indexedColumns = (table: Table): string[] => [...searchColumns(table).map(({ field }) => field), ...(table.searchKeys ?? [])].map(quote);

function createSql(table: Table): string {
  const columns = indexedColumns(table);
  return (
    `CREATE VIRTUAL TABLE ${searchTable(table)} USING fts5(${columns.join(', ')}, content=${quote(table.name)}, content_rowid='id', ` +
    `tokenize='unicode61 remove_diacritics 2', prefix='${PREFIXES.join(' ')}')`
  );
}

function triggers(table: Table): Map<string, string> {
  const fields = indexedColumns(table);
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
export function ensureSearch(conn: Connection, schema: Schema, tables: Tables): void {
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
  ensureWindows(conn, schema, tables);
  const searched = [...tables.values()].filter((t) => t.search).map((t) => t.name);
  conn.run(`DELETE FROM ${PROGRESS} WHERE name NOT IN (SELECT value FROM json_each(?))`, [JSON.stringify(searched)]);
  // Indexes and triggers the schema no longer wants (their shadow tables go with the table).
  for (const [name, sql] of existing) {
    if (wanted.has(name) || /_(data|idx|docsize|config|content)"$/.test(name)) continue;
    conn.db.exec(sql.startsWith('CREATE TRIGGER') ? `DROP TRIGGER IF EXISTS ${name}` : `DROP TABLE IF EXISTS ${name}`);
  }
}

const WINDOW_PREFIX = 'rbwin_';

/**
 * The order a ranked search's window is read in (compile-query.ts, Window): the table's
 * `searchTies` field descending, nulls last, then id. Its index holds expressions no other
 * statement orders by, so the planner never walks it for a list (a channel's videos by plays
 * would walk every video's); the schema declares no index on the field alone for that reason.
 */
export const windowOrder = (table: Table): string => `(${quote(table.searchTies!)} IS NULL), (-${quote(table.searchTies!)}), id`;

/** A list order of a searchable table that a search walks from a window index of its own (ensureWindows). */
interface ListOrder {
  field: string;
  desc: boolean;
}

/**
 * The orders a searchable table's lists are read in: those of its indexes led by a search key
 * (a user's videos by date, by name…). A list pinned to the key walks that index; a search over
 * every row walks the order's window index (walkOrder).
 */
function listOrders(schema: Schema, table: Table): ListOrder[] {
  const keys = new Set(table.searchKeys ?? []);
  const orders = [...wantedIndexes(schema[table.name], table).values()].filter((i) => !i.unique && i.keys.length === 2 && keys.has(i.keys[0].field)).map((i) => i.keys[1]);
  return orders.filter((o) => !(o.field === table.searchTies && o.desc));
}

/**
 * The columns of the window index of `order`: nulls where the contract puts them (after every
 * value descending, before ascending) by a leading expression no list orders by, so that the
 * planner never walks the whole table's index for a list of one owner's rows.
 */
const orderWindow = (table: Table, { field, desc }: ListOrder): string =>
  `(${quote(field)} IS NULL) ${desc ? 'ASC' : 'DESC'}, ${quote(field)}${isText(table, field) ? ' COLLATE NOCASE' : ''} ${desc ? 'DESC' : 'ASC'}`;

/**
 * The ORDER BY that walks a window index in `orderBy`'s order (one field, then id), or undefined
 * when the order has none: the `searchTies` window for its field descending, else the list
 * order's own (orderWindow). The planner finds whether the index is there (search-walks.ts).
 */
export function walkOrder(table: Table, orderBy: readonly OrderBy[] | undefined): string | undefined {
  const rest = orderBy?.filter((o) => o.field !== 'id') ?? [];
  if (rest.length !== 1 || orderBy?.some((o) => o.field === 'id' && o.direction !== 'asc')) return undefined;
  const [{ field, direction }] = rest;
  if (!table.search || !(field in table.fields)) return undefined;
  if (field === table.searchTies && direction === 'desc') return windowOrder(table);
  return `${orderWindow(table, { field, desc: direction === 'desc' })}, id`;
}

const KEYS_PREFIX = 'rbkeys_';

/**
 * The columns of a searchable table's keys index (`rbkeys_<table>`): its schema's index led by id
 * (what a ranked search reads of every match: visibility, ties) widened by every list order's
 * field, or undefined for a table with no such index or no list order. A search's plain plan reads
 * each match's sort key by its id; a key stored after the row's document (kilobytes, on overflow
 * pages) cost 5 µs a match, 37 ms of two words by date at a million videos, against about 1 µs
 * from an index holding it.
 */
function keyColumns(schema: Schema, table: Table): string[] | undefined {
  const idLed = [...wantedIndexes(schema[table.name], table).values()].find((i) => !i.unique && i.keys[0].field === 'id');
  const orders = listOrders(schema, table);
  if (!idLed || orders.length === 0) return undefined;
  return [...new Set([...idLed.keys.map((k) => k.field), ...orders.map((o) => o.field), ...scoredTiers(table).flat()])];
}

/**
 * The tiers whose text relevance tests row by row (ftsScore), all but the last (a match in none
 * of them is in the last): for a table with a keys index, which holds them. Without one (users:
 * no list order), each tier's matches are looked up in the index instead.
 */
const scoredTiers = (table: Table): readonly (readonly string[])[] => (table.searchKeys && table.search ? table.search.slice(0, -1) : []);

/**
 * A row of `sqlite_stat1`: `idx` null for the table itself. SQLite's planner weighs a covering
 * index against the table by their rows' sizes, which it guesses from the declared columns; a
 * document column counts as a few bytes there, so without a size (`sz=`) the table looks about as
 * narrow as the keys index and each match's row is read instead.
 */
export interface Statistic {
  tbl: string;
  idx: string | null;
  stat: string;
}

/** A searchable row's size as the planner is told it (`sz=`, bytes): a video's document is kilobytes. */
const DOCUMENT_ROW_BYTES = 4000;

/** The statistics of the keys indexes (an id names one row, as for the schema's indexes led by id) and of their tables' row sizes, `rows` the table size given. */
export function keyStatistics(schema: Schema, tables: Tables, rows: number): Statistic[] {
  return [...tables.values()].flatMap((table) => {
    const columns = table.search && keyColumns(schema, table);
    if (!columns) return [];
    return [
      { tbl: table.name, idx: `${KEYS_PREFIX}${table.name}`, stat: [rows, ...columns.map(() => 1)].join(' ') },
      { tbl: table.name, idx: null, stat: `${rows} sz=${DOCUMENT_ROW_BYTES}` },
    ];
  });
}

/** Creates the window indexes (`rbwin_<table>…`) and keys indexes (`rbkeys_<table>`) of every searchable table, and drops those no longer wanted. */
function ensureWindows(conn: Connection, schema: Schema, tables: Tables): void {
  const existing = new Map(
    conn
      .all<{ name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND (substr(name, 1, ?) = ? OR substr(name, 1, ?) = ?)`, [
        WINDOW_PREFIX.length,
        WINDOW_PREFIX,
        KEYS_PREFIX.length,
        KEYS_PREFIX,
      ])
      .map((i) => [i.name, i.sql]),
  );
  const wanted = new Map<string, string>();
  const want = (table: Table, name: string, columns: string) => wanted.set(name, `CREATE INDEX ${quote(name)} ON ${table.sql} (${columns})`);
  for (const table of tables.values()) {
    if (!table.search) continue;
    if (table.searchTies) want(table, `${WINDOW_PREFIX}${table.name}`, `(${quote(table.searchTies)} IS NULL), (-${quote(table.searchTies)})`);
    for (const order of listOrders(schema, table)) want(table, `${WINDOW_PREFIX}${table.name}__${order.field}${order.desc ? '_desc' : ''}`, orderWindow(table, order));
    const keys = keyColumns(schema, table);
    if (keys) want(table, `${KEYS_PREFIX}${table.name}`, keys.map(quote).join(', '));
  }
  for (const [name, sql] of wanted) {
    if (existing.get(name) === sql) continue;
    if (existing.has(name)) conn.db.exec(`DROP INDEX ${quote(name)}`);
    conn.db.exec(sql);
  }
  for (const name of existing.keys()) if (!wanted.has(name)) conn.db.exec(`DROP INDEX ${quote(name)}`);
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
    const columns = indexedColumns(table).join(', ');
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

/** A term as FTS5 reads it: quoted, so nothing in it is an operator; a bare word is a prefix. */
const prefixTerm = (t: SearchTerm): string => `"${t.words.join(' ')}"${t.phrase ? '' : '*'}`;

/** What narrows an FTS5 query: the fields its wanted terms are looked for in, and the keys it is pinned to (keyTerm). */
export interface FtsScope {
  columns?: readonly string[];
  keys?: readonly string[];
}

/**
 * FTS5's query syntax for a parsed search (which has a term to match), each term as `text` writes
 * it. Where the index keeps keys, the words are looked for in the searched fields alone: a typed
 * number must not find a user's videos by their owner's id.
 */
function compose(table: Table, query: SearchQuery, text: (t: SearchTerm) => string, scope: FtsScope = {}): string {
  const searched = table.searchKeys ? searchColumns(table).map(({ field }) => field) : undefined;
  const within = (columns: readonly string[] | undefined, expr: string) => (columns ? `{${columns.map(quote).join(' ')}} : (${expr})` : expr);
  const wanted = query.terms.filter((t) => !t.exclude).map(text);
  const excluded = query.terms.filter((t) => t.exclude).map(text);
  const all = within(scope.columns ?? searched, wanted.join(' AND '));
  const kept = excluded.length ? `(${all}) NOT (${within(searched, excluded.join(' OR '))})` : all;
  return scope.keys?.length ? `(${kept}) AND ${scope.keys.join(' AND ')}` : kept;
}

/** The rows of `table` its index finds for an FTS5 query (`text`, its placeholder or literal). */
export const matchRows = (table: Table, text: string): string => `id IN (SELECT rowid FROM ${searchTable(table)} WHERE ${searchTable(table)} MATCH ${text})`;

/** FTS5's query syntax for a parsed search, narrowed by `scope`. */
export const ftsQuery = (table: Table, query: SearchQuery, scope?: FtsScope): string => compose(table, query, prefixTerm, scope);

/** The FTS5 term "the key `field` is `value`" (CollectionSchema.searchKeys), or undefined for a value with no word in it. */
export function keyTerm(field: string, value: string | number): string | undefined {
  const words = searchWords(String(value));
  return words.length ? `{${quote(field)}} : "${words.join(' ')}"` : undefined;
}

/** The index words of `table` that begin `word`, in order, up to `max` (the `row` fts5vocab of its index). */
export type Vocabulary = (table: Table, word: string, max: number) => readonly string[];

/** Words a Vocabulary remembers at most (then it forgets them all): a few MiB. */
const MAX_REMEMBERED_WORDS = 10_000;

/**
 * A Vocabulary read through `conn`, from a temporary fts5vocab table per index. They are made
 * here, outside any transaction: one made inside would go with its rollback. Reading one costs a
 * pass over the lists of the words it finds (2 ms for a word in 120,000 of a million videos, 7 ms
 * in 400,000). With `version` (the read connection's snapshot), answers are remembered while it
 * is unchanged: an index's words change only with a commit.
 */
export function vocabulary(conn: Connection, tables: Tables, version?: () => number): Vocabulary {
  const vocab = (table: Table) => `temp.${quote(`rb_vocab_${table.name}`)}`;
  for (const table of tables.values()) {
    if (table.search) conn.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${vocab(table)} USING fts5vocab(main, ${quote(`rb_search_${table.name}`)}, row)`);
  }
  const known = new Map<string, readonly string[]>();
  let seen: number | undefined;
  return (table, word, max) => {
    const key = `${table.name}\u0000${max}\u0000${word}`;
    if (version) {
      const now = version();
      if (now !== seen || known.size >= MAX_REMEMBERED_WORDS) {
        known.clear();
        seen = now;
      }
      const remembered = known.get(key);
      if (remembered) return remembered;
    }
    const words = conn.all<{ term: string }>(`SELECT term FROM ${vocab(table)} WHERE term >= ? AND term <= ? LIMIT ?`, [word, `${word}\u{10ffff}`, max]).map((r) => r.term);
    if (version) known.set(key, words);
    return words;
  };
}

/**
 * The query with each bare word longer than the prefix indexes as the index words it begins, or
 * undefined when one begins more than MAX_EXPANSION. FTS5 answers such a prefix by first merging
 * the lists of every word it begins, whenever it must skip through them: at each row of a lookup
 * (`… MATCH ? AND rowid = ?`, 3 ms a row for a word in 120,000 of a million videos, against 2 µs
 * for whole words) and in an AND with a key (17 ms for a word in 400,000, against 0.6 ms). The
 * same rows match either way.
 */
export function wholeQuery(table: Table, query: SearchQuery, words: Vocabulary, scope?: FtsScope): string | undefined {
  const texts = new Map<SearchTerm, string>();
  for (const t of query.terms) {
    const word = t.words[0];
    if (t.phrase || word.length <= PREFIXES[PREFIXES.length - 1]) {
      texts.set(t, prefixTerm(t));
      continue;
    }
    const whole = words(table, word, MAX_EXPANSION + 1);
    if (whole.length > MAX_EXPANSION) return undefined;
    // A word beginning none matches nothing; as a prefix of nothing it costs nothing to look up.
    texts.set(t, whole.length ? `(${whole.map((w) => `"${w}"`).join(' OR ')})` : prefixTerm(t));
  }
  return compose(table, query, (t) => texts.get(t)!, scope);
}

/** How a find writes its FTS5 queries (`ftsQuery` or `wholeQuery`), narrowed by `scope`. */
export type FtsText = (table: Table, query: SearchQuery, scope?: FtsScope) => string;

/** The first tier's fields of a searchable table with more than one tier, where the best-scored rows hold every wanted term. */
export const firstTier = (table: Table): readonly string[] | undefined => (table.search && table.search.length > 1 ? table.search[0] : undefined);

/**
 * Relevance as every driver scores it (SEARCH_WEIGHTS): for each wanted term, the weight of the
 * heaviest tier it matches in, summed. Each (term, tier) pair but the last tier's (tierScore) is
 * one index lookup, run once per statement; `bind` adds a value and answers its placeholder.
 * With more than one wanted term, each lookup also asks for the others: SQLite keeps a lookup's
 * rows in a temporary index, and two common words' rows with both (4,000 of a million videos)
 * are far fewer than the rows with one of them in a title (62,000).
 */
export function ftsScore(table: Table, query: SearchQuery, bind: (value: string) => string, text: FtsText, keys?: readonly string[]): string {
  const tiers = table.search ?? [];
  const wanted = query.terms.filter((t) => !t.exclude);
  const lookup = (t: SearchTerm, tier: number) => {
    const own = text(table, { terms: [t] }, { columns: tiers[tier], keys });
    const others = wanted.filter((o) => o !== t);
    return others.length ? `(${own}) AND (${text(table, { terms: others })})` : own;
  };
  const looked = (t: SearchTerm, tier: number) => matchRows(table, bind(lookup(t, tier)));
  // Each sum binds its values as it is written, so the sums are written in the order they appear.
  const sum = (inTier: (t: SearchTerm, tier: number) => string) => `(${wanted.map((t) => tierScore(tiers.length, (tier) => inTier(t, tier))).join(' + ')})`;
  const scored = scoredTiers(table);
  if (scored.length === 0 || wanted.length < TEXT_TESTED_FROM || wanted.every((t) => testedWord(t) === undefined)) return sum(looked);
  const texts = scored.map((columns) => columns.map((c) => `coalesce(${quote(c)}, '')`).join(` || ' ' || `));
  // Index words begin after a character no index word holds (or at the start): a space put before the text stands for the start.
  const inText = (t: SearchTerm, tier: number) => {
    const word = testedWord(t);
    return word === undefined ? looked(t, tier) : `' ' || lower(${texts[tier]}) GLOB ${bind(`*[^a-z0-9]${word}*`)}`;
  };
  const byText = sum(inText);
  // ASCII text alone (as many bytes as characters), which unicode61 reads as testedWord says.
  const ascii = texts.map((x) => `length(${x}) = length(CAST(${x} AS BLOB))`).join(' AND ');
  return `(CASE WHEN ${ascii} THEN ${byText} ELSE ${sum(looked)} END)`;
}

/**
 * The wanted terms from which a ranked search tests its tiers in each match's text (testedWord)
 * rather than looking each (term, tier) up in the index. A lookup costs about the same whatever
 * the matches (about 6.5 ms for two common words at a million videos: it merges their lists),
 * the text about 1.5 µs a match (its ASCII test, a GLOB a term and tier). Measured at a million
 * videos, the page statement alone (load 20–35): three words (2,600 matches) 104 ms by lookups,
 * 38 by text; two words 51 → 49 ms (7,700 matches), 57 → 51 (river festival) but 59 → 75
 * (14,600): with two, where the lookups are four, the text loses as soon as the matches are many.
 */
const TEXT_TESTED_FROM = 3;

/** Text holding a character other than printable ASCII, tabs and line breaks (GLOB): text a test of its own (testedWord, prefilter) cannot speak for. */
export const NOT_PRINTABLE_ASCII = '*[^\t\n\r -~]*';

/**
 * The word a bare term looks for, when a row's own text can tell whether it holds it: one word
 * of ASCII letters and digits. In ASCII text, unicode61 reads exactly the runs of letters and
 * digits as words, lowercased (every other ASCII character, controls too, separates them), so the
 * term is in the text when a word of it begins with the word: in the lowercased text after a
 * character that is neither, or at its start. A phrase, a word of several (`e-mail`), or one with
 * any other character is looked up in the index.
 */
const testedWord = (t: SearchTerm): string | undefined => (!t.phrase && t.words.length === 1 && /^[a-z0-9]+$/.test(t.words[0]) ? t.words[0] : undefined);

/**
 * Leaves an empty table's index to `buildSearch` (a bulk load's end): its triggers skip every row
 * from now on, and the build adds them all in a few large statements instead of one index write
 * per row. A load stopped before its end leaves the mark, so the next open builds the index.
 */
export function deferSearch(conn: Connection, table: Table): void {
  if (table.search) conn.run(`INSERT OR REPLACE INTO ${PROGRESS} (name, next_id) VALUES (?, 0)`, [table.name]);
}
