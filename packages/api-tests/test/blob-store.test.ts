import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FsBlobStore } from '@reelbase/http';

describe('FsBlobStore', () => {
  const root = mkdtempSync(join(tmpdir(), 'reelbase-blobs-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('leaves no file behind when the bytes fail, even before the file is open', async () => {
    const blobs = new FsBlobStore(root);
    async function* failing(after: number): AsyncIterable<Uint8Array> {
      for (let i = 0; i < after; i++) yield new Uint8Array(1024);
      throw new Error('the client went away');
    }
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => assert.rejects(blobs.put(`videos/${i}/file`, failing(i % 3)), /the client went away/)),
    );
    assert.deepEqual(readdirSync(join(root, '.tmp')), []);
    assert.deepEqual(readdirSync(root), ['.tmp']);
    async function* whole(): AsyncIterable<Uint8Array> {
      yield new Uint8Array([1, 2, 3]);
    }
    assert.equal((await blobs.put('videos/ok/file', whole())).size, 3);
    assert.deepEqual(readdirSync(join(root, '.tmp')), []);
  });
});
