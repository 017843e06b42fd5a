import type { CollectionSchema } from './schema-types';

/**
 * The checks every driver makes for `insertWithId`, `sequence` and `setSequence`, so they reject
 * the same input with the same errors.
 */

/**
 * The integer a string spells in canonical form ("7", "-3", "0"; never "07", "7.0" or "1e3"), or
 * undefined: how drivers read an `auto` id they compare with. A non-canonical one names no document.
 */
export function canonicalInteger(text: string): number | undefined {
  return /^(0|-?[1-9]\d{0,14})$/.test(text) ? Number(text) : undefined;
}

/** The number an `auto` id stands for: a canonical positive integer string ("7", never "07" or "7.0"). */
export function autoIdNumber(collection: string, id: unknown): number {
  const value = typeof id === 'string' ? canonicalInteger(id) : undefined;
  if (value === undefined || value < 1) {
    throw new TypeError(`${collection}: an auto id must be a positive integer string such as "7", got ${JSON.stringify(id)}`);
  }
  return Number(id);
}

/** Only `auto` collections have a sequence. */
export function assertSequenced(collection: string, id: CollectionSchema['id']): void {
  if (id !== 'auto') throw new TypeError(`${collection} has text ids and no sequence`);
}

/** A new sequence value: a whole number no smaller than the largest stored id (`maxId`, 0 when empty). */
export function checkSequence(collection: string, value: number, maxId: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${collection}: a sequence must be a non-negative integer, got ${value}`);
  if (value < maxId) throw new RangeError(`${collection}: sequence ${value} is below the stored id ${maxId}, which would be handed out again`);
  return value;
}
