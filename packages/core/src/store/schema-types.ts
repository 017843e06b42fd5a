/** How core declares its collections; drivers create tables and indexes from this. */

/** The type of a queryable top-level field: `text` is searched with `contains` and sorts case-insensitively. */
export type FieldType = 'string' | 'text' | 'integer' | 'number' | 'boolean';

export interface CollectionSchema {
  /** `auto`: the store assigns increasing numeric ids ("1", "2", …); `text`: the caller supplies them. */
  id: 'auto' | 'text';
  /** Fields that are filtered or sorted on. Other fields are stored but never queried. */
  fields: Record<string, FieldType>;
  /**
   * Composite indexes to create, each a list of field names (drivers may add more). A name may end
   * in ` desc` (`'plays desc'`): ties are broken by id ascending in every direction, so a sort
   * that is descending by default is served in index order only by a descending key.
   */
  indexes?: string[][];
  /** Unique keys: inserting or updating to a duplicate throws StoreConflictError. */
  unique?: string[][];
  /**
   * Declared fields that get no index of their own. A driver otherwise gives every field that
   * leads no declared key one, so an equality lookup never scans; sort keys reached only through
   * the keys above, and fields with a handful of values (an index on them misleads the planner
   * into walking most of the table), opt out here.
   */
  unindexed?: string[];
  /**
   * Fields this collection's rows take from the document their `key` field names in `collection`,
   * `{ local: sourceField }`, so a membership row (a video on a tag) can be filtered and sorted by
   * its member's fields (the video's plays) with its own indexes instead of a join. Each local
   * name is declared in `fields` too. Drivers keep the values equal to the source's on every write
   * to either side (null while the source is missing); they are never written by callers and
   * never returned in documents.
   */
  mirror?: Mirror;
  /**
   * Full-text search (search.ts): `text` fields in tiers, the heaviest first (at most four), e.g.
   * `[['name'], ['tag_names'], ['description']]`. Drivers index them, kept in the same transaction
   * as every write, and answer `match` conditions and RELEVANCE from that index. `auto` ids only.
   */
  search?: readonly (readonly string[])[];
  /**
   * With `search`: `string` fields a search is often narrowed to one value of (a user's videos).
   * A driver may keep them in its search index beside the words, so a search narrowed to one
   * value walks only that value's matches; they are never matched by the words a person types.
   */
  searchKeys?: readonly string[];
  /**
   * With `search`: the numeric field `sort=relevant` breaks ties by, descending (`plays` for
   * videos). A driver may keep the rows in that order, apart from every other index, to find a
   * common word's best matches among the first rows rather than order every match.
   */
  searchTies?: string;
}

export interface Mirror {
  collection: string;
  key: string;
  fields: Record<string, string>;
}

export type Schema = Record<string, CollectionSchema>;
