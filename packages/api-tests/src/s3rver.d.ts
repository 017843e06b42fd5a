// s3rver ships no types; this is the part of its API the tests use.
declare module 's3rver' {
  import type { Server } from 'node:http';
  import type { AddressInfo } from 'node:net';
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string }[];
  }
  /** s3rver's filesystem store: the calls the test fixture replaces or uses. */
  export interface S3rverStore {
    putObject(this: S3rverStore, object: { bucket: string; key: string; content: Buffer | NodeJS.ReadableStream; metadata: Record<string, string> }): Promise<{ size: number; md5: string }>;
    getResourcePath(bucket: string, key: string, resource: string): string;
    putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5?: string): Promise<void>;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    httpServer: Server;
    store: S3rverStore;
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
