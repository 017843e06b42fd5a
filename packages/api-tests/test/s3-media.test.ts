import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestListener, serve, type RunningServer } from '@reelbase/http';
import { checkBlobs, eq, type JobRecord } from '@reelbase/core';
import { createTusVideo, drivers, fetchBytes, filesUnder, Harness, makeClip, TestS3, type Fixture } from '../src/index';

/** PATCHes `bytes` at `offset` to a tus link (on whichever server `base` names); answers the new offset. */
async function patch(link: string, base: string, offset: number, bytes: Uint8Array): Promise<number> {
  const url = new URL(link);
  const r = await fetch(base + url.pathname, {
    method: 'PATCH',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
    body: bytes,
  });
  assert.equal(r.status, 204, await r.text());
  return Number(r.headers.get('upload-offset'));
}

async function headOffset(link: string, base: string): Promise<number> {
  const r = await fetch(base + new URL(link).pathname, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
  assert.equal(r.status, 200);
  return Number(r.headers.get('upload-offset'));
}

describe('media in an S3 bucket (s3rver): uploads, transcodes and serving with no local files', () => {
  const s3 = new TestS3();
  let h: Harness;
  let other: RunningServer;
  let otherDir: string;
  let alice: Fixture;
  let clip: Buffer;
  /** Where the worker's store makes tools' local copies (source copies, transcode outputs). */
  const scratch = mkdtempSync(join(tmpdir(), 'reelbase-scratch-'));
  const scratchDirs = () => readdirSync(scratch);
  before(async () => {
    await s3.start();
    h = await Harness.start(drivers[0], {}, { blobs: s3.store('', scratch) });
    otherDir = mkdtempSync(join(tmpdir(), 'reelbase-files-'));
    // A second server on the same database and bucket, with a files directory of its own.
    other = await serve(h.service, { port: 0, host: '127.0.0.1', filesDir: otherDir, blobs: s3.store(), worker: false });
    alice = await h.user('Alice');
    clip = await makeClip({ width: 640, height: 360, seconds: 3, noise: true });
  });
  after(async () => {
    await other?.close().catch(() => undefined);
    await h?.stop();
    rmSync(otherDir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
    await s3.dispose();
  });

  let id: string;

  it('takes a tus upload in PATCHes alternating between two servers, parts recorded in the database', async () => {
    assert.ok(clip.length > 6 * 1024 * 1024, `the clip spans two parts (${clip.length} bytes)`);
    const created = await createTusVideo(h, alice.token, clip.length);
    id = created.id;
    const bases = [h.server.url, other.url];
    const cuts = [3 * 1024 * 1024, 7 * 1024 * 1024, clip.length];
    let offset = 0;
    for (const [i, end] of cuts.entries()) {
      assert.equal(await headOffset(created.link, bases[(i + 1) % 2]), offset, 'the other server knows the offset');
      offset = await patch(created.link, bases[i % 2], offset, clip.subarray(offset, end));
      assert.equal(offset, end);
    }
    const video = (await h.call('GET', `/videos/${id}`, { token: alice.token })).body;
    assert.equal(video.status, 'transcode_starting');
    const keys = await s3.keys(`videos/${id}/`);
    assert.equal(keys.length, 1, `one whole object, no tails: ${keys}`);
    const stored = await fetchBytes(`${other.url}/videos/${id}/file`, { authorization: `Bearer ${alice.token}` });
    assert.equal(stored.status, 200);
    assert.ok(stored.bytes.equals(clip), 'the object is the bytes sent');
  });

  it('retries a transcode the bucket failed, with back-off, leaving no temporary file', async () => {
    await s3.stop();
    try {
      assert.equal(await h.settle(), 1, 'tried once');
    } finally {
      await s3.start();
    }
    const [job] = (await h.service.store.find<JobRecord>('jobs', { where: eq('kind', 'transcode') })).items;
    assert.deepEqual([job.state, job.attempts], ['queued', 1]);
    assert.match(job.error ?? '', /blob store could not/);
    assert.equal((await h.call('GET', `/videos/${id}`, { token: alice.token })).body.status, 'transcoding');
    assert.deepEqual(scratchDirs(), [], 'no temporary copy left behind');
    h.clock.advance(60);
  });

  it('transcodes from the bucket into the bucket, and serves every rendition through the other server with ranges', async () => {
    assert.equal(await h.settle(), 1);
    assert.deepEqual(scratchDirs(), [], 'the source copy and the outputs were removed');
    const video = (await h.call('GET', `/videos/${id}`, { token: alice.token })).body;
    assert.equal(video.status, 'available', JSON.stringify(video.transcode));
    const mp4 = new URL(video.play.progressive[0].link);
    const whole = await fetchBytes(other.url + mp4.pathname);
    assert.equal(whole.status, 200);
    const etag = whole.headers.get('etag')!;
    assert.ok(etag && whole.headers.get('last-modified'));
    const part = await fetchBytes(other.url + mp4.pathname, { range: 'bytes=100-199' });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 100-199/${whole.bytes.length}`);
    assert.ok(part.bytes.equals(whole.bytes.subarray(100, 200)));
    assert.equal((await fetchBytes(other.url + mp4.pathname, { range: `bytes=${whole.bytes.length}-` })).status, 416);
    assert.equal((await fetchBytes(other.url + mp4.pathname, { 'if-none-match': etag })).status, 304);
    const master = await fetchBytes(other.url + new URL(video.play.hls.link).pathname);
    assert.equal(master.status, 200);
    const variant = master.bytes.toString().split('\n').find((l) => l && !l.startsWith('#'))!;
    const playlistUrl = new URL(variant, other.url + new URL(video.play.hls.link).pathname);
    const playlist = await fetchBytes(playlistUrl.href);
    assert.equal(playlist.status, 200);
    const segment = playlist.bytes.toString().split('\n').find((l) => l && !l.startsWith('#'))!;
    const seg = await fetchBytes(new URL(segment, playlistUrl).href);
    assert.equal(seg.status, 200);
    assert.ok(seg.bytes.length > 0);
    const thumb = await fetchBytes(other.url + new URL(video.pictures.sizes.at(-1).link).pathname);
    assert.equal(thumb.status, 200);
    assert.equal(thumb.headers.get('content-type'), 'image/jpeg');
  });

  it('redirects media links to short-lived bucket URLs in redirect mode, after checking the link; playlists stay', async () => {
    // A listener of its own (a RunningServer's close would close the shared store).
    const listener = createRequestListener(h.service, { filesDir: otherDir, blobs: s3.store(), redirectFiles: true });
    const server = createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const redirecting = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    try {
      const video = (await h.call('GET', `/videos/${id}`, { token: alice.token })).body;
      const mp4 = new URL(video.play.progressive[0].link);
      const r = await fetch(redirecting.url + mp4.pathname, { redirect: 'manual' });
      assert.equal(r.status, 302);
      assert.equal(r.headers.get('cache-control'), 'private, no-store');
      const location = r.headers.get('location')!;
      assert.ok(location.startsWith(`${s3.endpoint}/`), location);
      const direct = await fetchBytes(location, { range: 'bytes=0-99' });
      assert.equal(direct.status, 206);
      const proxied = await fetchBytes(other.url + mp4.pathname, { range: 'bytes=0-99' });
      assert.ok(direct.bytes.equals(proxied.bytes));
      const forged = await fetch(redirecting.url + mp4.pathname.replace(/\/[^/]+\/([^/]+)$/, '/x$1'), { redirect: 'manual' });
      assert.equal(forged.status, 404, 'a bad signature is refused before any redirect');
      const master = await fetch(redirecting.url + new URL(video.play.hls.link).pathname, { redirect: 'manual' });
      assert.equal(master.status, 200);
      assert.match(await master.text(), /^#EXTM3U/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('answers 503 with Retry-After while the bucket is down, and serves again once it is back', async () => {
    const video = (await h.call('GET', `/videos/${id}`, { token: alice.token })).body;
    const mp4 = other.url + new URL(video.play.progressive[0].link).pathname;
    const pending = await createTusVideo(h, alice.token, 1000);
    await s3.stop();
    try {
      const read = await fetchBytes(mp4);
      assert.equal(read.status, 503);
      assert.equal(read.headers.get('retry-after'), '10');
      assert.equal(JSON.parse(read.bytes.toString()).error_code, 4005);
      const r = await fetch(pending.link, {
        method: 'PATCH',
        headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
        body: clip.subarray(0, 500),
      });
      assert.equal(r.status, 503);
      assert.equal(r.headers.get('retry-after'), '10');
    } finally {
      await s3.start();
    }
    assert.equal(await headOffset(pending.link, other.url), 0, 'nothing half-done was recorded');
    assert.equal((await fetchBytes(mp4)).status, 200);
    await fetch(`${h.server.url}/videos/${pending.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${alice.token}` } });
  });

  it('a delete while the bucket is down answers 204 and its removal waits in a job, retried until the bucket is back', async () => {
    const doomed = await createTusVideo(h, alice.token, clip.length);
    await patch(doomed.link, h.server.url, 0, clip.subarray(0, 1000));
    assert.equal((await s3.keys(`videos/${doomed.id}/`)).length, 1, 'the tail of a partial upload');
    await s3.stop();
    try {
      const r = await fetch(`${other.url}/videos/${doomed.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${alice.token}` } });
      assert.equal(r.status, 204);
      const jobs = (await h.service.store.find<JobRecord>('jobs', { where: eq('kind', 'blobs.delete') })).items.filter((j) => j.state !== 'done');
      assert.deepEqual(jobs.map((j) => [j.state, (j.payload as { keys: string[] }).keys.some((k) => k === `videos/${doomed.id}`)]), [['queued', true]]);
      assert.ok((await h.settle()) >= 1, 'a worker tried, and failed');
      assert.equal((await h.service.store.get<JobRecord>('jobs', jobs[0].id))!.state, 'queued', 'queued again after a back-off');
    } finally {
      await s3.start();
    }
    assert.equal((await s3.keys(`videos/${doomed.id}/`)).length, 1, 'nothing was removed while the bucket was away');
    h.clock.advance(3600);
    assert.equal(await h.settle(), 1);
    assert.deepEqual(await s3.keys(`videos/${doomed.id}/`), []);
  });

  it('after the bucket stopped during an upload, a transcode and a delete, blobs check is clean', async () => {
    const found = await checkBlobs(h.service.store, s3.store(), { now: new Date(), graceSeconds: 0 });
    assert.deepEqual([found.orphans.map((b) => b.key), found.missing.map((b) => b.key), found.young], [[], [], 0]);
    assert.ok(found.blobs > 3, `${found.blobs} objects checked`);
  });

  it('keeps no media file in either server’s files directory', () => {
    assert.deepEqual(filesUnder(h.filesDir), []);
    assert.deepEqual(filesUnder(otherDir), []);
  });

  it('deleting the video through either server removes every object of it', async () => {
    assert.ok((await s3.keys(`videos/${id}/`)).length > 3);
    const r = await fetch(`${other.url}/videos/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${alice.token}` } });
    assert.equal(r.status, 204);
    assert.deepEqual(await s3.keys(`videos/${id}/`), []);
    assert.deepEqual(await s3.keys(`media/video/${id}/`), []);
  });
});
