import { blobStoreTests } from './conformance';
import type { BlobStoreTestDriver } from './driver';

export type { BlobStoreTestDriver } from './driver';
export { bytes as testBytes } from './conformance';

/**
 * Registers the BlobStore conformance suite (node:test `describe`/`it`) for one driver. Call it at
 * the top level of the driver's test file, as the record stores call store-testkit's `testStore`:
 *
 *   testBlobStore({ name: 'filesystem', open: async () => ({ blobs: new FsBlobStore(root), leftovers: () => [] }), close });
 */
export function testBlobStore(driver: BlobStoreTestDriver): void {
  blobStoreTests(driver);
}
