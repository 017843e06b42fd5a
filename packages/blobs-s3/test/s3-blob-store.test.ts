import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { TestS3 } from '@reelbase/api-tests';
import { testBlobStore, testBytes as bytes } from '@reelbase/blobs-testkit';

const s3 = new TestS3();
testBlobStore({
  name: 's3 (s3rver)',
  open: async () => {
    await s3.start();
    // A prefix: nothing outside it is touched.
    await s3.store().put('outside', [bytes(1)]);
    return { blobs: s3.store('tenant'), leftovers: () => [] };
  },
  close: async () => {
    assert.deepEqual((await s3.keys()).filter((k) => !k.startsWith('tenant/')), ['outside']);
    await s3.dispose();
  },
});

describe('s3 local copies of a process killed mid-probe', () => {
  const s3 = new TestS3();
  const tmp = mkdtempSync(join(tmpdir(), 'reelbase-copies-'));
  after(async () => {
    await s3.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('are swept (as openBlobStore does when a process opens its bucket): those of dead processes only, never a job’s or a live one’s', async () => {
    await s3.start();
    const blobs = s3.store('', tmp);
    await blobs.put('videos/1/file', [bytes(10)]);
    const live = await blobs.materialise('videos/1/file');
    assert.match(live.path, new RegExp(`reelbase-copy-p${process.pid}-[0-9a-f]+/input$`));
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    for (const name of [`reelbase-copy-p${dead}-0123`, 'reelbase-copy-transcode-7']) await mkdir(join(tmp, name));
    await blobs.sweepCopies();
    assert.deepEqual(readdirSync(tmp).sort(), [live.path.split('/').at(-2), 'reelbase-copy-transcode-7'].sort());
    await live.release();
  });
});
