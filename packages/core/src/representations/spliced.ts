import { deepFreeze } from '../store/copy-json';

/** Where a spliced object (`splice`) says what it was made from; JSON.stringify never sees a symbol key. */
export const splicedFrom: unique symbol = Symbol('reelbase.splicedFrom');

/** A deep-frozen base and the one field of it a spliced object replaces. */
export interface Splice {
  base: object;
  key: string;
}

/**
 * `base` (deep-frozen, shared) with its field `key` replaced by `value`, in the same place. The
 * result is deep-frozen too, `value` included, so it stays what its mark says and may be shared
 * in turn: a serialiser writes it as the base's remembered text with only `value` written anew.
 */
export function splice<T extends object>(base: T, key: keyof T & string, value: unknown): T {
  const out = { ...base, [key]: value };
  Object.defineProperty(out, splicedFrom, { value: { base, key } satisfies Splice });
  return deepFreeze(out);
}

export const spliceOf = (value: object): Splice | undefined => (value as { [splicedFrom]?: Splice })[splicedFrom];
