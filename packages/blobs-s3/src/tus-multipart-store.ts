import type { Readable } from 'node:stream';
import { DataStore, Upload } from '@tus/server';
import { discardLost, readMultipart, saveMultipart, tailKey, type BlobStore, type MultipartState, type Service } from '@reelbase/core';
import type { S3BlobStore } from './s3-blob-store';

/** A blob store with multipart uploads of its own (an object store). */
export type MultipartBlobs = BlobStore & Pick<S3BlobStore, 'createMultipart' | 'uploadPart' | 'completeMultipart' | 'abortMultipart'>;

export const isMultipartStore = (blobs: BlobStore): blobs is MultipartBlobs => typeof (blobs as Partial<MultipartBlobs>).createMultipart === 'function';

/** S3's smallest part but the last; every part but the last is this size (R2 wants them equal). */
export const multipartPartSize = 5 * 1024 * 1024;

/** tus's "the offset you sent is not the upload's" answer. */
const offsetConflict = () => ({ status_code: 409, body: 'The upload moved on meanwhile: ask its offset (HEAD) and resume from there.\n' });

/**
 * A tus data store over an S3 multipart upload whose state (upload id, parts, the tail under one
 * part) lives on the upload's record in the database — not in the bucket, whose part listing some
 * S3 servers lack, nor on this server's disk: a PATCH may land on any server of the fleet. Each
 * full part is sent and recorded as it fills, so an interrupted PATCH keeps what was recorded;
 * the bytes after the last part are kept as a tail blob of their own, and the next PATCH (on
 * whichever server) starts its first part with them.
 */
export class MultipartTusStore extends DataStore {
  constructor(
    private readonly service: Service,
    private readonly blobs: MultipartBlobs,
  ) {
    super();
    this.extensions = ['creation', 'expiration'];
  }

  /** Links are made by POST /me/videos; the upload exists as soon as its link does. */
  override async create(upload: Upload): Promise<Upload> {
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const { open, state } = await readMultipart(this.service, id, 'tus');
    return new Upload({ id, size: open.size ?? undefined, offset: state.offset });
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    let { state } = await readMultipart(this.service, id, 'tus');
    if (state.offset !== offset) throw offsetConflict();
    const pending: Buffer[] = [];
    let pendingBytes = 0;
    if (state.tail) {
      pending.push(Buffer.from(await this.blobs.reader(state.tail.key)(0, state.tail.size)));
      pendingBytes = state.tail.size;
    }
    /** Records `next`, or fails the PATCH when another request moved the upload meanwhile. */
    const save = async (next: MultipartState) => {
      if (!(await saveMultipart(this.service, id, state.offset, next))) {
        await discardLost(this.service, id, next, state);
        throw offsetConflict();
      }
      const spent = state.tail;
      state = next;
      if (spent && spent.key !== next.tail?.key) await this.blobs.delete(spent.key).catch(() => undefined);
    };
    const sendPart = async () => {
      const all = Buffer.concat(pending);
      const part = all.subarray(0, multipartPartSize);
      pending.length = 0;
      if (all.length > multipartPartSize) pending.push(all.subarray(multipartPartSize));
      pendingBytes = all.length - multipartPartSize;
      const uploadId = state.uploadId ?? (await this.blobs.createMultipart(state.key));
      const number = state.parts.length + 1;
      const etag = await this.blobs.uploadPart(state.key, uploadId, number, part);
      const parts = [...state.parts, { number, etag, size: part.length }];
      await save({ ...state, uploadId, parts, tail: null, offset: parts.reduce((n, p) => n + p.size, 0) });
    };
    let interrupted: unknown = null;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        while (pendingBytes >= multipartPartSize) await sendPart();
      }
    } catch (e) {
      // The client went away: what arrived is kept, as tus promises. A fault of the store is thrown.
      if ((e as { status_code?: number }).status_code || (e as Error).name === 'BlobUnavailableError') throw e;
      interrupted = e;
    }
    const inParts = state.parts.reduce((n, p) => n + p.size, 0);
    if (inParts + pendingBytes !== state.offset) {
      const tail = pendingBytes ? { key: tailKey(state), size: pendingBytes } : null;
      if (tail) await this.blobs.put(tail.key, pending);
      await save({ ...state, tail, offset: inParts + pendingBytes });
    }
    if (interrupted && !state.offset) throw interrupted;
    return state.offset;
  }

  /** Completes the multipart upload (the tail its last part): the finished blob. */
  async finish(id: string): Promise<{ key: string; size: number }> {
    const { state } = await readMultipart(this.service, id, 'tus');
    let { parts, uploadId } = state;
    if (!uploadId && !state.tail) {
      await this.blobs.put(state.key, []);
      return { key: state.key, size: 0 };
    }
    if (state.tail) {
      const bytes = await this.blobs.reader(state.tail.key)(0, state.tail.size);
      uploadId ??= await this.blobs.createMultipart(state.key);
      const number = parts.length + 1;
      parts = [...parts, { number, etag: await this.blobs.uploadPart(state.key, uploadId, number, bytes), size: bytes.length }];
    }
    await this.blobs.completeMultipart(state.key, uploadId!, parts);
    if (state.tail) await this.blobs.delete(state.tail.key).catch(() => undefined);
    return { key: state.key, size: state.offset };
  }
}
