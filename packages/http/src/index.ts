export { createRequestListener, type ListenerOptions } from './request-listener';
export { serve, closeOnSignals, drainSecondsFrom, type ServeOptions, type RunningServer } from './server';
export * from './observe/index';
export type { CorsOrigins } from './cors';
export { parseAllowedHosts } from './allowed-hosts';
// Kept for programs that import them from here: the filesystem blob store, the worker and the
// client are packages of their own now (@reelbase/blobs-fs, @reelbase/worker, @reelbase/client).
export { FsBlobStore } from '@reelbase/blobs-fs';
export { startWorker, transcodeConcurrency, type WorkerStartOptions } from '@reelbase/worker';
// The typed client (@reelbase/client), its `createClient` given core's operation table as before.
export * from '@reelbase/client';
export { createClient } from './core-client';
