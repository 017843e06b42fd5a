import { ApiError, failUpload, finishUpload, newBlobKey, openUpload, type BlobStore, type MediaTools, type Service } from '@reelbase/core';
import { Outbound } from '@reelbase/worker';
import type { UploadSlots } from './upload-slots';

class PullError extends Error {}

/**
 * A pull upload: fetch the link (http/https only, no loopback or private addresses unless
 * configured, no redirects, a size cap and a timeout) into the blob store, then let core finish
 * the upload. Any failure becomes the upload's error (`uploading_error`), never a crash. It waits
 * for an upload slot first: nobody waits on its answer, so it queues rather than being refused.
 */
export async function runPull(
  service: Service,
  blobs: BlobStore,
  media: MediaTools,
  task: { upload: string; link: string },
  slots: UploadSlots,
  /** Told the size of each file fetched (the upload-bytes metric: no request carries a pull's bytes). */
  fetched?: (bytes: number) => void,
): Promise<void> {
  const key = newBlobKey(task.upload.split(/[.-]/)[0]);
  const release = await slots.take();
  try {
    const open = await openUpload(service, task.upload);
    const outbound = new Outbound({ allowPrivate: service.config.pullAllowPrivate, lookup: service.config.outboundLookup });
    const body = await outbound.request(new URL(task.link), { headers: { 'User-Agent': 'reelbase-pull' }, signal: AbortSignal.timeout(service.config.pullTimeoutMs) }).catch((e: Error) => {
      throw new PullError(`fetching the link failed: ${e.message}`);
    });
    if (body.statusCode !== 200) {
      body.destroy();
      throw new PullError(`the link answered ${body.statusCode}`);
    }
    const cap = open.maxBytes;
    const declared = Number(body.headers['content-length']);
    if (Number.isFinite(declared) && declared > cap) {
      body.destroy();
      throw new PullError(`the file is larger than ${cap} bytes`);
    }
    async function* capped(): AsyncIterable<Uint8Array> {
      let seen = 0;
      for await (const chunk of body as AsyncIterable<Uint8Array>) {
        seen += chunk.length;
        if (seen > cap) throw new PullError(`the file is larger than ${cap} bytes`);
        yield chunk;
      }
    }
    const info = await blobs.put(key, capped()).catch((e: Error) => {
      body.destroy();
      throw e instanceof PullError ? e : new PullError(`fetching the link failed: ${e.message}`);
    });
    fetched?.(info.size);
    await finishUpload(service, task.upload, info, { blobs, media });
  } catch (e) {
    await blobs.delete(key).catch(() => undefined);
    const reason = e instanceof PullError || e instanceof ApiError ? e.message : 'the upload failed';
    await failUpload(service, task.upload, reason).catch(() => undefined);
  } finally {
    release();
  }
}
