import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BlobBytes, BlobInfo, BlobStore } from '@reelbase/core';
import { FsBlobStore } from '@reelbase/blobs-fs';
import { createRequestListener } from '@reelbase/http';
import { drivers, fetchBytes, Harness, makeClip, makeImage, putFile, TestS3, uploadByTus, type Fixture } from '@reelbase/api-tests';
import { migrateBlobs } from '../src/blobs/migrate-blobs';
import { cli, tempDir } from './cli-harness';

/**
 * `reelbase blobs migrate`: a filesystem store with a transcoded video (renditions, HLS,
 * thumbnails), a caption track, a custom logo and a portrait is copied into an S3 bucket (s3rver)
 * and back into a directory; after each move, a server on the new store answers every media link
 * with the same bytes. An interrupted copy resumes, and a copy that reads back different is caught.
 */

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A listener over the service on another blob store, as a server restarted with `--blobs` would be. */
async function serveFrom(h: Harness, blobs: BlobStore, filesDir: string): Promise<{ url: string; close(): Promise<void> }> {
  const listener = createRequestListener(h.service, { filesDir, blobs });
  const server: Server = createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The paths of every media link the API hands the owner for this world. */
async function mediaPaths(h: Harness, alice: Fixture, video: string): Promise<string[]> {
  const get = async (path: string) => (await h.call('GET', path, { token: alice.token })).body;
  const v = await get(`/videos/${video}`);
  const links: string[] = [
    ...v.files.map((f: { link: string }) => f.link),
    ...v.download.map((f: { link: string }) => f.link),
    ...v.play.progressive.map((f: { link: string }) => f.link),
    v.play.hls.link,
    ...v.pictures.sizes.map((s: { link: string }) => s.link),
    ...(await get(`/videos/${video}/texttracks`)).data.map((t: { link: string }) => t.link),
    ...(await get('/me/customlogos')).data.flatMap((l: { sizes: { link: string }[] }) => l.sizes.map((s) => s.link)),
    ...(await get('/me/pictures')).data.flatMap((p: { sizes: { link: string }[] }) => p.sizes.map((s) => s.link)),
  ];
  return links.map((link) => {
    const url = new URL(link);
    return url.pathname + url.search;
  });
}

/**
 * Fetches every path on `origin`, following HLS playlists to their variants, and fetching each
 * init segment and segment as the byte range the playlist gives: each answer's SHA-256 by path
 * (`path#length@offset` for a range).
 */
async function mediaBytes(origin: string, paths: string[]): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  const queue = paths.map((path) => ({ path, range: '' }));
  while (queue.length) {
    const { path, range } = queue.shift()!;
    const id = range ? `${path}#${range}` : path;
    if (seen.has(id)) continue;
    const [length, offset] = range.split('@').map(Number);
    const r = await fetchBytes(origin + path, range ? { range: `bytes=${offset}-${offset + length - 1}` } : {});
    assert.equal(r.status, range ? 206 : 200, `${id} answers on ${origin}`);
    seen.set(id, sha(r.bytes));
    if (!new URL(origin + path).pathname.endsWith('.m3u8')) continue;
    const at = (ref: string) => {
      const url = new URL(ref, origin + path);
      return url.pathname + url.search;
    };
    let pending = '';
    for (const line of r.bytes.toString().split('\n').map((l) => l.trim())) {
      const map = /^#EXT-X-MAP:URI="([^"]+)"(?:,BYTERANGE="([^"]+)")?/.exec(line);
      if (map) queue.push({ path: at(map[1]), range: map[2] ?? '' });
      else if (line.startsWith('#EXT-X-BYTERANGE:')) pending = line.slice('#EXT-X-BYTERANGE:'.length);
      else if (line && !line.startsWith('#')) {
        queue.push({ path: at(line), range: pending });
        pending = '';
      }
    }
  }
  return seen;
}

