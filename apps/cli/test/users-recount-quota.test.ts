import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { UserRecord, VideoRecord } from '@reelbase/core';
import { openStore, parseStoreSpec } from '../src/index';
import { cli, tempDir } from './cli-harness';
import { populateStore, type Population } from './populated-store';

/**
 * `reelbase users recount-quota`: a store whose counters predate quotas (Ada's uploaded video not
 * counted) gets them from its records; a second run changes nothing.
 */
const { dir, cleanup } = tempDir();
const spec = 'sqlite:data/reelbase.db';
let population: Population;
before(async () => {
  population = await populateStore(parseStoreSpec(spec, dir), join(dir, 'data', 'files'));
});
after(() => cleanup());

it('counts every user\'s files into upload_quota from their videos, once; a second run corrects nothing', async () => {
  const store = await openStore(parseStoreSpec(spec, dir));
  let size: number;
  try {
    size = (await store.get<VideoRecord>('videos', population.videos.uploaded))!.file!.size;
    assert.equal((await store.get<UserRecord>('users', population.users.ada))!.upload_bytes, size, 'counted as it was uploaded');
    // As a store from before quotas were counted.
    await store.update<UserRecord>('users', population.users.ada, { upload_bytes: 0 });
  } finally {
    await store.close();
  }
  const first = await cli(['users', 'recount-quota', '--store', spec], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout, 'Recounted the upload quota of 3 users; 1 had a figure corrected.\n');
  const me = await cli(['api', 'GET', '/me?fields=upload_quota.space.used', '--store', spec, '--token', population.tokens.ada], { cwd: dir });
  assert.equal(me.code, 0, me.stderr);
  assert.deepEqual(JSON.parse(me.stdout), { upload_quota: { space: { used: size } } });
  const again = await cli(['users', 'recount-quota', '--store', spec, '--json'], { cwd: dir });
  assert.deepEqual(JSON.parse(again.stdout), { users: 3, changed: 0 });
});
