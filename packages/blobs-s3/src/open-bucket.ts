import { S3Client } from '@aws-sdk/client-s3';
import { parseS3Url, S3BlobStore, s3ClientConfig } from './s3-blob-store';

/**
 * The store of `s3://BUCKET[/PREFIX]`, its client configured from the SDK's standard variables in
 * `env`, with the local copies that dead processes left swept; null when `url` is not such a URL.
 */
export async function openS3BlobStore(url: string, env: NodeJS.ProcessEnv = process.env): Promise<S3BlobStore | null> {
  const parsed = parseS3Url(url);
  if (!parsed) return null;
  const store = new S3BlobStore({ ...parsed, client: new S3Client(s3ClientConfig(env)) });
  await store.sweepCopies();
  return store;
}