describe('reelbase blobs migrate: a directory into a bucket and back, every media link the same bytes', () => {
  const s3 = new TestS3();
  const work = tempDir();
  let h: Harness;
  let alice: Fixture;
  let paths: string[];
  let before_: Map<string, string>;
  const saved = { ...process.env };
  before(async () => {
    await s3.start();
    // The SDK reads its endpoint and credentials from the process's environment, as in production.
    const { REELBASE_BLOBS: _, ...sdk } = s3.env();
    Object.assign(process.env, sdk);
    h = await Harness.start(drivers[0]);
    alice = await h.user('Alice');
    const [clip, png, jpeg] = await Promise.all([makeClip({ width: 320, height: 240, seconds: 1 }), makeImage('png', 400, 300), makeImage('jpeg', 640, 480)]);
    const video = await uploadByTus(h, alice.token, clip, { name: 'Moving' });
    assert.equal(await h.settle(), 1);
    const track = (await h.call('POST', `/videos/${video}/texttracks`, { token: alice.token, json: { type: 'captions', language: 'en', name: 'English' } })).body;
    assert.equal((await putFile(track.link, 'WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n', alice.token, 'text/vtt')).status, 200);
    const logo = (await h.call('POST', '/me/customlogos', { token: alice.token, json: { active: true } })).body;
    assert.equal((await putFile(logo.link, png, alice.token, 'image/png')).status, 200);
    const portrait = (await h.call('POST', '/me/pictures', { token: alice.token, json: {} })).body;
    assert.equal((await putFile(portrait.link, jpeg, alice.token, 'image/jpeg')).status, 200);
    assert.equal((await h.call('PATCH', portrait.uri, { token: alice.token, json: { active: true } })).status, 200);
    paths = await mediaPaths(h, alice, video);
    before_ = await mediaBytes(h.server.url, paths);
    const playlists = [...before_.keys()].filter((p) => p.endsWith('.m3u8'));
    assert.ok(playlists.length >= 2, `the HLS master leads to a variant playlist: ${playlists}`);
    assert.ok([...before_.keys()].filter((p) => p.includes('.mp4#')).length >= 2, 'the variant playlist leads to an init segment and segments');
  });
  after(async () => {
    process.env = saved;
    await h?.stop();
    await s3.dispose();
    work.cleanup();
  });

  it('copies the files directory into the bucket, verified, and a server on the bucket answers every link the same', async () => {
    const out = await cli(['blobs', 'migrate', '--blobs', h.filesDir, '--to', 's3://reelbase/moved', '--journal', 'to-s3.jsonl'], { cwd: work.dir });
    assert.equal(out.code, 0, out.stderr);
    const files = await collect(new FsBlobStore(h.filesDir));
    assert.match(out.stdout, new RegExp(`^Copied ${files.length} files \\(.+\\) from directory ${h.filesDir} to s3://reelbase/moved/, each verified by SHA-256; 0 copied by an earlier run\\.$`, 'm'));
    assert.match(out.stdout, /The copy is complete\. Nothing was switched: restart the servers and workers with --blobs s3:\/\/reelbase\/moved/);
    assert.deepEqual((await s3.keys('moved/')).map((k) => k.slice('moved/'.length)), files.map((f) => f.key).sort());
    const journal = readFileSync(join(work.dir, 'to-s3.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(journal[0], { from: `directory ${h.filesDir}`, to: 's3://reelbase/moved/' });
    assert.equal(journal.length, files.length + 1, 'one line per verified copy');

    const empty = mkdtempSync(join(tmpdir(), 'reelbase-empty-'));
    const onBucket = await serveFrom(h, s3.store('moved'), empty);
    try {
      assert.deepEqual(await mediaBytes(onBucket.url, paths), before_);
    } finally {
      await onBucket.close();
      rmSync(empty, { recursive: true, force: true });
    }

    const again = await cli(['blobs', 'migrate', '--blobs', h.filesDir, '--to', 's3://reelbase/moved', '--journal', 'to-s3.jsonl'], { cwd: work.dir });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`^Copied 0 files \\(0 bytes\\) .+; ${files.length} copied by an earlier run\\.$`, 'm'));
  });

  it('copies the bucket back into a directory, and a server on it answers every link the same', async () => {
    const back = join(work.dir, 'files-back');
    const out = await cli(['blobs', 'migrate', '--blobs', 's3://reelbase/moved', '--to', back, '--json'], { cwd: work.dir, env: { REELBASE_FILES: join(work.dir, 'data', 'files') } });
    assert.equal(out.code, 0, out.stderr);
    const summary = JSON.parse(out.stdout);
    assert.deepEqual(
      { ...summary, bytes: undefined },
      { from: 's3://reelbase/moved/', to: `directory ${back}`, journal: join(work.dir, 'data', 'blobs-migrate.jsonl'), copied: (await s3.keys('moved/')).length, bytes: undefined, skipped: 0, vanished: 0, failed: [], extra: 0, stopped: false, complete: true },
    );
    const onDirectory = await serveFrom(h, new FsBlobStore(back), back);
    try {
      assert.deepEqual(await mediaBytes(onDirectory.url, paths), before_);
    } finally {
      await onDirectory.close();
    }
  });

  it('refuses a target inside the source', async () => {
    const out = await cli(['blobs', 'migrate', '--blobs', h.filesDir, '--to', join(h.filesDir, 'copy')], { cwd: work.dir });
    assert.equal(out.code, 1);
    assert.match(out.stderr, /overlap/);
  });
});

