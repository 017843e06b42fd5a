/**
 * A deep copy of JSON data, which is all a stored document holds: a few times faster than
 * structuredClone or a JSON round trip, so a driver can hand every caller a copy of its own.
 */
export function copyJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const list = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) list[i] = copyJson(value[i]);
    return list as T;
  }
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  // for…in is the fastest walk; JSON objects inherit nothing enumerable from Object.prototype.
  for (const key in source) {
    // An own "__proto__" key (JSON.parse makes one) must stay a key, not become the prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: copyJson(source[key]), enumerable: true, writable: true, configurable: true });
    else copy[key] = copyJson(source[key]);
  }
  return copy as T;
}

/**
 * What deepFreeze froze carries this mark, a non-enumerable symbol (JSON, spreads and key walks
 * never see it). Hot paths ask whether a value is shared for every part of every Clip they
 * answer: Object.isFrozen checks each property of a frozen object (50 ns for a Clip's). A WeakSet
 * of every frozen part answered as fast, but grew to millions of entries under a read load of
 * distinct documents: its rehashes and the collector's walks of it stalled single requests for
 * 100-300 ms.
 */
const SHARED = Symbol('reelbase.shared');
/** Values frozen before deepFreeze saw them (so they cannot take the mark): few. */
const frozenElsewhere = new WeakSet<object>();

/** Freezes JSON data all the way down, for values shared between callers that must not change them. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !isShared(value)) {
    if (Object.isExtensible(value)) Object.defineProperty(value, SHARED, { value: true });
    else frozenElsewhere.add(value);
    Object.freeze(value);
    for (const key in value) deepFreeze(value[key]);
  }
  return value;
}

/** Whether deepFreeze froze `value`: shared, so it never changes and may be remembered by its identity. */
export const isShared = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && ((value as { [SHARED]?: true })[SHARED] === true || frozenElsewhere.has(value));

/**
 * What `build` makes of `source`: made once per shared source (which never changes), kept in
 * `made` and shared (deep-frozen) in turn; made anew for a source that is not shared.
 */
export function sharedOnce<S extends object, V>(made: WeakMap<S, V>, source: S, build: () => V): V {
  if (!isShared(source)) return build();
  let value = made.get(source);
  if (value === undefined) made.set(source, (value = deepFreeze(build())));
  return value;
}
