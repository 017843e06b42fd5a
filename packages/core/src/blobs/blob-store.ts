import type { Readable } from 'node:stream';

/** What the store knows of one blob. */
export interface BlobInfo {
  key: string;
  size: number;
}

/** An inclusive byte range, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where video files live. A file is written under a temporary name and moved into place only when
 * complete, so a crash never leaves a half file that looks whole. The filesystem implementation is
 * in @reelbase/http; an object store can replace it behind this interface.
 */
export interface BlobStore {
  /** Writes the stream to a temporary name, then renames it to `key`. Rejects (and leaves nothing) when the stream fails. */
  put(key: string, data: Readable | AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<BlobInfo>;
  /** The bytes of `key`, all or one inclusive range. */
  get(key: string, range?: ByteRange): Readable;
  /** Null when there is no such blob. */
  stat(key: string): Promise<BlobInfo | null>;
  /** Deleting a missing blob is not an error. */
  delete(key: string): Promise<void>;
}

/** Random access to the first bytes of a file, for probing: answers at most `length` bytes at `offset`. */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array>;

/** What a transport lends core for one request: enough to check, probe, move, write and remove files. */
export interface BlobAccess {
  stat(key: string): Promise<BlobInfo | null>;
  reader(key: string): ReadAt;
  /** Renames `from` to `to` (both inside the store). */
  move(from: string, to: string): Promise<BlobInfo>;
  /** Writes `key` whole (temporary name, then rename), as BlobStore.put. */
  put(key: string, data: Readable | AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<BlobInfo>;
  delete(key: string): Promise<void>;
  /** Removes every blob under `prefix/` (an owner's media when the owner goes); a missing prefix is not an error. */
  deleteTree(prefix: string): Promise<void>;
  /** A local file path of `key`, for tools that read files (ffmpeg). */
  localPath(key: string): string;
}
