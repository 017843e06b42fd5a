import type { RateLimit, RateLimiter } from './rate-limiter';
import type { MatchFilter } from './search';

/**
 * The storage contract every driver implements. All domain logic lives in core; a driver only
 * stores documents and answers the query forms below, pushing filters, sorting and paging into
 * its engine (SQL WHERE / ORDER BY / LIMIT with indexes) rather than loading whole collections.
 */

/** A value a filter compares with. Ids are numeric strings for `auto` collections. */
export type Scalar = string | number | boolean | null;

/** A stored document: top-level fields, any JSON values; `id` is assigned by the store. */
export interface Doc {
  id: string;
  [field: string]: unknown;
}

/** A filter tree. Field names are top-level fields declared in the collection schema. */
export type Filter =
  | { field: string; op: 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte'; value: Scalar }
  | { field: string; op: 'in' | 'nin'; values: readonly Scalar[] }
  /** Case-insensitive substring match on a text field. */
  | { field: string; op: 'contains'; value: string }
  /** Semi-join: `field` is one of `select.field` of the rows of `select.collection` matching `select.where`. */
  | { field: string; op: 'inSelect'; select: { collection: string; field: string; where?: Filter } }
  /** Full-text match on the collection's search fields (CollectionSchema.search; search.ts). */
  | MatchFilter
  | { and: Filter[] }
  | { or: Filter[] }
  | { not: Filter };

export interface OrderBy {
  field: string;
  direction: 'asc' | 'desc';
}

export interface FindOptions {
  where?: Filter;
  /**
   * Applied in order; the store always breaks remaining ties by id ascending (numerically for
   * auto ids). Fields declared `text` sort case-insensitively (ASCII case folding), others by value.
   * RELEVANCE (search.ts) orders by how well rows match the `match` condition of `where`.
   */
  orderBy?: OrderBy[];
  offset?: number;
  limit?: number;
  /**
   * With a `match` condition in `where`, `total` is exact when it is at most this many (default
   * SEARCH_EXACT_TOTAL); past it a driver may answer an estimate, never this many or fewer.
   */
  exactTotal?: number;
  /**
   * False when the caller keeps its own count (analytics' user rollups): a driver may then skip
   * counting and answer `total` as `offset` plus the items answered. Not with a `match` condition.
   */
  countTotal?: false;
}

export interface FindResult<T extends Doc = Doc> {
  items: T[];
  /** Number of matching documents ignoring offset and limit (a search's may be estimated: FindOptions.exactTotal). */
  total: number;
}

/**
 * The operations a driver implements. Every method is async so network databases fit.
 *
 * Documents passed in are the caller's: a driver copies what it keeps. Documents a read answers
 * (get, find, findOne) are never to be changed by the caller: a driver may answer the same
 * frozen object to every reader while the data is unchanged (the SQLite driver does for point
 * reads); change data through update or increment, or change a copy (`copyJson`).
 */
export interface Store {
  get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null>;
  /** Inserts; `doc.id` is honoured for `text` id collections and assigned for `auto` ones. Throws StoreConflictError on a unique key clash. */
  insert<T extends Doc = Doc>(collection: string, doc: Omit<T, 'id'> & { id?: string }): Promise<T>;
  /**
   * Inserts `docs` in order, all or none (a StoreConflictError on any of them writes none), and
   * answers their ids in that order. For bulk loads: one call, not one awaited insert per document.
   * Calls made without waiting for each other are applied in the order they were made, so a
   * loader may keep one in flight while it builds the next and its ids still follow its batches.
   */
  insertMany<T extends Doc = Doc>(collection: string, docs: readonly (Omit<T, 'id'> & { id?: string })[]): Promise<string[]>;
  /** Shallow-merges `patch` into the top-level fields (a field set to undefined is removed). Null when missing. */
  update<T extends Doc = Doc>(collection: string, id: string, patch: Partial<Omit<T, 'id'>>): Promise<T | null>;
  /** True when a document was deleted. */
  delete(collection: string, id: string): Promise<boolean>;
  find<T extends Doc = Doc>(collection: string, options?: FindOptions): Promise<FindResult<T>>;
  /** The first match in `orderBy` order (then id ascending), or null; never counts. */
  findOne<T extends Doc = Doc>(collection: string, where: Filter, orderBy?: OrderBy[]): Promise<T | null>;
  count(collection: string, where?: Filter): Promise<number>;
  /**
   * How many matches of `where` hold each value of `field` (a declared field, or `id`; any other
   * name throws like a filter's): one grouped count, so a page of owners costs one read, not one
   * per owner. Keyed by the value as a string; rows whose field is null or missing are not counted,
   * and a value no row holds is absent (0 to the caller). With `distinct` (a declared field), a
   * group counts the distinct non-null values of that field among its rows instead (SQL
   * `count(DISTINCT …)`), which may be 0.
   */
  countBy(collection: string, field: string, where?: Filter, distinct?: string): Promise<Map<string, number>>;
  /**
   * Sums of the numeric fields `sums` over the matches of `where`, grouped by the values of the
   * fields `by` (declared fields; any other name throws like a filter's): one grouped read (SQL
   * `SELECT by…, sum(…) … GROUP BY by…`), so a report over millions of rows is summed by the
   * engine, not in core. One row a group, in no particular order, holding its `by` values (null
   * for a null or missing value: that group is kept) and each sum (0 where every value is null);
   * with no `by`, one row whether or not anything matches.
   */
  sumBy(collection: string, by: readonly string[], sums: readonly string[], where?: Filter): Promise<SumRow[]>;
  /** Deletes every match and answers how many. */
  deleteWhere(collection: string, where: Filter): Promise<number>;
  /** Adds `by` to a numeric field atomically and answers the document; null when missing. */
  increment<T extends Doc = Doc>(collection: string, id: string, field: string, by: number): Promise<T | null>;
  /**
   * Restores a document with the id it carries (import, migrate), in `auto` collections too, where
   * the id must be a positive integer string ("7", not "07") and raises the collection's sequence
   * to at least that id. Throws StoreConflictError when the id or a unique key is taken.
   */
  insertWithId<T extends Doc = Doc>(collection: string, doc: T): Promise<T>;
  /** The last id an `auto` collection handed out (0 before its first insert); throws for `text` collections. */
  sequence(collection: string): Promise<number>;
  /**
   * Sets that last id, so the next insert gets `value + 1`. Throws a RangeError when a stored id
   * is larger (it would be handed out again) and a TypeError for `text` collections.
   */
  setSequence(collection: string, value: number): Promise<void>;
  /**
   * Runs `fn` all-or-nothing: a thrown error rolls back every write made through `tx` and is
   * rethrown. Transactions are serialised; writes made by `fn` through `tx` are visible to it.
   */
  transaction<R>(fn: (tx: Store) => Promise<R>): Promise<R>;
  close(): Promise<void>;
  /**
   * Within a transaction, up to `limit` documents matching `where` in `orderBy` order, each locked
   * until the transaction ends and skipping those another transaction holds locked (a work queue:
   * two claimers never take, nor wait on, one row — `FOR UPDATE SKIP LOCKED` on PostgreSQL).
   * Absent where transactions run one at a time (SQLite, JSON): `find` is as good there.
   */
  lockNext?<T extends Doc = Doc>(collection: string, where: Filter, orderBy: OrderBy[], limit: number): Promise<T[]>;
  /**
   * True where the store answers a repeated read from memory until a row it read changes (the
   * SQLite store's reads outside transactions). Core then asks what repeats from request to
   * request (all of a viewer's few likes) rather than what differs (their likes among this page's
   * videos): one remembered answer serves every page.
   */
  readonly remembersReads?: boolean;
  /**
   * A number that moves whenever what the store holds may have changed: on every commit, this
   * process's or another's. While it answers the same number, every read answers what it answered
   * before, so core may answer again what it derived from reads made since it was that number (the
   * caller a token names, a viewer's rows) without reading. Read it before those reads. Absent
   * where a driver cannot tell without a round trip (JSON, PostgreSQL) and inside transactions.
   */
  generation?(): number;
  /**
   * A request counter shared by every process on this store's database, for a driver whose store
   * several servers open at once (PostgreSQL). It counts outside any transaction. Absent where one
   * process owns the store (SQLite, JSON): the service then counts in memory.
   */
  sharedRateLimiter?(limit: RateLimit): RateLimiter;
}

/** A group of Store.sumBy: its `by` values and its sums, each by its field's name. */
export type SumRow = Record<string, Scalar>;

/** Thrown by insert/update when a unique key would be duplicated. */
export class StoreConflictError extends Error {
  constructor(
    readonly collection: string,
    readonly fields: readonly string[],
  ) {
    super(`unique key (${fields.join(', ')}) already exists in ${collection}`);
    this.name = 'StoreConflictError';
  }
}
