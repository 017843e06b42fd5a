import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobInfo, BlobStore } from '@reelbase/core';

/**
 * Copies every blob of one store into another (a directory into a bucket, a bucket into a
 * directory…), streaming each file through a SHA-256 on the way in and hashing the target's copy
 * back out: a copy counts only when both sides agree on size and digest. Verified copies are
 * appended to a journal, so a run that was interrupted resumes where it stopped. Nothing is
 * switched: the processes keep using the source until restarted with the target.
 */

/** One verified copy, a line of the journal. */
interface Copied {
  key: string;
  size: number;
  sha256: string;
}

/** The journal's first line: which copy it records. */
interface JournalHeader {
  from: string;
  to: string;
}

export interface MigrateBlobsOptions {
  from: BlobStore;
  to: BlobStore;
  /** The journal file of this copy (JSON lines); made when missing, started anew when it records another copy. */
  journal: string;
  /** Files copied at once. */
  concurrency?: number;
  /** Aborting stops starting copies; those in flight finish and are recorded. */
  signal?: AbortSignal;
  /** Called once the work is known: files to copy, and files an earlier run already copied. */
  onPlan?(plan: { total: number; skipped: number }): void;
  /** Called as each file is done (or failed). */
  onFile?(key: string, ok: boolean): void;
}

export interface MigrateBlobsSummary {
  /** Files copied and verified by this run, and their bytes. */
  copied: number;
  bytes: number;
  /** Files an earlier run copied and verified (still there, same size). */
  skipped: number;
  /** Files that went from the source while the copy ran (removed by their owner): not an error. */
  vanished: number;
  failed: { key: string; error: string }[];
  /** Blobs of the target that the source does not have (left alone). */
  extra: number;
  /** Whether an abort stopped the run before every file was tried. */
  stopped: boolean;
  /** Every source file is in the target, verified. */
  complete: boolean;
}

/** Thrown when a copy reads back different from what was sent. */
export class ChecksumMismatchError extends Error {
  override readonly name = 'ChecksumMismatchError';
}

export async function migrateBlobs(o: MigrateBlobsOptions): Promise<MigrateBlobsSummary> {
  if (overlaps(o.from.description, o.to.description)) {
    throw new Error(`the source (${o.from.description}) and the target (${o.to.description}) overlap: copy into a directory or prefix of its own`);
  }
  const header: JournalHeader = { from: o.from.description, to: o.to.description };
  const journaled = await readJournal(o.journal, header);
  const source = await sizes(o.from);
  const target = await sizes(o.to);

  const todo: BlobInfo[] = [];
  let skipped = 0;
  for (const [key, size] of source) {
    const done = journaled.get(key);
    if (done && done.size === size && target.get(key) === size) skipped++;
    else todo.push({ key, size });
  }
  const extra = [...target.keys()].filter((key) => !source.has(key)).length;
  o.onPlan?.({ total: todo.length, skipped });

  // The journal holds its header and the copies still valid; this run appends to it.
  const kept = [...journaled.values()].filter((c) => source.get(c.key) === c.size && target.get(c.key) === c.size);
  await mkdir(dirname(o.journal), { recursive: true });
  await writeFile(o.journal, [header, ...kept].map((line) => `${JSON.stringify(line)}\n`).join(''));

  const summary: MigrateBlobsSummary = { copied: 0, bytes: 0, skipped, vanished: 0, failed: [], extra, stopped: false, complete: false };
  let next = 0;
  const lane = async () => {
    while (next < todo.length && !o.signal?.aborted) {
      const blob = todo[next++];
      try {
        const copied = await copyVerified(o.from, o.to, blob.key);
        await appendFile(o.journal, `${JSON.stringify(copied)}\n`);
        summary.copied++;
        summary.bytes += copied.size;
        o.onFile?.(blob.key, true);
      } catch (e) {
        if ((await o.from.stat(blob.key).catch(() => undefined)) === null) summary.vanished++;
        else summary.failed.push({ key: blob.key, error: (e as Error).message ?? String(e) });
        o.onFile?.(blob.key, false);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency ?? 4, todo.length) }, lane));
  summary.stopped = next < todo.length;
  summary.complete = !summary.stopped && summary.failed.length === 0;
  return summary;
}

/** Streams `key` from one store into the other through a digest, then reads the copy back through another. */
async function copyVerified(from: BlobStore, to: BlobStore, key: string): Promise<Copied> {
  const sent = digest();
  const stored = await to.put(key, sent.through(from.get(key)));
  const expected = sent.result();
  const back = digest();
  for await (const _ of back.through(to.get(key)));
  const found = back.result();
  if (stored.size !== expected.size || found.size !== expected.size || found.sha256 !== expected.sha256) {
    // A bad copy is not left where a restarted server would serve it.
    await to.delete(key).catch(() => undefined);
    throw new ChecksumMismatchError(
      `the copy of ${key} reads back different: sent ${expected.size} bytes sha256 ${expected.sha256}, read ${found.size} bytes sha256 ${found.sha256}`,
    );
  }
  return { key, ...expected };
}

/** A SHA-256 and byte count of whatever streams through it. */
function digest() {
  const hash = createHash('sha256');
  let size = 0;
  return {
    async *through(stream: Readable): AsyncGenerator<Uint8Array> {
      for await (const chunk of stream as AsyncIterable<Uint8Array>) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    },
    result: () => ({ size, sha256: hash.digest('hex') }),
  };
}

async function sizes(store: BlobStore): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for await (const blob of store.list('')) found.set(blob.key, blob.size);
  return found;
}

/** The copies a journal of this very copy records; none for a missing journal or another copy's. A torn last line (a kill mid-write) is ignored. */
async function readJournal(path: string, header: JournalHeader): Promise<Map<string, Copied>> {
  const text = await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return '';
    throw e;
  });
  const [first, ...rest] = text.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      return [];
    }
  });
  const found = new Map<string, Copied>();
  const head = first as Partial<JournalHeader> | undefined;
  if (head?.from !== header.from || head?.to !== header.to) return found;
  for (const c of rest as Partial<Copied>[]) {
    if (typeof c.key === 'string' && typeof c.size === 'number' && typeof c.sha256 === 'string') found.set(c.key, c as Copied);
  }
  return found;
}

/**
 * Whether two stores share files: the same directory or bucket prefix, or one inside the other.
 * Read from their descriptions (`directory /srv/files`, `s3://bucket/prefix/`).
 */
function overlaps(a: string, b: string): boolean {
  const place = (d: string) => `${d.replace(/^directory /, 'file://').replace(/\/+$/, '')}/`;
  const [x, y] = [place(a), place(b)];
  return x.startsWith(y) || y.startsWith(x);
}
