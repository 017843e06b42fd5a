import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkBlobs, createToken, createUser, parseScopes, schema } from '@reelbase/core';
import { createTusVideo, fetchBytes, filesUnder, makeClip, TestS3, WebhookReceiver } from '@reelbase/api-tests';
import { openPostgresStore, scratchDatabase } from '@reelbase/store-postgres';
import { tempDir } from './cli-harness';
import { servedUrl, startCli, stopCli, type CliProcess } from './worker-processes';

// Stateless servers and workers (issue 36): two `serve --no-worker` and two `worker` processes,
// each with an empty files directory of its own, sharing a PostgreSQL database and an S3 bucket.
const postgres = process.env.REELBASE_TEST_POSTGRES;
const database = postgres ? scratchDatabase(postgres) : undefined;
if (database) after(() => database.drop());

const t0 = '2030-01-01T00:00:00Z';

/** A request as a client app makes it, to whichever server `base` names. */
async function call(base: string, token: string, method: string, path: string, json?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

/** A tus PATCH of `bytes` at `offset` through server `base`; the new offset. */
async function patch(base: string, link: string, offset: number, bytes: Uint8Array): Promise<number> {
  const r = await fetch(base + new URL(link).pathname, {
    method: 'PATCH',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
    body: bytes,
  });
  assert.equal(r.status, 204, await r.text());
  return Number(r.headers.get('upload-offset'));
}

/** The path and query of a link handed out by one server, to fetch from another. */
const pathOf = (link: string) => {
  const u = new URL(link);
  return u.pathname + u.search;
};

describe('a fleet sharing only PostgreSQL and an S3 bucket', { skip: database ? false : 'not selected: set REELBASE_TEST_POSTGRES=postgres://… (scripts/with-postgres.sh does)' }, () => {
  const s3 = new TestS3();
  let dir: string;
  let cleanup: () => void;
  let receiver: WebhookReceiver;
  before(async () => {
    ({ dir, cleanup } = tempDir());
    receiver = await WebhookReceiver.start();
    await s3.start();
  });
  after(async () => {
    await receiver.close();
    await s3.dispose();
    cleanup();
  });

  it('uploads through both servers, transcodes on a worker, serves through the other server, deletes every object', async () => {
    const url = await database!.freshUrl();
    const store = await openPostgresStore({ schema, url });
    const user = await createUser(store, new Date(t0), { name: 'Uploader' });
    const token = (await createToken(store, new Date(t0), user.id, parseScopes('all'))).token;
    await store.close();
    const homes = ['serve-a', 'serve-b', 'worker-1', 'worker-2'].map((name) => {
      const home = join(dir, name);
      mkdirSync(join(home, 'files'), { recursive: true });
      return home;
    });
    const env = (home: string) => ({ ...s3.env(), REELBASE_STORE: url, REELBASE_FILES: join(home, 'files'), REELBASE_TEST_CLOCK: t0, REELBASE_WEBHOOK_ALLOW_PRIVATE: '1', REELBASE_RATE_LIMIT: 'off' });
    const processes: CliProcess[] = [];
    try {
      for (const home of homes.slice(0, 2)) processes.push(await startCli(['serve', '--port', '0', '--no-worker'], env(home), /^Stop with Ctrl-C\.$/, home));
      for (const home of homes.slice(2)) processes.push(await startCli(['worker'], env(home), /^Transcoding 1 at a time with ffmpeg/, home));
      const [a, b] = processes.slice(0, 2).map(servedUrl);
      assert.ok(processes[0].lines.includes('Video files: s3://reelbase/'), processes[0].lines.join('\n'));
      assert.match(processes[2].lines[0], /, files s3:\/\/reelbase\/$/);

      assert.equal((await call(a, token, 'POST', '/me/webhooks', { url: receiver.url, events: ['video.available'] })).status, 201);
      const clip = await makeClip({ width: 640, height: 360, seconds: 3, noise: true });
      const { id, link } = await createTusVideo({ call: (m, p, o) => call(a, o.token ?? token, m, p, o.json) }, token, clip.length);
      // PATCHes alternate between the servers; the middle one spans a part boundary.
      let offset = 0;
      for (const [i, end] of [3 << 20, 7 << 20, clip.length].entries()) offset = await patch(i % 2 ? b : a, link, offset, clip.subarray(offset, end));
      assert.equal(offset, clip.length);
      while (receiver.deliveries.length < 1) await receiver.next();

      const video = (await call(b, token, 'GET', `/videos/${id}`)).body;
      assert.equal(video.status, 'available');
      const mp4 = await fetchBytes(b + pathOf(video.play.progressive[0].link), { range: 'bytes=0-1023' });
      assert.deepEqual([mp4.status, mp4.bytes.length], [206, 1024]);
      const master = await fetchBytes(b + pathOf(video.play.hls.link));
      assert.equal(master.status, 200);
      const variant = new URL(master.bytes.toString().split('\n').find((l) => l && !l.startsWith('#'))!, b + pathOf(video.play.hls.link));
      const playlist = await fetchBytes(variant.href);
      const segment = new URL(playlist.bytes.toString().split('\n').find((l) => l && !l.startsWith('#'))!, variant);
      assert.equal((await fetchBytes(segment.href)).status, 200);
      const thumb = await fetchBytes(b + pathOf(video.pictures.sizes.at(-1).link));
      assert.deepEqual([thumb.status, thumb.headers.get('content-type')], [200, 'image/jpeg']);
      const source = await fetchBytes(`${b}/videos/${id}/file`, { authorization: `Bearer ${token}` });
      assert.ok(source.bytes.equals(clip), 'the source is the bytes sent');

      const track = (await call(a, token, 'POST', `/videos/${id}/texttracks`, { type: 'captions', language: 'en', name: 'English' })).body;
      assert.equal((await fetch(a + pathOf(track.link), { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' }, body: 'WEBVTT\n\n00:01.000 --> 00:02.000\nHello\n' })).status, 200);
      assert.equal((await call(a, token, 'PATCH', track.uri, { active: true })).status, 200);
      const shown = (await call(b, token, 'GET', track.uri)).body;
      const captions = await fetchBytes(b + pathOf(shown.link));
      assert.deepEqual([captions.status, captions.bytes.toString()], [200, 'WEBVTT\n\n00:01.000 --> 00:02.000\nHello\n']);

      assert.ok((await s3.keys(`videos/${id}/`)).length > 3);
      const records = await openPostgresStore({ schema, url });
      try {
        const found = await checkBlobs(records, s3.store(), { now: new Date(), graceSeconds: 0 });
        assert.deepEqual([found.orphans.map((o) => o.key), found.missing.map((m) => m.key)], [[], []], 'blobs check is clean on PostgreSQL');
      } finally {
        await records.close();
      }
      assert.equal((await call(b, token, 'DELETE', `/videos/${id}`)).status, 204);
      assert.deepEqual(await s3.keys(), [], 'the bucket holds nothing of the video (nor of anything else: it was the only one)');
    } finally {
      for (const p of processes) assert.equal(await stopCli(p), 0);
    }
    for (const home of homes) assert.deepEqual(filesUnder(home).filter((f) => !f.endsWith('.db')), [], `${home} holds no file`);
  });
});
