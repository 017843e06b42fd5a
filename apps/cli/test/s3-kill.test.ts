import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkBlobs, eq, schema, type JobRecord, type MultipartState, type VideoRecord } from '@reelbase/core';
import { createTusVideo, fetchBytes, filesUnder, holdPatch, makeClip, TestS3, until, WebhookReceiver } from '@reelbase/api-tests';
import { openSqliteStore } from '@reelbase/store-sqlite';
import { tempDir } from './cli-harness';
import { account, appears, caller, deliveries, killCli, servedUrl, startCli, stopCli, type CliProcess } from './worker-processes';

const t0 = '2030-01-01T00:00:00Z';
/** After a killed worker's 60-second lease ran out. */
const later = '2030-01-01T00:05:00Z';
const part = 5 * 1024 * 1024;

/**
 * SIGKILL with the files in a bucket (issue 36): a server killed in the middle of a tus PATCH, a
 * worker killed in the middle of a transcode. One SQLite database, processes one after another,
 * each with a files directory of its own; every process's temporary directory is one watched here.
 * No timeout of its own: the suite's per-test one (scripts/test.mjs); the 120 s this whole describe
 * had was overrun by its two tests (57 s + 64 s) at load 28.
 */
describe('SIGKILL of a server mid-upload and of a worker mid-transcode, files in an S3 bucket', () => {
  const s3 = new TestS3();
  let dir: string;
  let cleanup: () => void;
  let receiver: WebhookReceiver;
  let tmp: string;
  let token: string;
  let clip: Buffer;
  let id: string;
  const homes: string[] = [];
  /** Every process started: none outlives a failed test. */
  const started: CliProcess[] = [];
  const db = () => join(dir, 'reelbase.db');
  /** `reelbase <args>` at `clock`, in a home of its own. */
  const start = async (args: string[], name: string, clock: string, ready: RegExp): Promise<CliProcess> => {
    const home = join(dir, name);
    mkdirSync(join(home, 'files'), { recursive: true });
    homes.push(home);
    const env = { ...s3.env(), REELBASE_STORE: `sqlite:${db()}`, REELBASE_FILES: join(home, 'files'), REELBASE_TEST_CLOCK: clock, REELBASE_WEBHOOK_ALLOW_PRIVATE: '1', REELBASE_RATE_LIMIT: 'off', TMPDIR: tmp };
    const p = await startCli(args, env, ready, home);
    started.push(p);
    return p;
  };
  const serve = (name: string) => start(['serve', '--port', '0', '--no-worker'], name, t0, /^Stop with Ctrl-C\.$/);
  const worker = (name: string, clock: string) => start(['worker'], name, clock, /^Transcoding 1 at a time with ffmpeg/);
  const offsetAt = async (base: string, link: string) =>
    Number((await fetch(base + new URL(link).pathname, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } })).headers.get('upload-offset'));

  before(async () => {
    ({ dir, cleanup } = tempDir());
    tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    receiver = await WebhookReceiver.start();
    await s3.start();
    const store = await openSqliteStore({ schema, path: db() });
    token = await account(store, t0);
    await store.close();
    clip = await makeClip({ width: 640, height: 360, seconds: 3, noise: true });
  });
  after(async () => {
    for (const p of started) await killCli(p);
    await receiver.close();
    await s3.dispose();
    cleanup();
  });

  it('a server killed mid-PATCH keeps the acknowledged part; another server takes the rest; nothing partial is visible', async () => {
    assert.ok(clip.length > part + 100_000, `the clip spans two parts (${clip.length} bytes)`);
    const a = await serve('serve-a');
    const api = caller(servedUrl(a), token);
    assert.equal((await api.call('POST', '/me/webhooks', { json: { url: receiver.url, events: ['video.available'] } })).status, 201);
    let link: string;
    ({ id, link } = await createTusVideo(api, token, clip.length));
    // The first part fills and is recorded; the bytes after it are in the killed server's memory
    // only. (Watched in the database: a HEAD would make @tus/server end the PATCH to free its lock.)
    const held = holdPatch(link, clip, part + 100_000);
    const store = await openSqliteStore({ schema, path: db() });
    try {
      await until(async () => ((await store.get<VideoRecord>('videos', id))?.upload as { multipart?: MultipartState } | undefined)?.multipart?.offset === part, 'the first part recorded');
    } finally {
      await store.close();
    }
    await killCli(a);
    await held.closed;
    assert.deepEqual(await s3.keys(`videos/${id}/`), [], 'an unfinished multipart upload is no object');

    const b = await serve('serve-b');
    try {
      assert.equal(await offsetAt(servedUrl(b), link), part, 'the acknowledged offset survived');
      const rest = holdPatch(servedUrl(b) + new URL(link).pathname, clip.subarray(part), 0, part);
      assert.equal(await rest.finish(), 204);
      const video = (await caller(servedUrl(b), token).call('GET', `/videos/${id}`)).body;
      assert.equal(video.status, 'transcode_starting');
      const source = await fetchBytes(`${servedUrl(b)}/videos/${id}/file`, { authorization: `Bearer ${token}` });
      assert.ok(source.bytes.equals(clip), 'the object is the bytes sent, across the kill');
    } finally {
      assert.equal(await stopCli(b), 0);
    }
  });

  it('a worker killed mid-transcode: the job is retried on the same machine, completes once, leaves no copy and no stray object', async () => {
    const first = await worker('worker-1', t0);
    // Killed while ffmpeg writes the ladder: the source copy and the scratch directory are both there.
    // Named for the store (a digest of its bucket), the job and the attempt.
    const scratch = await appears(tmp, (e) => /^reelbase-work-[0-9a-f]{8}-transcode-\d+-a1$/.test(e));
    const job = /-transcode-(\d+)-a1$/.exec(scratch)![1];
    await appears(join(tmp, scratch), (e) => e.endsWith('.mp4'));
    await killCli(first);
    assert.ok(existsSync(join(tmp, scratch.replace('reelbase-work-', 'reelbase-copy-'))), 'the killed attempt left its source copy');
    assert.deepEqual(await s3.keys(`videos/${id}/renditions/`), [], 'no rendition is visible before the job completes');

    const second = await worker('worker-2', later);
    try {
      await deliveries(receiver, 1);
    } finally {
      assert.equal(await stopCli(second), 0);
    }
    assert.deepEqual(readdirSync(tmp).filter((e) => e.startsWith('reelbase-')), [], 'the retry removed the killed attempt’s copy and outputs, then its own');
    const renditions = await s3.keys(`videos/${id}/renditions/`);
    assert.ok(renditions.length > 0 && renditions.every((k) => k.startsWith(`videos/${id}/renditions/${job}/`)), renditions.join(', '));
    const store = await openSqliteStore({ schema, path: db() });
    try {
      const jobs = (await store.find<JobRecord>('jobs', { where: eq('kind', 'transcode') })).items;
      assert.deepEqual(jobs.map((j) => [j.id, j.state, j.attempts]), [[job, 'done', 2]]);
      const found = await checkBlobs(store, s3.store(), { now: new Date(), graceSeconds: 0 });
      assert.deepEqual([found.orphans.map((b) => b.key), found.missing.map((b) => b.key), found.young], [[], [], 0], 'blobs check is clean');
    } finally {
      await store.close();
    }
    for (const home of homes) assert.deepEqual(filesUnder(home), [], `${home} holds no file`);
  });
});
