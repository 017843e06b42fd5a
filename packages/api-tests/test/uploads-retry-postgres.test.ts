import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { eq, schema, type Store } from '@reelbase/core';
import { openPostgresStore, scratchDatabase } from '@reelbase/store-postgres';
import { expectError, Harness, makeClip, type Fixture } from '../src/index';

// Selected by REELBASE_TEST_POSTGRES=postgres://… (scripts/with-postgres.sh sets it).
const server = process.env.REELBASE_TEST_POSTGRES;
const database = server ? scratchDatabase(server) : undefined;
if (database) after(() => database.drop());

/** Calls `before(collection, id)` ahead of every update made inside one of `store`'s transactions. */
function beforeUpdates(store: Store, before: (collection: string, id: string) => Promise<void>): Store {
  const bound = (target: Store, prop: string | symbol) => {
    const value = Reflect.get(target, prop) as unknown;
    return typeof value === 'function' ? value.bind(target) : value;
  };
  const watched = (tx: Store): Store =>
    new Proxy(tx, {
      get: (target, prop) =>
        prop === 'update' ? async (collection: string, id: string, patch: object) => (await before(collection, id), target.update(collection, id, patch)) : bound(target, prop),
    });
  return new Proxy(store, {
    get: (target, prop) => (prop === 'transaction' ? <R>(fn: (tx: Store) => Promise<R>) => target.transaction((tx) => fn(watched(tx))) : bound(target, prop)),
  });
}

describe('a streaming upload completed in a transaction PostgreSQL runs again', { skip: server ? false : 'not selected: set REELBASE_TEST_POSTGRES=postgres://… (scripts/with-postgres.sh does)' }, () => {
  let mp4: Buffer;
  before(async () => {
    mp4 = await makeClip({ width: 640, height: 360, seconds: 4 });
  });
  let h: Harness;
  let other: Store;
  /** The video whose next completing update first lets another server commit a write to its row. */
  let collideOn: string | undefined;
  /** Updates of that video the completing transaction made, one per run of it. */
  let runs = 0;

  /** A server whose store retries `attempts` times, and a second store on the same database, as another server's. */
  const start = async (attempts: number) => {
    const url = await database!.freshUrl();
    const store = beforeUpdates(await openPostgresStore({ schema, url, transactionAttempts: attempts }), async (collection, id) => {
      if (collection !== 'videos' || id !== collideOn) return;
      runs++;
      if (runs > 1) return;
      // The transaction read the row already; another server's commit to it now makes this run fail (40001).
      await other.increment('videos', id, 'plays', 1);
    });
    h = await Harness.start({ name: 'postgres', open: async () => ({ store, cleanup: () => {} }) });
    other = await openPostgresStore({ schema, url });
    runs = 0;
    collideOn = undefined;
  };
  afterEach(async () => {
    await h.stop();
    await other.close();
  });

  /** A streaming upload with its bytes sent, and the form that completes it. */
  const sent = async (alice: Fixture) => {
    const created = await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'Streamed', upload: { approach: 'streaming', size: mp4.length } } });
    assert.equal(created.status, 201, created.text);
    const id = String(created.body.uri).split('/').pop()!;
    assert.equal((await fetch(String(created.body.upload.upload_link), { method: 'PUT', body: mp4 })).status, 200);
    const ticket = await h.call('GET', `/users/${alice.user.id}/tickets/${id}`, { token: alice.token });
    const query = new URLSearchParams(String(ticket.body.complete_uri).split('?')[1]);
    const complete = () => h.call('DELETE', `/users/${alice.user.id}/uploads/${id}`, { token: alice.token, form: { signature: query.get('signature')!, video_file_id: id } });
    return { id, complete };
  };

  /** The video plays the uploaded bytes, kept once under its own directory, nothing left in staging; one transcode queued. */
  const playsOnce = async (id: string) => {
    assert.equal(await h.service.store.count('jobs', eq('kind', 'transcode')), 1, 'the transcode was queued once, by the run that committed');
    const files = readdirSync(join(h.filesDir, 'videos', id));
    assert.equal(files.length, 1, `one file for video ${id}: ${files.join(', ')}`);
    assert.deepEqual(readFileSync(join(h.filesDir, 'videos', id, files[0])), mp4);
    assert.deepEqual(readdirSync(join(h.filesDir, 'staging')), []);
    const played = await fetch(`${h.server.url}/videos/${id}/file`);
    assert.equal(played.status, 200);
    assert.deepEqual(Buffer.from(await played.arrayBuffer()), mp4);
  };

  it('completes once, with the right bytes, when the first run fails with a serialization failure', async () => {
    await start(10);
    const alice = await h.user('Alice');
    const { id, complete } = await sent(alice);
    collideOn = id;
    const done = await complete();
    assert.equal(done.status, 201, done.text);
    assert.equal(runs, 2, 'the completing transaction ran twice');
    assert.deepEqual([done.body.status, done.body.upload.size, done.body.duration, done.body.width], ['transcode_starting', mp4.length, 4, 640]);
    await playsOnce(id);
    // Completed: a second DELETE finds no upload in progress.
    expectError(await complete(), 404, 5011);
  });

  it('a completion whose transaction fails for good leaves the upload to complete again, with no stray file', async () => {
    await start(1);
    const alice = await h.user('Alice');
    const { id, complete } = await sent(alice);
    collideOn = id;
    const failed = await complete();
    assert.equal(failed.status, 500, failed.text);
    assert.equal(runs, 1);
    const video = await h.call('GET', `/videos/${id}?fields=status,upload.status`, { token: alice.token });
    assert.deepEqual(video.body, { status: 'uploading', upload: { status: 'in_progress' } });
    const again = await complete();
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.status, 'transcode_starting');
    await playsOnce(id);
  });
});
