import type { BlobStore } from '@reelbase/core';
import { FsBlobStore } from './fs-blob-store';
import { S3Client } from '@aws-sdk/client-s3';
import { S3BlobStore, parseS3Url, s3ClientConfig } from './s3-blob-store';

/**
 * The blob store a process uses: `where` (a `--blobs` value), else REELBASE_BLOBS, else the files
 * directory. `s3://BUCKET[/PREFIX]` is a bucket; anything else is a directory.
 */
export function openBlobStore(where: string | undefined, filesDir: string, env: NodeJS.ProcessEnv = process.env): BlobStore {
  const chosen = where ?? env.REELBASE_BLOBS;
  if (chosen?.startsWith('s3:')) {
    const parsed = parseS3Url(chosen);
    if (!parsed) throw new Error(`--blobs: expected s3://BUCKET[/PREFIX], got ${chosen}`);
    return new S3BlobStore({ ...parsed, client: new S3Client(s3ClientConfig(env)) });
  }
  return new FsBlobStore(chosen || filesDir);
}
