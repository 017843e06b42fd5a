import type { BlobStore } from '@reelbase/core';

/** A blob store under test, as its package's test file describes it to `testBlobStore`. */
export interface BlobStoreTestDriver {
  /** Names the suite: `filesystem`, `s3 (s3rver)`. */
  name: string;
  /**
   * Opens the store once, before the suite, with `leftovers`: the store's own temporary files
   * (a failed or raced write must leave none); `() => []` for a store that keeps none.
   */
  open(): Promise<{ blobs: BlobStore; leftovers: () => string[] }>;
  /** After the suite: checks what the store must not have touched, and removes everything. */
  close(): Promise<void>;
  /** Where a store that lends tools the blob's own file keeps `key` (the filesystem store); others make copies. */
  ownFile?(key: string): string;
}
