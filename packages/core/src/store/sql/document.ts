import type { Doc } from '../store';

/** A document body as stored: JSON-safe, without `id` (the id column holds it). */
export type Body = Record<string, unknown>;

/**
 * The text a document is stored as (without `id`: the id column holds it), and the document as a
 * read will answer it: a JSON round trip (undefined fields dropped, dates as ISO strings), so the
 * columns and the answer agree with the stored text. Its `id` is empty until the caller sets it.
 */
export function encodeDoc<T extends Doc>(doc: Record<string, unknown>): { doc: T; json: string } {
  const json = encodeText(doc);
  return { doc: decodeDoc<T>('', json), json };
}

/** The text a document is stored as: its JSON without `id`. */
export const encodeText = (doc: Record<string, unknown>): string => JSON.stringify(doc.id === undefined ? doc : withoutId(doc));

/**
 * A stored text read back as its document, `id` first. The id is spliced into the text: parsing,
 * then spreading into a new object with the id, costs half as much again as the parse.
 */
export function decodeDoc<T extends Doc>(id: string, json: string): T {
  const key = JSON.stringify(id);
  return JSON.parse(json === '{}' ? `{"id":${key}}` : `{"id":${key},${json.slice(1)}`) as T;
}

/** A copy of a document without its id; inserts mostly come without one, which spares the copy. */
function withoutId(doc: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = doc;
  return rest;
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
