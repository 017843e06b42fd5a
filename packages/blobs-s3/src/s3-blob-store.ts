import { createReadStream, createWriteStream } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { freshDir, removeDir } from '@reelbase/blobs-fs';
import { BlobUnavailableError, type MultipartPart, type BlobBytes, type BlobInfo, type BlobStore, type ByteRange, type LocalCopy, type ReadAt } from '@reelbase/core';

/** A bucket and the key prefix inside it, from `s3://BUCKET[/PREFIX]`; null for anything else. */
export function parseS3Url(url: string): { bucket: string; prefix: string } | null {
  const m = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url);
  if (!m) return null;
  const prefix = (m[2] ?? '').replace(/\/+$/, '');
  return { bucket: m[1], prefix: prefix ? `${prefix}/` : '' };
}

/** Parts of a streamed upload, and how many are in flight at once: memory is their product. */
const partSize = 8 * 1024 * 1024;
const queueSize = 4;
/** Calls that touch many objects (a tree's files) run this many at once. */
const fanOut = 8;

/**
 * The S3 client settings every reelbase process uses: the SDK's own chain for credentials, region
 * and endpoint (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL), path-style addressing on request, and
 * bounded time and retries on every call so that an unreachable bucket answers 503, never a hang.
 * Checksums are sent only where the protocol requires them: the S3-compatible servers (R2, B2,
 * MinIO, s3rver) do not all accept the SDK's newer default trailers.
 */
export function s3ClientConfig(env: NodeJS.ProcessEnv = process.env): S3ClientConfig {
  return {
    forcePathStyle: env.REELBASE_S3_FORCE_PATH_STYLE === '1',
    maxAttempts: 3,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  };
}

