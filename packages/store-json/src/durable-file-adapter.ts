import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

/**
 * A lowdb adapter that stores JSON crash-safely: lowdb's own file adapter neither fsyncs the file
 * nor its directory, so a power loss can leave an empty or stale file. Here a write goes to a temp
 * file in the same directory, which is fsynced, renamed over the target (atomic on POSIX) and
 * followed by an fsync of the directory so the rename itself is durable.
 *
 * `write` serialises `data` before it returns (before its first await): the file holds the data as
 * it was at the call, whatever changes while the bytes go to disk (the store's group commit
 * relies on it).
 */
export class DurableFileAdapter<T> implements Adapter<T> {
  constructor(readonly path: string) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return JSON.parse(text) as T;
  }

  write(data: T): Promise<void> {
    return this.#writeText(JSON.stringify(data));
  }

  async #writeText(text: string): Promise<void> {
    const dir = dirname(this.path);
    const temp = join(dir, `.${basename(this.path)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const file = await open(temp, 'wx');
      try {
        await file.writeFile(text);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, this.path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await syncDirectory(dir);
  }
}

async function syncDirectory(dir: string): Promise<void> {
  // Windows cannot open a directory for fsync; NTFS journals the rename metadata itself.
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
