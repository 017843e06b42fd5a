/** A body's JSON text and its length in bytes, as a response sends them. */
export interface JsonPayload {
  text: string;
  bytes: number;
}

const frozenPayloads = new WeakMap<object, JsonPayload>();

/**
 * Serialises a body; a frozen one (a Clip remembered per stored document, deep-frozen by core)
 * is serialised once, since it can never change: every later answer of the same object sends the
 * same text. A change to what it shows makes a new object, so nothing stale is ever sent.
 */
export function jsonPayload(body: unknown): JsonPayload {
  const frozen = body !== null && typeof body === 'object' && Object.isFrozen(body);
  const known = frozen ? frozenPayloads.get(body) : undefined;
  if (known) return known;
  const text = JSON.stringify(body);
  const payload = { text, bytes: Buffer.byteLength(text) };
  if (frozen) frozenPayloads.set(body, payload);
  return payload;
}
