export { createRequestListener, type ListenerOptions } from './request-listener';
export { serve, closeOnSignals, type ServeOptions, type RunningServer } from './server';
export type { CorsOrigins } from './cors';
export * from './client/index';
export { FsBlobStore } from './fs-blob-store';
export { S3BlobStore, parseS3Url, s3ClientConfig, type S3BlobStoreOptions } from './s3-blob-store';
export { openBlobStore } from './blob-stores';
export { startWorker, transcodeConcurrency, type WorkerStartOptions } from './worker';
