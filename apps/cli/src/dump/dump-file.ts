import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Where `export` writes: chunks in order, then commit (or abort on failure). */
export interface DumpOutput {
  write(text: string): Promise<void> | void;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * A dump file written under a temporary name in the same directory (created when missing) and
 * renamed over `path` only once complete and synced, so a failed export never leaves a dump that
 * looks whole.
 */
export async function createDumpFile(path: string): Promise<DumpOutput> {
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const file = await open(temp, 'wx');
  let closed = false;
  const close = async () => {
    if (!closed) await file.close();
    closed = true;
  };
  return {
    async write(text) {
      await file.write(text);
    },
    async commit() {
      await file.sync();
      await close();
      await rename(temp, path);
    },
    async abort() {
      await close();
      await rm(temp, { force: true });
    },
  };
}

/** Standard output: nothing to commit; a failed export leaves a partial dump that `import` refuses. */
export const stdoutOutput = (write: (text: string) => void): DumpOutput => ({ write, commit: async () => {}, abort: async () => {} });
