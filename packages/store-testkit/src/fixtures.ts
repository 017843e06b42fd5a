import assert from 'node:assert/strict';
import { StoreConflictError, type Doc, type FindResult, type Schema, type Store } from '@reelbase/core';
import type { StoreTestDriver } from './driver';

/** The suite's own collections: auto ids with every field type, a composite unique key, text ids. */
export const testSchema: Schema = {
  people: {
    id: 'auto',
    fields: { name: 'text', age: 'integer', city: 'string', active: 'boolean', score: 'number', email: 'string' },
    indexes: [['city', 'age']],
    unique: [['email']],
  },
  follows: {
    id: 'auto',
    fields: { user_id: 'string', target_id: 'string' },
    unique: [['user_id', 'target_id']],
  },
  tags: { id: 'text', fields: { label: 'text', uses: 'integer' } },
};

/**
 * Eleven people, ids "1".."11", so ties that span "9" and "10" show whether ids sort numerically.
 * Person 3 has a stored null city, 7 no city at all, 8 a null age, 4 no score, 11 no `active`.
 */
export const people: Record<string, unknown>[] = [
  { name: 'Alice Martin', age: 30, city: 'Paris', active: true, score: 4.5 },
  { name: 'Bob Stone', age: 25, city: 'London', active: false, score: 3.25 },
  { name: 'Carol King', age: 35, city: null, active: true, score: 4.5 },
  { name: 'Dave Martin', age: 25, city: 'Paris', active: true },
  { name: '100% Pure', age: 40, city: 'Berlin', active: false, score: -1 },
  { name: 'snake_case', age: 19, city: 'London', active: true, score: 0 },
  { name: "O'Brien", age: 52, active: false, score: 2 },
  { name: 'Say "hi"', age: null, city: 'Paris', active: true, score: 10 },
  { name: 'MARTINA', age: 30, city: 'Berlin', active: true, score: 4.5 },
  { name: 'Zed', age: 30, city: 'Paris', active: false, score: 1.5 },
  { name: 'Back\\slash', age: 25, city: 'London', score: 3.25 },
];

/** Who follows whom, by person id. */
export const follows: Record<string, unknown>[] = [
  { user_id: '1', target_id: '2' },
  { user_id: '1', target_id: '10' },
  { user_id: '2', target_id: '1' },
  { user_id: '3', target_id: '10' },
  { user_id: '1', target_id: '9' },
];

/** Text ids that sort differently as text ("10" < "9") and as numbers. */
export const tags: Record<string, unknown>[] = [
  { id: 'video', label: 'Video', uses: 3 },
  { id: '9', label: 'Nine', uses: 1 },
  { id: 'audio', label: 'Audio', uses: 3 },
  { id: '10', label: 'Ten', uses: 1 },
];

export async function seed(store: Store): Promise<void> {
  for (const doc of people) await store.insert('people', doc);
  for (const doc of follows) await store.insert('follows', doc);
  for (const doc of tags) await store.insert('tags', doc);
}

/** Opens a fresh store, runs `fn` and always closes it. */
export async function withStore(driver: StoreTestDriver, fn: (store: Store) => Promise<void>): Promise<void> {
  const store = await driver.open(testSchema);
  try {
    await fn(store);
  } finally {
    await store.close();
  }
}

export const ids = (result: FindResult | Doc[]): string[] => (Array.isArray(result) ? result : result.items).map((d) => d.id);

/** Every document of every test collection, in id order: the whole observable state. */
export async function snapshot(store: Store): Promise<Record<string, Doc[]>> {
  const state: Record<string, Doc[]> = {};
  for (const name of Object.keys(testSchema)) state[name] = (await store.find(name)).items;
  return state;
}

export const delay = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** A promise with its resolver, to hold a transaction open while the test does something else. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Asserts that `promise` rejects with a StoreConflictError naming this collection and key. */
export async function assertConflict(promise: Promise<unknown>, collection: string, fields: string[]): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof StoreConflictError, `expected a StoreConflictError, got ${String(error)}`);
    assert.equal(error.collection, collection);
    assert.deepEqual(error.fields, fields);
    return true;
  });
}
