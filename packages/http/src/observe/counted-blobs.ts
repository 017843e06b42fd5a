import type { BlobStore } from '@reelbase/core';
import type { Counter } from 'prom-client';

/** The blob store calls counted by outcome: the ones that reach the bucket or the disk and can fail. */
const counted = new Set(['stat', 'put', 'move', 'delete', 'deleteTree', 'materialise', 'putTree', 'presign']);

/**
 * `blobs` with each call of a counted method adding one to `counter{op, outcome}` when it settles
 * (`outcome` ok or error); everything else, multipart methods included, passes through.
 */
export function countedBlobs(blobs: BlobStore, counter: Counter<'op' | 'outcome'>): BlobStore {
  return new Proxy(blobs, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof name !== 'string' || !counted.has(name) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (result instanceof Promise) result.then(() => counter.inc({ op: name, outcome: 'ok' }), () => counter.inc({ op: name, outcome: 'error' }));
        return result;
      };
    },
  });
}
