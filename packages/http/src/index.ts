export { createRequestListener, type ListenerOptions } from './request-listener';
export { serve, closeOnSignals, drainSecondsFrom, type ServeOptions, type RunningServer } from './server';
export * from './observe/index';
export type { CorsOrigins } from './cors';
export * from './client/index';
export { FsBlobStore } from './fs-blob-store';
export { openBlobStore } from './blob-stores';
export { startWorker, transcodeConcurrency, type WorkerStartOptions } from './worker';
export { parseAllowedHosts } from './allowed-hosts';
