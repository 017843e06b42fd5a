import { canonicalInteger, type Doc } from '@reelbase/core';
import { decodeDoc, type Body } from '@reelbase/core/sql';
import type { Table } from './sqlite-schema';
import type { SqlValue } from './sqlite-types';

/** A row as read back: the id column and the JSON document. */
export interface Row {
  id: number | string;
  doc: string;
}

// The document codec every SQL driver shares.
export { encodeText, mergePatch, type Body } from '@reelbase/core/sql';

/**
 * Converts a JS value to what a column holds or a parameter binds: the value as the document's
 * JSON holds it, so a column always agrees with the stored text.
 */
export function toSql(value: unknown): SqlValue {
  switch (typeof value) {
    case 'string':
    case 'bigint':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value ? 1 : 0;
    case 'undefined':
      return null;
    default: {
      if (value === null) return null;
      // A Date is its ISO string in the document, an object its JSON text; a function is dropped.
      const json = JSON.stringify(value);
      if (json === undefined) return null;
      const stored: unknown = JSON.parse(json);
      return stored !== null && typeof stored === 'object' ? json : toSql(stored);
    }
  }
}

/**
 * Binds an id: auto ids are integers in SQL but strings to callers. A string that is not the
 * canonical form of an integer ("01", "1e3", "x") names no auto document; SQLite would still
 * convert "01" to 1 on comparison, so it is bound as a BLOB, which no affinity converts and no
 * INTEGER key equals.
 */
export function toSqlId(table: Table, id: unknown): SqlValue {
  if (table.id !== 'auto' || typeof id !== 'string') return toSql(id);
  return canonicalInteger(id) ?? new TextEncoder().encode(id);
}

export function columnValues(table: Table, body: Body): SqlValue[] {
  return table.columns.map((field) => toSql(body[field]));
}

export const decodeRow = <T extends Doc>(row: Row): T => decodeDoc<T>(String(row.id), row.doc);