/** Every blob of a store, by key. */
async function collect(store: BlobStore): Promise<BlobInfo[]> {
  const found: BlobInfo[] = [];
  for await (const blob of store.list('')) found.push(blob);
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

/** A store that passes everything to `inner`, with `put` replaced. */
const withPut = (inner: BlobStore, put: (key: string, data: BlobBytes) => Promise<BlobInfo>): BlobStore =>
  new Proxy(inner, { get: (target, name) => (name === 'put' ? put : Reflect.get(target, name, target)) }) as BlobStore;

describe('blobs migrate: interrupted, resumed, and a bad copy caught', () => {
  const work = tempDir();
  const source = new FsBlobStore(join(work.dir, 'from'));
  const keys = ['a/1.bin', 'a/2.bin', 'b/3.bin', 'b/c/4.bin', '5.bin'];
  const journal = join(work.dir, 'journal.jsonl');
  before(async () => {
    for (const [i, key] of keys.entries()) await source.put(key, [Buffer.alloc(1000 + i * 7919, i + 1)]);
  });
  after(() => work.cleanup());

  it('a target failing after two files leaves a journal of two; the next run copies only the other three', async () => {
    const target = new FsBlobStore(join(work.dir, 'to'));
    let puts = 0;
    const failing = withPut(target, (key, data) => (++puts > 2 ? Promise.reject(new Error('the target went away')) : target.put(key, data)));
    const first = await migrateBlobs({ from: source, to: failing, journal, concurrency: 1 });
    assert.deepEqual([first.copied, first.failed.length, first.complete], [2, 3, false]);
    assert.deepEqual(first.failed.map((f) => f.error), Array(3).fill('the target went away'));
    assert.equal(readFileSync(journal, 'utf8').trim().split('\n').length, 3, 'the header and two copies');

    const sent: string[] = [];
    const counting = withPut(target, (key, data) => (sent.push(key), target.put(key, data)));
    const second = await migrateBlobs({ from: source, to: counting, journal, concurrency: 1 });
    assert.deepEqual([second.copied, second.skipped, second.failed, second.complete], [3, 2, [], true]);
    assert.equal(sent.length, 3);
    assert.deepEqual(sent.sort(), first.failed.map((f) => f.key).sort());
    assert.deepEqual((await collect(target)).map((b) => b.key), (await collect(source)).map((b) => b.key));
  });

  it('a copy removed from the target behind the journal\'s back is copied again', async () => {
    const target = new FsBlobStore(join(work.dir, 'to'));
    await target.delete('b/3.bin');
    const run = await migrateBlobs({ from: source, to: target, journal });
    assert.deepEqual([run.copied, run.skipped, run.complete], [1, 4, true]);
  });

  it('a torn last journal line (a kill mid-write) is ignored, and a journal of another copy is started anew', async () => {
    writeFileSync(journal, `${readFileSync(journal, 'utf8')}{"key":"a/1`);
    const target = new FsBlobStore(join(work.dir, 'to'));
    assert.equal((await migrateBlobs({ from: source, to: target, journal })).skipped, 5);
    const elsewhere = new FsBlobStore(join(work.dir, 'elsewhere'));
    const run = await migrateBlobs({ from: source, to: elsewhere, journal });
    assert.deepEqual([run.copied, run.skipped], [5, 0]);
  });

  it('the command stopped by a signal before its copies exits 130 saying nothing was switched; run again, it completes', async () => {
    const args = ['blobs', 'migrate', '--blobs', join(work.dir, 'from'), '--to', join(work.dir, 'stopped'), '--journal', 'stopped.jsonl'];
    const stopped = new AbortController();
    stopped.abort();
    const first = await cli(args, { cwd: work.dir, signal: stopped.signal });
    assert.equal(first.code, 130, first.stderr);
    assert.match(first.stdout, /^Copied 0 files \(0 bytes\) .+; 0 copied by an earlier run\.\nThe copy is NOT complete; nothing was switched\. Run the same command again to resume \(journal: .+stopped\.jsonl\)\.\n$/);
    const second = await cli(args, { cwd: work.dir });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /^Copied 5 files /);
    assert.match(second.stderr, /^blobs migrate: 5\/5 \(100%\) · 5 done · 0 failed/m, 'progress lines on stderr when it is not a terminal');
  });

  it('a copy that reads back different is reported, removed from the target and not journaled', async () => {
    const target = new FsBlobStore(join(work.dir, 'corrupt'));
    const flipping = withPut(target, async (key, data) => {
      const chunks: Buffer[] = [];
      for await (const chunk of data as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
      const bytes = Buffer.concat(chunks);
      if (key === 'b/3.bin') bytes[500] ^= 0xff;
      return target.put(key, [bytes]);
    });
    const run = await migrateBlobs({ from: source, to: flipping, journal: join(work.dir, 'corrupt.jsonl') });
    assert.deepEqual([run.copied, run.complete], [4, false]);
    assert.equal(run.failed.length, 1);
    assert.equal(run.failed[0].key, 'b/3.bin');
    assert.match(run.failed[0].error, /^the copy of b\/3\.bin reads back different: sent 16838 bytes sha256 [0-9a-f]{64}, read 16838 bytes sha256 [0-9a-f]{64}$/);
    assert.equal(await target.stat('b/3.bin'), null, 'the bad copy is not left to be served');
    assert.ok(!readFileSync(join(work.dir, 'corrupt.jsonl'), 'utf8').includes('b/3.bin'));
  });
});
