import { createReadStream, createWriteStream } from 'node:fs';
import { cp, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobBytes, BlobInfo, BlobStore, ByteRange, LocalCopy, ReadAt } from '@reelbase/core';

/** Flushes a file's bytes (or a directory's entries) to the disk. */
async function fsync(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Blobs as files under one directory: written to `.tmp/<random>`, fsynced, then renamed into place,
 * so a file under its final name is always whole, even after a crash or a power cut.
 */
export class FsBlobStore implements BlobStore {
  readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
  }

  get description(): string {
    return `directory ${this.root}`;
  }

  /** The file of `key`; keys are relative paths of [\w-] words joined by single dots (`720p.mp4`), nothing else (no `..`). */
  path(key: string): string {
    if (!/^[\w-]+(\.[\w-]+)*(\/[\w-]+(\.[\w-]+)*)*$/.test(key)) throw new Error(`invalid blob key ${JSON.stringify(key)}`);
    return join(this.root, ...key.split('/'));
  }

  async put(key: string, data: BlobBytes): Promise<BlobInfo> {
    const target = this.path(key);
    const tmpDir = join(this.root, '.tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, randomBytes(12).toString('hex'));
    const out = createWriteStream(tmp, { flags: 'wx' });
    try {
      await pipeline(data instanceof Readable ? data : Readable.from(data), out);
      await fsync(tmp);
      await mkdir(dirname(target), { recursive: true });
      await rename(tmp, target);
      await fsync(dirname(target));
    } catch (e) {
      // A source that fails at once leaves the file's open in flight: removed before the stream
      // closes, the file would appear after its removal and stay behind.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await rm(tmp, { force: true });
      throw e;
    }
    const s = await stat(target);
    return { key, size: s.size, modified: s.mtime };
  }

  get(key: string, range?: ByteRange): Readable {
    return createReadStream(this.path(key), range ? { start: range.start, end: range.end } : {});
  }

  async move(from: string, to: string): Promise<BlobInfo> {
    const target = this.path(to);
    await mkdir(dirname(target), { recursive: true });
    await rename(this.path(from), target);
    return { key: to, size: (await stat(target)).size };
  }

  async stat(key: string): Promise<BlobInfo | null> {
    try {
      const s = await stat(this.path(key));
      return s.isFile() ? { key, size: s.size, modified: s.mtime } : null;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async deleteTree(prefix: string): Promise<void> {
    await rm(this.path(prefix), { force: true, recursive: true });
  }

  /** The file itself: keys are written once, and a tool's open file outlives a delete. */
  async materialise(key: string): Promise<LocalCopy> {
    const path = this.path(key);
    await stat(path);
    return { path, release: async () => undefined };
  }

  /** Beside the files, so that `putTree` is one rename. */
  async scratch(name: string): Promise<LocalCopy> {
    return freshDir(join(this.root, '.tmp'), `work-${name}`);
  }

  async scratchNames(): Promise<string[]> {
    return (await readdir(join(this.root, '.tmp')).catch(() => [])).filter((e) => e.startsWith('work-')).map((e) => e.slice('work-'.length));
  }

  async dropScratch(name: string): Promise<void> {
    await removeDir(join(this.root, '.tmp', `work-${name}`));
  }

  async putTree(prefix: string, dir: string): Promise<void> {
    const target = this.path(prefix);
    await rm(target, { recursive: true, force: true });
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(dir, target);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
      // Another filesystem: copied under a temporary name, then renamed whole.
      const tmp = await freshDir(join(this.root, '.tmp'), `copy-${randomBytes(12).toString('hex')}`);
      await cp(dir, tmp.path, { recursive: true });
      await rename(tmp.path, target);
    }
  }

  async *list(prefix: string): AsyncIterable<BlobInfo> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = relative(this.root, join(entry.parentPath, entry.name)).split(sep).join('/');
      // Files being written (.tmp) and tus uploads in progress (.tus) are not blobs yet.
      if (key.startsWith('.') || !key.startsWith(prefix)) continue;
      const s = await stat(join(this.root, key));
      yield { key, size: s.size, modified: s.mtime };
    }
  }

  /** Random access for probing. */
  reader(key: string): ReadAt {
    const file = this.path(key);
    return async (offset, length) => {
      const handle = await open(file, 'r');
      try {
        const buf = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buf, 0, length, offset);
        return buf.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    };
  }
}


/**
 * Removes a directory and everything in it; while a tool that is being killed still writes there,
 * Node's own retries (ENOTEMPTY, EBUSY, EPERM; 50 ms more each time, about 2.7 s in all) let its
 * last files land first.
 */
export const removeDir = (path: string): Promise<void> => rm(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });

/** An empty directory `name` under `parent` (emptied if an earlier attempt left it), removed on release. */
export async function freshDir(parent: string, name: string): Promise<LocalCopy> {
  if (!/^[\w-]+$/.test(name)) throw new Error(`invalid scratch name ${JSON.stringify(name)}`);
  const path = join(parent, name);
  await removeDir(path);
  await mkdir(path, { recursive: true });
  return { path, release: () => removeDir(path) };
}
