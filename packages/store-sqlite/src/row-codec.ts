import type { Doc } from '@reelbase/core';
import type { Table } from './sqlite-schema';
import type { SqlValue } from './sqlite-types';

/** A row as read back: the id column and the JSON document. */
export interface Row {
  id: number | string;
  doc: string;
}

/** A document body as stored: JSON-safe, without `id` (the id column holds it). */
export type Body = Record<string, unknown>;

/** Converts a JS value to what a column holds or a parameter binds. */
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
    default:
      return value === null ? null : JSON.stringify(value);
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
  return /^(0|-?[1-9]\d{0,14})$/.test(id) ? Number(id) : new TextEncoder().encode(id);
}

/**
 * Normalises a document to what it will read back as (JSON round trip: undefined fields dropped,
 * dates as ISO strings), so the columns and the returned document agree with the stored JSON.
 */
export function encodeBody(doc: Record<string, unknown>): { body: Body; json: string } {
  const { id: _id, ...rest } = doc;
  const json = JSON.stringify(rest);
  return { body: JSON.parse(json) as Body, json };
}

export function columnValues(table: Table, body: Body): SqlValue[] {
  return table.columns.map((field) => toSql(body[field]));
}

export function decodeRow<T extends Doc>(row: Row): T {
  return { id: String(row.id), ...(JSON.parse(row.doc) as Body) } as T;
}

/** Shallow merge where a key set to undefined removes the field; `id` cannot be patched. */
export function mergePatch(body: Body, patch: Record<string, unknown>): Body {
  const merged: Body = { ...body };
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'id') continue;
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}
