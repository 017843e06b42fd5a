import type { BlobStore } from '@reelbase/core';
import { FsBlobStore } from './fs-blob-store';

/**
 * The blob store a process uses: `where` (a `--blobs` value), else REELBASE_BLOBS, else the files
 * directory. `s3://BUCKET[/PREFIX]` is a bucket (the AWS SDK is loaded then only); anything else
 * is a directory.
 */
export async function openBlobStore(where: string | undefined, filesDir: string, env: NodeJS.ProcessEnv = process.env): Promise<BlobStore> {
  const chosen = where ?? env.REELBASE_BLOBS;
  if (chosen?.startsWith('s3:')) {
    const [{ S3Client }, { S3BlobStore, parseS3Url, s3ClientConfig }] = await Promise.all([import('@aws-sdk/client-s3'), import('./s3-blob-store')]);
    const parsed = parseS3Url(chosen);
    if (!parsed) throw new Error(`--blobs: expected s3://BUCKET[/PREFIX], got ${chosen}`);
    const store = new S3BlobStore({ ...parsed, client: new S3Client(s3ClientConfig(env)) });
    await store.sweepCopies();
    return store;
  }
  return new FsBlobStore(chosen || filesDir);
}
