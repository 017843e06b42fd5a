import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { BlobStore } from '@reelbase/core';
import type { BlobStoreTestDriver } from './driver';

/** `n` bytes of a pattern that `seed` shifts, so that two writers' bytes differ. */
export const bytes = (n: number, seed = 0) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) % 251);

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

async function* failing(after: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < after; i++) yield new Uint8Array(1024);
  throw new Error('the client went away');
}

async function keys(blobs: BlobStore, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for await (const b of blobs.list(prefix)) out.push(b.key);
  return out.sort();
}

/** One contract, every blob store: what core and the transport rely on. */
export function blobStoreTests({ name, open, close, ownFile }: BlobStoreTestDriver): void {
  describe(`blob store conformance: ${name}`, () => {
    let blobs: BlobStore;
    let leftovers: () => string[];
    before(async () => ({ blobs, leftovers } = await open()));
    after(close);

    it('puts, stats, gets whole and by range, lists', async () => {
      const data = bytes(100_000);
      const info = await blobs.put('videos/1/file', [data]);
      assert.equal(info.size, data.length);
      const stat = await blobs.stat('videos/1/file');
      assert.equal(stat?.size, data.length);
      assert.ok(stat?.modified instanceof Date);
      assert.deepEqual(await read(blobs.get('videos/1/file')), Buffer.from(data));
      assert.deepEqual(await read(blobs.get('videos/1/file', { start: 10, end: 19 })), Buffer.from(data.subarray(10, 20)));
      assert.deepEqual(await read(blobs.get('videos/1/file', { start: 99_990, end: 99_999 })), Buffer.from(data.subarray(99_990)));
      assert.deepEqual(Buffer.from(await blobs.reader('videos/1/file')(5, 3)), Buffer.from(data.subarray(5, 8)));
      assert.equal(await blobs.stat('videos/1/nothing'), null);
      assert.deepEqual(await keys(blobs, 'videos/1/'), ['videos/1/file']);
    });

    it('streams a body larger than one multipart part', async () => {
      const part = bytes(1024 * 1024, 3);
      const info = await blobs.put('videos/big/file', Readable.from((function* () {
        for (let i = 0; i < 9; i++) yield part;
      })()));
      assert.equal(info.size, 9 * part.length);
      const tail = await read(blobs.get('videos/big/file', { start: 9 * part.length - 4, end: 9 * part.length - 1 }));
      assert.deepEqual(tail, Buffer.from(part.subarray(part.length - 4)));
      await blobs.delete('videos/big/file');
    });

    it('fails a missing blob’s stream', async () => {
      await assert.rejects(read(blobs.get('videos/missing/file')));
    });

    it('deletes one blob, and a tree, missing ones quietly', async () => {
      await blobs.put('videos/2/a', [bytes(3)]);
      await blobs.put('videos/2/d/b', [bytes(3)]);
      await blobs.put('videos/22/c', [bytes(3)]);
      await blobs.delete('videos/2/a');
      await blobs.delete('videos/2/a');
      assert.equal(await blobs.stat('videos/2/a'), null);
      await blobs.deleteTree('videos/2');
      await blobs.deleteTree('videos/2');
      assert.deepEqual(await keys(blobs, 'videos/2'), ['videos/22/c']);
    });

    it('moves a blob', async () => {
      await blobs.put('videos/3/staged', [bytes(10)]);
      const moved = await blobs.move('videos/3/staged', 'videos/3/file');
      assert.equal(moved.size, 10);
      assert.equal(await blobs.stat('videos/3/staged'), null);
      assert.deepEqual(await keys(blobs, 'videos/3/'), ['videos/3/file']);
    });

    it('lends a local copy to a tool and takes it back', async () => {
      const data = bytes(5000, 9);
      await blobs.put('videos/4/file', [data]);
      const copy = await blobs.materialise('videos/4/file');
      assert.deepEqual(await readFile(copy.path), Buffer.from(data));
      await copy.release();
      assert.deepEqual(await read(blobs.get('videos/4/file')), Buffer.from(data));
    });

    it('stores a finished directory tree whole, replacing what was there', async () => {
      await blobs.put('videos/5/r/old', [bytes(1)]);
      const work = await blobs.scratch('job-1');
      await mkdir(join(work.path, '720p'));
      await writeFile(join(work.path, 'master.m3u8'), 'm');
      await writeFile(join(work.path, '720p', 'seg_1.ts'), bytes(2000));
      await blobs.putTree('videos/5/r', work.path);
      await work.release();
      assert.deepEqual(await keys(blobs, 'videos/5/'), ['videos/5/r/720p/seg_1.ts', 'videos/5/r/master.m3u8']);
      assert.equal((await blobs.stat('videos/5/r/720p/seg_1.ts'))?.size, 2000);
      assert.equal(existsSync(work.path), false);
    });

    it('names the scratch directories and job copies it holds, and drops one whole', async () => {
      await blobs.put('videos/7/file', [bytes(10)]);
      // (The filesystem store lends the blob's own file: no copy to name or drop.)
      const [work, copy] = [await blobs.scratch('transcode-7-a1'), await blobs.materialise('videos/7/file', 'transcode-7-a1')];
      const other = await blobs.scratch('transcode-8-a2');
      await writeFile(join(work.path, '360p.mp4'), bytes(100));
      assert.deepEqual((await blobs.scratchNames()).sort(), ['transcode-7-a1', 'transcode-8-a2']);
      await blobs.dropScratch('transcode-7-a1');
      assert.deepEqual([existsSync(work.path), existsSync(other.path), (await blobs.stat('videos/7/file'))?.size], [false, true, 10]);
      assert.equal(existsSync(copy.path), copy.path === ownFile?.('videos/7/file'), 'a copy goes with its attempt, the blob stays');
      assert.deepEqual(await blobs.scratchNames(), ['transcode-8-a2']);
      await other.release();
      assert.deepEqual(await blobs.scratchNames(), []);
    });

    it('leaves nothing when the bytes fail, even before the first byte', async () => {
      await Promise.all(Array.from({ length: 12 }, (_, i) => assert.rejects(blobs.put(`videos/f${i}/file`, failing(i % 3)), /the client went away/)));
      assert.deepEqual(await keys(blobs, 'videos/f'), []);
      assert.deepEqual(leftovers(), []);
    });

    it('keeps one whole writer’s bytes when several write one key at once', async () => {
      const writers = Array.from({ length: 6 }, (_, i) => bytes(200_000, i));
      await Promise.all(writers.map((w) => blobs.put('videos/6/file', Readable.from([w.subarray(0, 100_000), w.subarray(100_000)]))));
      const got = await read(blobs.get('videos/6/file'));
      assert.ok(writers.some((w) => Buffer.from(w).equals(got)), 'the blob is one writer’s bytes, whole');
      assert.deepEqual(leftovers(), []);
    });
  });
}
