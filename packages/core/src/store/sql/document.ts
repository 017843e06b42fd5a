/** A document body as stored: JSON-safe, without `id` (the id column holds it). */
export type Body = Record<string, unknown>;

/**
 * Normalises a document to what it will read back as (JSON round trip: undefined fields dropped,
 * dates as ISO strings), so the columns and the returned document agree with the stored JSON.
 */
export function encodeBody(doc: Record<string, unknown>): { body: Body; json: string } {
  const json = JSON.stringify(doc.id === undefined ? doc : withoutId(doc));
  return { body: JSON.parse(json) as Body, json };
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
