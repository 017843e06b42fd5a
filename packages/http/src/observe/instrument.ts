import type { BlobStore, Service } from '@reelbase/core';
import { countedBlobs } from './counted-blobs';
import { Health } from './health';
import { createMetrics, timeTransactions, type Metrics } from './metrics';

export interface Instrumented {
  /** The blob store to use from now on: counted when metrics are on. */
  blobs: BlobStore;
  health: Health;
  metrics?: Metrics;
}

/** What a serving or working process observes itself with: readiness over its store and blobs, and metrics when asked for. */
export async function instrument(service: Service, blobs: BlobStore, withMetrics: boolean): Promise<Instrumented> {
  if (!withMetrics) return { blobs, health: new Health(service.store, blobs) };
  const metrics = await createMetrics(service.store, service.now);
  timeTransactions(service.store, metrics.transactionSeconds);
  const counted = countedBlobs(blobs, metrics.blobOperations);
  return { blobs: counted, health: new Health(service.store, counted), metrics };
}
