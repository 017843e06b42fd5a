import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { eq, type JobRecord } from '@reelbase/core';
import { drivers, Harness, makeClip, until, type Fixture } from '../src/index';

/** Waits for a pull (real network I/O in the background) to settle: polls the video, no fixed sleeps. */
async function settled(h: Harness, token: string, uri: string): Promise<Record<string, any>> {
  let body: Record<string, any> = {};
  await until(async () => {
    body = (await h.call('GET', uri, { token })).body;
    return (body.upload?.status ?? body.status) !== 'in_progress';
  }, `${uri} to finish its pull`);
  return body;
}

const files = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

describe('pull uploads: the server fetches upload.link', () => {
  /** A real 1 s 320x240 clip (~32 KB), under the 64 KiB cap; `big` is over it. */
  let mp4: Buffer;
  let big: Buffer;
  let origin: Server;
  let base: string;
  let h: Harness;
  let strict: Harness;
  let alice: Fixture;
  let carol: Fixture;
  before(async () => {
    mp4 = await makeClip({ width: 320, height: 240, seconds: 1 });
    big = Buffer.concat([mp4, Buffer.alloc(64 * 1024)]);
    origin = createServer((req, res) => {
      if (req.url === '/clip.mp4') res.writeHead(200, { 'content-type': 'video/mp4' }).end(mp4);
      else if (req.url === '/big.mp4') res.writeHead(200).end(big);
      else if (req.url === '/text') res.writeHead(200).end('hello, not a video');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    h = await Harness.start(drivers[0], { pullAllowPrivate: true, uploadMaxBytes: 64 * 1024, pullTimeoutMs: 5000 });
    strict = await Harness.start(drivers[1]);
    alice = await h.user('Alice');
    carol = await strict.user('Carol');
  });
  after(async () => {
    await h.stop();
    await strict.stop();
    await new Promise((resolve) => origin.close(resolve));
  });

  const pull = async (harness: Harness, who: Fixture, link: string) => {
    const r = await harness.call('POST', '/me/videos', { token: who.token, json: { name: 'Pulled', upload: { approach: 'pull', link } } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.upload.approach, 'pull');
    assert.equal(r.body.upload.upload_link, null);
    return settled(harness, who.token, r.body.uri);
  };

  it('fetches the file, probes and queues it, and the Clip is available once transcoded', async () => {
    const v = await pull(h, alice, `${base}/clip.mp4`);
    assert.deepEqual(
      [v.status, v.upload.status, v.transcode.status, v.duration, v.width, v.height, v.upload.size],
      ['transcode_starting', 'complete', 'in_progress', 1, 320, 240, mp4.length],
    );
    assert.equal(await h.settle(), 1);
    assert.equal((await h.call('GET', v.uri, { token: alice.token })).body.status, 'available');
    const bytes = await fetch(`${h.server.url}${v.uri}/file`, { headers: { range: 'bytes=10-19' } });
    assert.equal(bytes.status, 206);
    assert.deepEqual(Buffer.from(await bytes.arrayBuffer()), mp4.subarray(10, 20));
  });

  it('a file over the cap, a missing file and a non-video end in errors and leave no files behind', async () => {
    const before = files(h.filesDir);
    const over = await pull(h, alice, `${base}/big.mp4`);
    assert.deepEqual([over.status, over.upload.status], ['uploading_error', 'error']);
    const missing = await pull(h, alice, `${base}/nothing-here`);
    assert.deepEqual([missing.status, missing.upload.status], ['uploading_error', 'error']);
    const text = await pull(h, alice, `${base}/text`);
    assert.deepEqual([text.status, text.transcode.status], ['transcode_error', 'error']);
    // The background pull removes a refused file just after recording the outcome: wait for it.
    await until(() => files(h.filesDir) === before, 'the refused files to be removed');
  });

  it('refuses loopback and private addresses unless configured', async () => {
    const v = await pull(strict, carol, `${base}/clip.mp4`);
    assert.deepEqual([v.status, v.upload.status], ['uploading_error', 'error']);
  });

  it('a pull version that is not a video fails and leaves the video available', async () => {
    const first = await pull(h, alice, `${base}/clip.mp4`);
    await h.settle();
    const r = await h.call('POST', `${first.uri}/versions`, { token: alice.token, json: { file_name: 'again.mp4', upload: { approach: 'pull', link: `${base}/text` } } });
    assert.equal(r.status, 201, r.text);
    const version = await settled(h, alice.token, r.body.uri);
    assert.equal(version.upload.status, 'error');
    // The refused file's removal is a job of its own, which may still be queued when the version reads failed.
    await h.settle();
    const transcodes = (await h.service.store.find<JobRecord>('jobs', { where: eq('kind', 'transcode') })).items;
    assert.deepEqual(transcodes.filter((j) => j.payload.version), [], 'nothing to transcode for the version');
    assert.equal((await h.call('GET', first.uri, { token: alice.token })).body.status, 'available');
  });
});
