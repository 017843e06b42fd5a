import { canonicalInteger, type Doc, type FieldType, type Scalar } from '@reelbase/core';
import { INCOMPARABLE, type Body, type SqlTable } from '@reelbase/core/sql';
import type { Row } from './pg-types';

/**
 * PostgreSQL text cannot hold U+0000 (JSON keeps it escaped in the document); columns and the
 * values compared with them hold U+FFFD instead, the same on both sides.
 */
export const storable = (text: string): string => (text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text);

/**
 * A document value as its column holds it. Columns are typed, so a value of another JSON type is
 * NULL in a number or boolean column and its JSON text in a text column; the document keeps it as is.
 */
export function columnValue(type: FieldType, value: unknown): unknown {
  switch (type) {
    case 'integer':
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    default:
      if (value === null || value === undefined) return null;
      return storable(typeof value === 'string' ? value : JSON.stringify(value));
  }
}

export function columnValues(table: SqlTable, body: Body): unknown[] {
  return table.columns.map((field) => columnValue(table.fields[field], body[field]));
}

/**
 * An `auto` id as bound against the bigint column: the integer a canonical string spells ("7",
 * never "07" or "7.0"), else INCOMPARABLE, since such a string names no document.
 */
function autoId(value: unknown): string | typeof INCOMPARABLE {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : INCOMPARABLE;
  const n = typeof value === 'string' ? canonicalInteger(value) : undefined;
  return n === undefined ? INCOMPARABLE : String(n);
}

/** A filter value as bound against a field, or INCOMPARABLE when no value of the column's type can equal it. */
export function filterValue(table: SqlTable, field: string, value: Exclude<Scalar, null>): unknown {
  if (field === 'id') return table.id === 'auto' ? autoId(value) : storable(String(value));
  switch (table.fields[field]) {
    case 'integer':
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      return Number.isFinite(n) ? n : INCOMPARABLE;
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : INCOMPARABLE;
    default:
      return storable(String(value));
  }
}

export function decodeRow<T extends Doc>(row: Row): T {
  return { id: String(row.id), ...row.doc } as T;
}