const statusOf = (e: unknown): number | undefined => (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const isMissing = (e: unknown): boolean => statusOf(e) === 404 || ['NoSuchKey', 'NotFound'].includes((e as Error).name);

/** A store fault as the service's 503; "no such key" stays what it is. */
function unavailable(e: unknown, what: string): Error {
  if (isMissing(e) || e instanceof BlobUnavailableError) return e as Error;
  return new BlobUnavailableError(`The blob store could not ${what}: ${(e as Error).message ?? e}`, { cause: e });
}

export interface S3BlobStoreOptions {
  bucket: string;
  /** Prepended to every key: '' or ending in '/'. */
  prefix?: string;
  client?: S3Client;
  /** Where local copies for tools are made; default the system's temporary directory. */
  tmpDir?: string;
}

/**
 * Blobs as objects in an S3 bucket (AWS, R2, B2, MinIO, Ceph…), over the AWS SDK v3. An object is
 * visible only once written whole (a PUT, or a completed multipart upload); tools get local copies
 * in a temporary directory that is removed when they are done.
 */
export class S3BlobStore implements BlobStore {
  readonly bucket: string;
  readonly prefix: string;
  readonly client: S3Client;
  readonly #tmpDir: string;
  /**
   * What the names of this store's job directories in the shared temporary directory start with
   * after `reelbase-work-`/`reelbase-copy-`: a digest of the bucket and prefix, so that the
   * start-up sweep of one store never takes another's (job ids repeat across databases).
   */
  readonly #tag: string;

  constructor(o: S3BlobStoreOptions) {
    this.bucket = o.bucket;
    this.prefix = o.prefix ?? '';
    this.client = o.client ?? new S3Client(s3ClientConfig());
    this.#tmpDir = o.tmpDir ?? tmpdir();
    this.#tag = createHash('sha256').update(`${this.bucket}/${this.prefix}`).digest('hex').slice(0, 8);
  }

  static fromUrl(url: string, client?: S3Client): S3BlobStore {
    const parsed = parseS3Url(url);
    if (!parsed) throw new Error(`not an s3:// URL: ${url}`);
    return new S3BlobStore({ ...parsed, client });
  }

  get description(): string {
    return `s3://${this.bucket}/${this.prefix}`;
  }

  /** The object key of a blob key. */
  objectKey(key: string): string {
    if (!/^[\w-]+(\.[\w-]+)*(\/[\w-]+(\.[\w-]+)*)*$/.test(key)) throw new Error(`invalid blob key ${JSON.stringify(key)}`);
    return this.prefix + key;
  }

  async #send<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (e) {
      throw unavailable(e, what);
    }
  }

  async put(key: string, data: BlobBytes): Promise<BlobInfo> {
    const Key = this.objectKey(key);
    const source = data instanceof Readable ? data : Readable.from(data);
    let size = 0;
    const body = Readable.from(
      (async function* () {
        for await (const chunk of source as AsyncIterable<Uint8Array>) {
          size += chunk.length;
          yield chunk;
        }
      })(),
      { objectMode: false },
    );
    // lib-storage sends one PUT for a small body, a multipart upload for a large one; either is
    // visible only when whole, and a failed multipart upload is aborted.
    const upload = new Upload({ client: this.client, params: { Bucket: this.bucket, Key, Body: body }, partSize, queueSize, leavePartsOnError: false });
    try {
      await upload.done();
    } catch (e) {
      body.destroy();
      if (source.errored) throw source.errored;
      throw unavailable(e, `store ${key}`);
    }
    return { key, size, modified: new Date() };
  }

  get(key: string, range?: ByteRange): Readable {
    const params = { Bucket: this.bucket, Key: this.objectKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) };
    const send = (signal: AbortSignal) => this.#send(`read ${key}`, () => this.client.send(new GetObjectCommand(params), { abortSignal: signal }));
    const abort = new AbortController();
    const out = Readable.from(
      (async function* () {
        const res = await send(abort.signal);
        yield* res.Body as Readable;
      })(),
      { objectMode: false },
    );
    out.once('close', () => abort.abort());
    return out;
  }

  async stat(key: string): Promise<BlobInfo | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { key, size: head.ContentLength ?? 0, ...(head.LastModified ? { modified: head.LastModified } : {}) };
    } catch (e) {
      if (isMissing(e)) return null;
      throw unavailable(e, `read ${key}`);
    }
  }

  reader(key: string): ReadAt {
    return async (offset, length) => {
      if (length <= 0) return new Uint8Array(0);
      try {
        const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Range: `bytes=${offset}-${offset + length - 1}` }));
        return await res.Body!.transformToByteArray();
      } catch (e) {
        // Past the end: no bytes, as a file read answers.
        if (statusOf(e) === 416) return new Uint8Array(0);
        throw unavailable(e, `read ${key}`);
      }
    };
  }

  async move(from: string, to: string): Promise<BlobInfo> {
    const source = `${this.bucket}/${this.objectKey(from).split('/').map(encodeURIComponent).join('/')}`;
    await this.#send(`copy ${from}`, () => this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: this.objectKey(to), CopySource: source })));
    await this.delete(from);
    const info = await this.stat(to);
    if (!info) throw new BlobUnavailableError(`The blob store lost ${to} right after copying it.`);
    return info;
  }

  async delete(key: string): Promise<void> {
    // S3 answers 204 for a missing key too.
    await this.#send(`delete ${key}`, () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) })));
  }

  /** One DELETE per object, a few at once: multi-object DELETE wants checksums not every provider takes. */
  async deleteTree(prefix: string): Promise<void> {
    const keys = [prefix];
    for await (const blob of this.list(`${prefix}/`)) keys.push(blob.key);
    await inBatches(keys, (key) => this.delete(key));
  }

  async *list(prefix: string): AsyncIterable<BlobInfo> {
    let token: string | undefined;
    do {
      const page = await this.#send('list objects', () =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken: token })),
      );
      for (const o of page.Contents ?? []) {
        if (!o.Key) continue;
        yield { key: o.Key.slice(this.prefix.length), size: o.Size ?? 0, ...(o.LastModified ? { modified: o.LastModified } : {}) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /**
   * Downloaded into a directory of its own, removed on release and when the download fails. A
   * job's copy is named for the job (emptied first: a killed attempt's goes when it is retried);
   * any other is named for this process, so `sweepCopies` finds it once the process is gone.
   */
  async materialise(key: string, name?: string): Promise<LocalCopy> {
    const copy = await freshDir(this.#tmpDir, name ? this.#local('copy', name) : `reelbase-copy-p${process.pid}-${randomBytes(12).toString('hex')}`);
    try {
      const path = join(copy.path, 'input');
      await pipeline(this.get(key), createWriteStream(path));
      return { path, release: copy.release };
    } catch (e) {
      await copy.release();
      throw e;
    }
  }

  /**
   * Removes the local copies processes that died (SIGKILL) left in the temporary directory: those
   * named for a process no longer running. (A job's copies go when the job is retried.)
   */
  async sweepCopies(): Promise<void> {
    const entries = await readdir(this.#tmpDir).catch(() => []);
    for (const entry of entries) {
      const pid = Number(/^reelbase-copy-p(\d+)-/.exec(entry)?.[1]);
      if (pid && !running(pid)) await rm(join(this.#tmpDir, entry), { recursive: true, force: true });
    }
  }

  /** In the machine's temporary directory: a killed attempt's outputs go when the job is retried here, or at the start-up sweep. */
  scratch(name: string): Promise<LocalCopy> {
    return freshDir(this.#tmpDir, this.#local('work', name));
  }

  #local(kind: 'work' | 'copy', name: string): string {
    return `reelbase-${kind}-${this.#tag}-${name}`;
  }

  async scratchNames(): Promise<string[]> {
    const ours = new RegExp(`^reelbase-(?:work|copy)-${this.#tag}-(.+)$`);
    const names = (await readdir(this.#tmpDir).catch(() => [])).map((entry) => ours.exec(entry)?.[1]).filter((name) => name !== undefined);
    return [...new Set(names)];
  }

  async dropScratch(name: string): Promise<void> {
    await Promise.all([removeDir(join(this.#tmpDir, this.#local('work', name))), removeDir(join(this.#tmpDir, this.#local('copy', name)))]);
  }

  async putTree(prefix: string, dir: string): Promise<void> {
    await this.deleteTree(prefix);
    const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
    await inBatches(files, (file) => this.put(`${prefix}/${relative(dir, file).split(sep).join('/')}`, createReadStream(file)));
    await rm(dir, { recursive: true, force: true });
  }

  /** Starts a multipart upload of `key`: its id. Nothing is visible until it is completed. */
  async createMultipart(key: string): Promise<string> {
    const res = await this.#send(`start an upload of ${key}`, () => this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.objectKey(key) })));
    return res.UploadId!;
  }

  /** Sends part `number` (from 1) of a multipart upload: its ETag. */
  async uploadPart(key: string, uploadId: string, number: number, body: Uint8Array): Promise<string> {
    const res = await this.#send(`store part ${number} of ${key}`, () =>
      this.client.send(new UploadPartCommand({ Bucket: this.bucket, Key: this.objectKey(key), UploadId: uploadId, PartNumber: number, Body: body })),
    );
    return res.ETag!;
  }

  /** Makes `key` from the parts given (in order): visible whole from now on. */
  async completeMultipart(key: string, uploadId: string, parts: MultipartPart[]): Promise<void> {
    await this.#send(`complete ${key}`, () =>
      this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.number, ETag: p.etag })) },
        }),
      ),
    );
  }

  /** Drops a multipart upload's parts; one already completed or aborted (NoSuchUpload) is not an error. */
  async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.#send(`abort the upload of ${key}`, () => this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.objectKey(key), UploadId: uploadId })));
    } catch (e) {
      if (!isMissing(e) && (e as Error).name !== 'NoSuchUpload') throw e;
    }
  }

  presign(key: string, o: { seconds: number; type: string; downloadName?: string }): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.objectKey(key),
      ResponseContentType: o.type,
      ...(o.downloadName ? { ResponseContentDisposition: `attachment; filename="${o.downloadName.replace(/"/g, '')}"` } : {}),
    });
    return getSignedUrl(this.client, command, { expiresIn: o.seconds });
  }
}

/** Whether a process of this pid runs (one of another user counts as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `work` on every item, `fanOut` at once; the first failure rejects once the rest settled. */
async function inBatches<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++];
      await work(item).catch((e: unknown) => errors.push(e));
    }
  };
  await Promise.all(Array.from({ length: Math.min(fanOut, items.length) }, lane));
  if (errors.length) throw errors[0];
}
