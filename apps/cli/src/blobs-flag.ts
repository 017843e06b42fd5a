import { resolve } from 'node:path';
import type { BlobStore } from '@reelbase/core';
import { openBlobStore } from './blob-stores';
import { cwdOf, envOf, fromEnv } from './context';
import type { CliIo } from './io';

/**
 * The blob store `--blobs` (or REELBASE_BLOBS) names, a directory read against the command's own
 * working directory as every other path flag is; the files directory when neither is given.
 */
export function openBlobsOf(io: CliIo, flag: string | undefined, filesDir: string): Promise<BlobStore> {
  const env = envOf(io);
  const chosen = flag ?? fromEnv(env, 'REELBASE_BLOBS');
  return openBlobStore(chosen && !chosen.startsWith('s3:') ? resolve(cwdOf(io), chosen) : chosen, filesDir, env);
}
