import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { enqueue, sweepScratch, type JobRecord, type VideoRecord } from '@reelbase/core';
import { FsBlobStore } from '@reelbase/blobs-fs';
import { TestS3 } from '@reelbase/api-tests';
import { parseStoreSpec } from '../src/index';
import { cli, stdoutJson, tempDir } from './cli-harness';
import { withStore } from './dump-helpers';
import { populateStore, type Population } from './populated-store';

describe('reelbase blobs check [--fix]: files no record holds, records whose file is missing', () => {
  const store = 'sqlite:reelbase.db';
  let dir: string;
  let files: string;
  let cleanup: () => void;
  let population: Population;
  /** A rendition of the uploaded video: removed, then put back. */
  let rendition: { key: string; bytes: Buffer };
  const s3 = new TestS3();
  const check = (...flags: string[]) => cli(['blobs', 'check', '--store', store, ...flags], { cwd: dir });

  before(async () => {
    ({ dir, cleanup } = tempDir());
    files = join(dir, 'files');
    population = await populateStore(parseStoreSpec(store, dir), files);
    const set = (await withStore(store, dir, (s) => s.get<VideoRecord>('videos', population.videos.uploaded)))!.renditions!;
    const key = `${set.key}/${set.list[0].file}`;
    rendition = { key, bytes: readFileSync(join(files, key)) };
    await s3.start();
  });
  after(async () => {
    cleanup();
    await s3.dispose();
  });

  it('a populated store is clean: exit 0', async () => {
    const out = await check();
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^Checked \d+ files in directory .*files against store sqlite:.*reelbase\.db\.\nClean: /);
    const json = stdoutJson(await check('--json'));
    assert.deepEqual([json.orphans, json.missing, json.young], [[], [], 0]);
    assert.ok(json.checked >= 4, `the upload, its rendition, playlists, storyboard: ${json.checked}`);
    // A relative --blobs directory is the command's, as every other path flag.
    const relative = stdoutJson(await check('--blobs', 'files', '--json'));
    assert.deepEqual([relative.blobs, relative.checked, relative.missing], [json.blobs, json.checked, []]);
  });

  it('reports an orphan (past the grace period only) and a missing rendition, exit 1', async () => {
    mkdirSync(join(files, 'videos', '999999'), { recursive: true });
    writeFileSync(join(files, 'videos', '999999', 'stray'), 'left behind');
    rmSync(join(files, rendition.key));
    const young = stdoutJson(await check('--json'));
    assert.deepEqual([young.orphans, young.young], [[], 1], 'a file younger than an hour may be about to be recorded');
    const out = await check('--grace', '0');
    assert.equal(out.code, 1);
    assert.match(out.stdout, /^orphan {3}videos\/999999\/stray {2}11 bytes {2}\d{4}-/m);
    assert.match(out.stdout, new RegExp(`^missing {2}${rendition.key} {2}\\(video ${population.videos.uploaded} renditions\\)$`, 'm'));
    assert.match(out.stdout, /^1 orphan \(11 bytes\): run with --fix to remove them\.$/m);
    const json = stdoutJson(await check('--grace', '0s', '--json'));
    assert.deepEqual(json.orphans.map((b: { key: string; size: number }) => [b.key, b.size]), [['videos/999999/stray', 11]]);
    assert.deepEqual(json.missing, [{ key: rendition.key, owner: `video ${population.videos.uploaded} renditions` }]);
    assert.equal((await check('--grace', 'soon')).code, 2, 'a bad duration is a usage error');
  });

  it('--fix removes the orphans through a removal job; the missing file stays reported (exit 1) until it is restored', async () => {
    const fixed = await check('--fix', '--grace', '0');
    assert.equal(fixed.code, 1);
    assert.match(fixed.stdout, /^Removed 1 orphan \(11 bytes\)\.$/m);
    assert.match(fixed.stdout, /^1 missing file: restore them from a backup/m);
    assert.equal(existsSync(join(files, 'videos', '999999', 'stray')), false);
    writeFileSync(join(files, rendition.key), rendition.bytes);
    assert.equal((await check('--grace', '0')).code, 0);
  });

  it('checks an S3 bucket the same way (--blobs s3://BUCKET/PREFIX)', async () => {
    const bucket = s3.store('media');
    for await (const blob of new FsBlobStore(files).list('')) await bucket.put(blob.key, [readFileSync(join(files, blob.key))]);
    // The AWS SDK reads its endpoint, region and credentials from the process's environment.
    const saved = { ...process.env };
    Object.assign(process.env, s3.env());
    try {
      const inBucket = (...flags: string[]) => cli(['blobs', 'check', '--store', store, '--blobs', `s3://${s3.bucket}/media`, '--grace', '0', ...flags], { cwd: dir, env: process.env });
      const clean = await inBucket();
      assert.equal(clean.code, 0, clean.stdout + clean.stderr);
      assert.match(clean.stdout, /in s3:\/\/reelbase\/media\//);
      await bucket.put('media/user/1/pictures/1/stray', [Buffer.from('x')]);
      await bucket.delete(rendition.key);
      const json = stdoutJson(await inBucket('--json', '--fix'));
      assert.deepEqual([json.orphans.map((b: { key: string }) => b.key), json.missing.map((b: { key: string }) => b.key), json.removals_queued], [['media/user/1/pictures/1/stray'], [rendition.key], 0]);
      assert.deepEqual(await s3.keys('media/media/'), [], 'the orphan was removed from the bucket');
    } finally {
      process.env = saved;
    }
  });

  it('reports the local directories of job attempts no longer running (exit 1); --fix and the start-up sweep remove them, never a running attempt’s', async () => {
    const job = await withStore(store, dir, async (s) => {
      const queued = await enqueue(s, { kind: 'transcode', subject: population.videos.uploaded, payload: {} }, new Date());
      return (await s.update<JobRecord>('jobs', queued.id, { state: 'running', attempts: 2, lease_owner: 'worker-elsewhere' }))!;
    });
    const live = `transcode-${job.id}-a2`;
    // The running attempt's, its killed first attempt's, one of a job gone, one named by an earlier version.
    const dead = [`transcode-${job.id}-a1`, 'transcode-999999-a1', 'transcode-7'].sort();
    const leave = () => {
      for (const name of [live, ...dead]) mkdirSync(join(files, '.tmp', `work-${name}`), { recursive: true });
      writeFileSync(join(files, '.tmp', `work-${dead[0]}`, '360p.mp4'), 'half written');
    };
    const scratch = () => readdirSync(join(files, '.tmp')).filter((e) => e.startsWith('work-'));
    leave();
    const out = await check();
    assert.equal(out.code, 1);
    assert.match(out.stdout, new RegExp(`^scratch {2}transcode-${job.id}-a1 {2}\\(local files of a job attempt that no longer runs\\)$`, 'm'));
    assert.match(out.stdout, /^3 dead attempts’ directories: run with --fix to remove them\.$/m);
    assert.deepEqual(stdoutJson(await check('--json')).scratch, dead);
    const fixed = await check('--fix');
    assert.equal(fixed.code, 0, fixed.stdout);
    assert.match(fixed.stdout, /^Removed 3 dead attempts’ directories\.$/m);
    assert.deepEqual(scratch(), [`work-${live}`]);

    leave();
    assert.equal(await withStore(store, dir, (s) => sweepScratch(s, new FsBlobStore(files))), 3);
    assert.deepEqual(scratch(), [`work-${live}`]);
  });
});
