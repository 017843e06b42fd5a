import { existsSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import type { Doc, RenditionSet, VideoFile } from '@reelbase/core';
import { FsBlobStore } from '@reelbase/blobs-fs';
import type { DumpSink } from './dump-format';

/**
 * Video files are not part of a dump: they are blobs in the files directory, named by the
 * `file.key` and `renditions` of their `videos` document. These helpers count them as a dump streams by, check
 * them in a target's files directory, and copy that directory for `migrate`.
 */

/** The files a document names: a video's upload and each of its renditions (their MP4s; playlists and segments live beside them). */
const filesOf = (collection: string, doc: Doc): { key: string; size: number }[] => {
  if (collection !== 'videos') return [];
  const file = doc.file as VideoFile | null | undefined;
  const renditions = doc.renditions as RenditionSet | null | undefined;
  return [
    ...(file && typeof file.key === 'string' && typeof file.size === 'number' ? [file] : []),
    ...(renditions?.list ?? []).map((r) => ({ key: `${renditions!.key}/${r.file}`, size: r.size })),
  ];
};

/** Counts the video files a dump references as it streams by; with a directory, also those it lacks. */
export class VideoFileTally {
  /** Files the videos name: uploads and renditions. */
  files = 0;
  bytes = 0;
  /** Of those, how many `filesDir` lacks (0 without one). */
  missing = 0;
  readonly #blobs: FsBlobStore | undefined;

  constructor(readonly filesDir?: string) {
    this.#blobs = filesDir === undefined ? undefined : new FsBlobStore(filesDir);
  }

  /** `sink`, counting on the way. */
  wrap(sink: DumpSink): DumpSink {
    return {
      header: (header) => sink.header(header),
      documents: async (collection, docs) => {
        for (const file of docs.flatMap((doc) => filesOf(collection, doc))) {
          this.files++;
          this.bytes += file.size;
          if (this.#blobs && !(await this.#blobs.stat(file.key))) this.missing++;
        }
        await sink.documents(collection, docs);
      },
    };
  }
}

/**
 * Copies a files directory (blobs, and uploads in progress so they can resume) into another,
 * leaving out `.tmp`, where half-written files live. False when there is nothing to copy.
 */
export async function copyFilesDir(from: string, to: string): Promise<boolean> {
  if (!existsSync(from)) return false;
  const partial = join(from, '.tmp');
  await cp(from, to, { recursive: true, force: true, filter: (source) => source !== partial });
  return true;
}

/** 1536 → "1.5 KiB". */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}
