import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eq, schema, type JobRecord, type Store } from '@reelbase/core';
import { createTusVideo, makeClip, sendByTus, WebhookReceiver } from '@reelbase/api-tests';
import { openPostgresStore, scratchDatabase } from '@reelbase/store-postgres';
import { tempDir } from './cli-harness';
import { account, caller, deliveries, servedUrl, startCli, stopCli } from './worker-processes';

const postgres = process.env.REELBASE_TEST_POSTGRES;
const database = postgres ? scratchDatabase(postgres) : undefined;
if (database) after(() => database.drop());

const t0 = '2030-01-01T00:00:00Z';

const transcodes = async (store: Store, videoId: string) =>
  (await store.find<JobRecord>('jobs', { where: eq('subject', videoId) })).items.filter((j) => j.kind === 'transcode');

describe('a worker fleet on one PostgreSQL database', { skip: database ? false : 'not selected: set REELBASE_TEST_POSTGRES=postgres://… (scripts/with-postgres.sh does)' }, () => {
  let dir: string;
  let cleanup: () => void;
  let receiver: WebhookReceiver;
  before(async () => {
    ({ dir, cleanup } = tempDir());
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await receiver.close();
    cleanup();
  });

  it('two `reelbase worker`s beside a `serve --no-worker` transcode six uploads, each exactly once, between them', async () => {
    const url = await database!.freshUrl();
    const files = join(dir, 'files');
    const store = await openPostgresStore({ schema, url });
    try {
      const token = await account(store, t0);
      const env = { REELBASE_STORE: url, REELBASE_FILES: files, REELBASE_TEST_CLOCK: t0, REELBASE_WEBHOOK_ALLOW_PRIVATE: '1', REELBASE_RATE_LIMIT: 'off' };
      // The three start at once: none needs another to start.
      const [server, ...workers] = await Promise.all([
        startCli(['serve', '--port', '0', '--no-worker'], env, /^Stop with Ctrl-C\.$/, dir),
        ...[1, 2].map(() => startCli(['worker'], env, /^Transcoding 1 at a time with ffmpeg/, dir)),
      ]);
      assert.ok(server.lines.includes('No transcode worker here: run `reelbase worker` beside it.'));
      const names = workers.map((w) => /^reelbase worker (\S+) /.exec(w.lines[0])![1]);
      try {
        const api = caller(servedUrl(server), token);
        assert.equal((await api.call('POST', '/me/webhooks', { json: { url: receiver.url, events: ['video.available'] } })).status, 201);
        const clip = await makeClip({ width: 640, height: 360, seconds: 3 });
        const ids: string[] = [];
        for (let i = 0; i < 6; i++) {
          const { id, link } = await createTusVideo(api, token, clip.length);
          await sendByTus(link, clip);
          ids.push(id);
        }
        await deliveries(receiver, 6);
        const jobs = (await Promise.all(ids.map((id) => transcodes(store, id)))).flat();
        assert.equal(jobs.length, 6);
        assert.deepEqual(jobs.map((j) => [j.state, j.attempts]), Array(6).fill(['done', 1]), 'never transcoded twice');
        assert.deepEqual([...new Set(jobs.map((j) => j.finished_by))].sort(), [...names].sort(), 'both workers took some');
        for (const id of ids) assert.equal(readdirSync(join(files, 'videos', id, 'renditions')).length, 1);
        assert.deepEqual(receiver.deliveries.map((d) => d.event.data.video.uri).sort(), ids.map((id) => `/videos/${id}`).sort());
      } finally {
        for (const w of workers) assert.equal(await stopCli(w), 0);
        assert.equal(await stopCli(server), 0);
      }
    } finally {
      await store.close();
    }
  });
});
