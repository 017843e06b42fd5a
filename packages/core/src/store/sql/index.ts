/**
 * `@reelbase/core/sql`: what the SQL drivers share — table descriptions from the collection
 * schema, the Store's filter and sort forms compiled to SQL through a small dialect, and the
 * mutex that serialises transactions on one connection.
 */
export { compileFilter } from './compile-filter';
export { countBySql, groupCounts, type GroupRow } from './count-by';
export { sumBySql, sumRows } from './sum-by';
export { compileOrderBy } from './compile-order';
export { decodeDoc, encodeDoc, encodeText, mergePatch, type Body } from './document';
export { Mutex, type Holder } from './mutex';
export { INCOMPARABLE, SqlParams, type SqlDialect } from './sql-dialect';
export {
  column,
  describeTables,
  INDEX_PREFIX,
  indexKey,
  isText,
  quote,
  searchColumns,
  wantedIndexes,
  type IndexKey,
  type SqlTable,
  type SqlTables,
  type WantedIndex,
} from './sql-table';
