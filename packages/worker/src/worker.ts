import { abortUploadHandler, abortUploadKind, createWorker, deleteHandler, deleteKind, repackageHandler, repackageKind, rollupHandler, rollupKind, sweepScratch, transcodeHandler, transcodeKind, webhookKind, type BlobStore, type JobObserver, type MediaTools, type Service, type Worker } from '@reelbase/core';
import { webhookHandler } from './webhook-delivery';
import { createMediaTools } from '@reelbase/media';
import { FsBlobStore, tusFileRemover } from '@reelbase/blobs-fs';
import { isMultipartStore } from '@reelbase/blobs-s3/tus';

export interface WorkerStartOptions {
  /** The files directory the API servers use (shared by every worker of a fleet): the blob store when `blobs` is not given, and where a filesystem store's tus uploads gather. */
  filesDir?: string;
  /** Where video files live (a bucket shared by the fleet); default the filesystem under `filesDir`. */
  blobs?: BlobStore;
  media?: MediaTools;
  /** Jobs at once; default REELBASE_TRANSCODE_CONCURRENCY, else 1. */
  concurrency?: number;
  /** False: made but not started (tests run it with `drain`). */
  start?: boolean;
  leaseSeconds?: number;
  idleMs?: number;
  /** Told as each job attempt starts and ends (log lines, metrics). */
  observer?: JobObserver;
}

/** Jobs at once from the environment: REELBASE_TRANSCODE_CONCURRENCY, default 1 (a transcode keeps a core busy). */
export const transcodeConcurrency = (env: NodeJS.ProcessEnv = process.env): number => {
  const n = Number(env.REELBASE_TRANSCODE_CONCURRENCY ?? 1);
  return Number.isInteger(n) && n >= 1 ? n : 1;
};

/**
 * A worker over the service's store and the files directory: it runs transcodes (and the other
 * job kinds), woken at once by work this process queues and polling for work queued elsewhere.
 */
export function startWorker(service: Service, o: WorkerStartOptions = {}): Worker {
  const blobs = o.blobs ?? new FsBlobStore(o.filesDir ?? 'files');
  const media = o.media ?? createMediaTools();
  const worker = createWorker({
    store: service.store,
    now: service.now,
    concurrency: o.concurrency ?? transcodeConcurrency(),
    leaseSeconds: o.leaseSeconds,
    idleMs: o.idleMs,
    retention: service.config.jobRetention,
    ...(o.observer ? { observer: o.observer } : {}),
    handlers: {
      [transcodeKind]: transcodeHandler({ store: service.store, blobs, media, now: service.now }),
      [repackageKind]: repackageHandler({ store: service.store, blobs, media, now: service.now }),
      [webhookKind]: webhookHandler(service),
      [deleteKind]: deleteHandler({ store: service.store, blobs, now: service.now }),
      [rollupKind]: rollupHandler({ store: service.store, now: service.now }),
      [abortUploadKind]: abortUploadHandler({ store: service.store, blobs, now: service.now, discardBytes: isMultipartStore(blobs) ? undefined : tusFileRemover(o.filesDir) }),
    },
    // One video's events reach each receiver in the order they happened.
    ordered: [webhookKind],
  });
  const unsubscribe = service.jobs.subscribe(() => worker.wake());
  if (o.start !== false) {
    // The start-up sweep: what attempts killed with their process left in local directories.
    sweepScratch(service.store, blobs).catch((e: unknown) => console.error('reelbase worker: the start-up sweep failed:', e));
    worker.start();
  }
  return {
    ...worker,
    async stop() {
      unsubscribe();
      await worker.stop();
    },
  };
}
