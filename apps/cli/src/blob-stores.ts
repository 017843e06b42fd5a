import type { BlobStore } from '@reelbase/core';
import { FsBlobStore } from '@reelbase/blobs-fs';

/**
 * The blob store a process uses: `where` (a `--blobs` value), else REELBASE_BLOBS, else the files
 * directory. `s3://BUCKET[/PREFIX]` is a bucket (the AWS SDK is loaded then only); anything else
 * is a directory. Chosen here, beside the record store (store-spec.ts): the drivers are packages of
 * their own, and @reelbase/blobs-s3 is loaded only by a process that names a bucket.
 */
export async function openBlobStore(where: string | undefined, filesDir: string, env: NodeJS.ProcessEnv = process.env): Promise<BlobStore> {
  const chosen = where ?? env.REELBASE_BLOBS;
  if (chosen?.startsWith('s3:')) {
    const { openS3BlobStore } = await import('@reelbase/blobs-s3');
    const store = await openS3BlobStore(chosen, env);
    if (!store) throw new Error(`--blobs: expected s3://BUCKET[/PREFIX], got ${chosen}`);
    return store;
  }
  return new FsBlobStore(chosen || filesDir);
}
