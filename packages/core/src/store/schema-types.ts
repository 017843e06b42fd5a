/** How core declares its collections; drivers create tables and indexes from this. */

/** The type of a queryable top-level field: `text` is searched with `contains` and sorts case-insensitively. */
export type FieldType = 'string' | 'text' | 'integer' | 'number' | 'boolean';

export interface CollectionSchema {
  /** `auto`: the store assigns increasing numeric ids ("1", "2", …); `text`: the caller supplies them. */
  id: 'auto' | 'text';
  /** Fields that are filtered or sorted on. Other fields are stored but never queried. */
  fields: Record<string, FieldType>;
  /** Composite indexes to create, each a list of field names (drivers may add more). */
  indexes?: string[][];
  /** Unique keys: inserting or updating to a duplicate throws StoreConflictError. */
  unique?: string[][];
}

export type Schema = Record<string, CollectionSchema>;
