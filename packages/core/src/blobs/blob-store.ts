import type { Readable } from 'node:stream';

/** What the store knows of one blob. */
export interface BlobInfo {
  key: string;
  size: number;
  /** When the blob was written, where the store knows it. */
  modified?: Date;
}

/** An inclusive byte range, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export type BlobBytes = Readable | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** A local file or directory lent to a tool (ffmpeg) for a while; `release` removes whatever was made for it. */
export interface LocalCopy {
  path: string;
  release(): Promise<void>;
}

/** Random access to the first bytes of a file, for probing: answers at most `length` bytes at `offset`. */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array>;

/**
 * The blob store could not be reached or answered with a fault of its own (not "no such blob"):
 * the request may succeed later. The service answers 503 with Retry-After.
 */
export class BlobUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BlobUnavailableError';
  }
}

/**
 * What a transport lends core: enough to check, probe, write, move and remove files. A blob becomes
 * visible under its key only when whole (a crash never leaves a half file that looks complete),
 * and tools that read or write files are lent local copies instead of paths into the store, so
 * the store may live on another machine.
 */
export interface BlobAccess {
  /** Null when there is no such blob. */
  stat(key: string): Promise<BlobInfo | null>;
  reader(key: string): ReadAt;
  /** Writes the stream whole under `key`; rejects (and leaves nothing) when the stream fails. */
  put(key: string, data: BlobBytes): Promise<BlobInfo>;
  /** Moves `from` to `to` (both inside the store). */
  move(from: string, to: string): Promise<BlobInfo>;
  /** Deleting a missing blob is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every blob under `prefix/` (and `prefix` itself); a missing prefix is not an error. */
  deleteTree(prefix: string): Promise<void>;
  /**
   * A local file holding the bytes of `key`, for a tool that reads files; released when the tool
   * is done. A job names its copy (`name`: [\w-], as `scratch`), so what a killed attempt left
   * is found and removed as its scratch directory is.
   */
  materialise(key: string, name?: string): Promise<LocalCopy>;
  /**
   * An empty local directory for a tool to write into, later stored whole with `putTree`. It is
   * named for `name` (a job's attempt, attemptScratch: [\w-]), so what a killed attempt left there
   * is found (`scratchNames`) and removed when the next starts or by the start-up sweep.
   */
  scratch(name: string): Promise<LocalCopy>;
  /** The names of the scratch directories and job-named copies (`materialise`) present here. */
  scratchNames(): Promise<string[]>;
  /** Removes the scratch directory or job copy named `name`, retrying while a dying tool's last writes land (ENOTEMPTY, EBUSY). */
  dropScratch(name: string): Promise<void>;
  /** Stores every file under the local directory `dir` below `prefix/` (the directory is consumed). */
  putTree(prefix: string, dir: string): Promise<void>;
  /** Drops an unfinished multipart upload of `key` (object stores only); one already gone is not an error. */
  abortMultipart?(key: string, uploadId: string): Promise<void>;
}

/** Where video files live: core's access plus what the transport itself needs to serve and administer them. */
export interface BlobStore extends BlobAccess {
  /** Which store this is, for people: `directory /srv/files`, `s3://bucket/prefix`. */
  readonly description: string;
  /** The bytes of `key`, all or one inclusive range. A fault of the store fails the stream with BlobUnavailableError. */
  get(key: string, range?: ByteRange): Readable;
  /** Every blob whose key starts with `prefix` (all of them for ''), in no particular order. */
  list(prefix: string): AsyncIterable<BlobInfo>;
  /**
   * A short-lived URL that answers the blob's bytes without the server (an object store's
   * presigned GET), or undefined when the store has none.
   */
  presign?(key: string, o: { seconds: number; type: string; downloadName?: string }): Promise<string>;
}
