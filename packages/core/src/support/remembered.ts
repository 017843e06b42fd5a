/**
 * Representations remembered per shared stored document (a store that shares unchanged documents
 * answers the same frozen object until it changes, so the document is the key) and per `key`,
 * which names everything else they show: the viewer and what is theirs. A few per document; a
 * changed document is a new object, so nothing stale is ever answered. Remembered values are
 * shared, so callers deep-freeze them.
 */
export class Remembered<V> {
  readonly #byDocument = new WeakMap<object, Map<string, V>>();

  constructor(private readonly perDocument: number) {}

  get(document: object, key: string, build: () => V): V {
    let known = this.#byDocument.get(document);
    if (!known) this.#byDocument.set(document, (known = new Map()));
    let value = known.get(key);
    if (value === undefined) keep(known, key, (value = build()), this.perDocument);
    return value;
  }
}

/** Sets `key` in a map bounded to `max` entries, the oldest set going first. */
export function keep<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

const identities = new WeakMap<object, number>();
let lastIdentity = 0;

/**
 * A number for an object, the same for as long as it lives and never another's: what a remembered
 * representation's key names a shared document or answer by (a changed one is a new object).
 */
export function identityOf(value: object): number {
  let id = identities.get(value);
  if (id === undefined) identities.set(value, (id = ++lastIdentity));
  return id;
}
