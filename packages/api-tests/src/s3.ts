import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type S3rver from 's3rver';
import type { S3rverStore } from 's3rver';
import type { S3BlobStore } from '@reelbase/blobs-s3';

/**
 * s3rver and the S3 SDK, loaded by the first `start`: every API test file imports this package,
 * and loading them took a second or two of each file's start while few files use a bucket.
 */
const load = async () => {
  const [{ default: S3rverClass }, { S3Client: Client }, { S3BlobStore: Store, s3ClientConfig }] = await Promise.all([
    import('s3rver'),
    import('@aws-sdk/client-s3'),
    import('@reelbase/blobs-s3'),
  ]);
  return { S3rverClass, Client, Store, s3ClientConfig };
};
let loaded: Awaited<ReturnType<typeof load>> | undefined;
const modules = () => {
  if (!loaded) throw new Error('TestS3: start() the server first');
  return loaded;
};

/** The credentials s3rver accepts. */
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * An S3-protocol server (s3rver, in-process) on a loopback port with one empty bucket, and what a
 * reelbase process needs to reach it: a client, a store, and the environment for a child process.
 * `stop` and `start` take it down and bring it back on the same port with the same objects.
 */
export class TestS3 {
  readonly bucket = 'reelbase';
  readonly dir = mkdtempSync(join(tmpdir(), 'reelbase-s3-'));
  port = 0;
  #server: S3rver | undefined;

  async start(): Promise<this> {
    loaded ??= await load();
    this.#server = new loaded.S3rverClass({ address: '127.0.0.1', port: this.port, silent: true, directory: this.dir, configureBuckets: [{ name: this.bucket }] });
    putWhole(this.#server.store, `${this.dir}-incoming`);
    this.port = (await this.#server.run()).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    // Open keep-alive sockets would hold close() until they time out.
    server.httpServer.closeAllConnections?.();
    await server.close();
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
    rmSync(`${this.dir}-incoming`, { recursive: true, force: true });
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The environment that points a reelbase process (the SDK's standard variables) at this server. */
  env(prefix = ''): Record<string, string> {
    return {
      AWS_ENDPOINT_URL_S3: this.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      REELBASE_S3_FORCE_PATH_STYLE: '1',
      REELBASE_BLOBS: `s3://${this.bucket}${prefix ? `/${prefix}` : ''}`,
    };
  }

  client(): S3Client {
    const { Client, s3ClientConfig } = modules();
    return new Client({ ...s3ClientConfig({ REELBASE_S3_FORCE_PATH_STYLE: '1' }), endpoint: this.endpoint, region: 'us-east-1', credentials });
  }

  /** A store on the bucket under `prefix`, making tools' local copies in `tmpDir` (default the system's). */
  store(prefix = '', tmpDir?: string): S3BlobStore {
    return new (modules().Store)({ bucket: this.bucket, prefix: prefix ? `${prefix}/` : '', client: this.client(), tmpDir });
  }

  /** Every object key in the bucket. */
  async keys(prefix = ''): Promise<string[]> {
    const store = new (modules().Store)({ bucket: this.bucket, client: this.client() });
    const keys: string[] = [];
    for await (const blob of store.list(prefix)) keys.push(blob.key);
    return keys.sort();
  }
}

/**
 * s3rver writes an object in place as its bytes arrive (and answers before they are flushed), so
 * two PUTs of one key interleave and a read can see a torn object, where every S3 provider makes a
 * PUT visible whole. The fixture gives s3rver a provider's semantics: the bytes go to a file of
 * their own, which replaces the object in one rename, with its checksum, one writer at a time.
 */
function putWhole(store: S3rverStore, incoming: string): void {
  mkdirSync(incoming, { recursive: true });
  const turns = new Map<string, Promise<unknown>>();
  store.putObject = async function (object) {
    const temp = join(incoming, randomUUID());
    const md5 = createHash('md5');
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        md5.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content, count, createWriteStream(temp));
    const digest = md5.digest('hex');
    const path = this.getResourcePath(object.bucket, object.key, 'object');
    const key = `${object.bucket}/${object.key}`;
    const turn = (turns.get(key) ?? Promise.resolve()).then(async () => {
      await mkdir(dirname(path), { recursive: true });
      await rename(temp, path);
      await this.putMetadata(object.bucket, object.key, object.metadata, digest);
    });
    turns.set(key, turn.catch(() => undefined));
    await turn;
    return { size, md5: digest };
  };
}
