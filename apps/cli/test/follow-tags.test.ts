import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../src/batch/clock';
import { run, seedUsers, startTarget, type Target } from './batch-harness';
import { stdoutJson } from './cli-harness';

const write = (target: Target, file: string, lines: readonly string[]) => writeFileSync(join(target.dir, file), `${lines.join('\n')}\n`);

/** Creates `count` videos through the CLI's own client path (a batch) and answers their ids. */
async function createVideos(target: Target, count: number): Promise<string[]> {
  write(target, 'new-videos.jsonl', Array.from({ length: count }, (_, i) => JSON.stringify({ method: 'POST', path: '/me/videos?fields=uri', body: { name: `Tag me ${i + 1}` } })));
  const made = await run(target, ['batch', 'new-videos.jsonl', '--json', '--results', `new-videos-${Date.now()}.jsonl`]);
  assert.equal(made.code, 0, made.stderr);
  return target.withStore(async (store) => (await store.find('videos', { limit: 1000, orderBy: [{ field: 'created_time', direction: 'asc' }] })).items.map((v) => v.id));
}

for (const name of ['http', 'in-process'] as const) {
  describe(`follow (${name})`, () => {
    let target: Target;
    let users: string[];
    before(async () => {
      target = await startTarget(name);
      users = await seedUsers(target, 250);
    });
    after(() => target.stop());

    it('follow add --from follows 250 users in 3 requests of at most 100 (ids, URIs, comments, blank lines)', async () => {
      write(target, 'users.txt', ['# people to follow', ...users.map((id, i) => (i % 2 ? `/users/${id}` : id)), '', `/users/${users[0]}`]);
      const added = await run(target, ['follow', 'add', '--from', 'users.txt', '--json']);
      assert.equal(added.code, 0, added.stderr);
      assert.deepEqual(stdoutJson(added), { done: 250, failed: 0, requests: 3, failures: [] });
      assert.match(added.stderr, /^Followed 250 users \(3 requests\)\.$/m);
      if (name === 'http') assert.equal(target.requests('POST', '/me/following'), 3);

      const listed = await run(target, ['follow', 'list', '--all', '--json', '--fields', 'uri']);
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(stdoutJson(listed).map((u: { uri: string }) => u.uri).sort(), users.map((id) => `/users/${id}`).sort());
    });

    it('follow remove unfollows users one request each; follow list shows a table, also for --user', async () => {
      const removed = await run(target, ['follow', 'remove', users[0], `/users/${users[1]}`]);
      assert.equal(removed.code, 0, removed.stderr);
      assert.match(removed.stderr, /^Unfollowed 2 users\.$/m);
      const table = await run(target, ['follow', 'list', '--per_page', '2']);
      assert.equal(table.code, 0, table.stderr);
      const rows = table.stdout.split('\n');
      assert.match(rows[0], /^URI +NAME +LOCATION$/);
      assert.equal(rows.length, 4);
      assert.match(table.stderr, /^page 1 of 124, 248 in all$/m);
      const theirs = await run(target, ['follow', 'list', '--user', `/users/${users[2]}`, '--json']);
      assert.equal(theirs.code, 0, theirs.stderr);
      assert.equal(stdoutJson(theirs).total, 0);
    });

    it('a chunk naming a missing user fails alone (400/2900) and is reported; the other chunks go through', async () => {
      const fresh = await seedUsers(target, 120);
      write(target, 'some.txt', [...fresh.slice(0, 100), '999999', ...fresh.slice(100)]);
      const added = await run(target, ['follow', 'add', '--from', 'some.txt', '--json']);
      assert.equal(added.code, 1);
      const report = stdoutJson(added);
      assert.deepEqual({ ...report, failures: undefined }, { done: 100, failed: 21, requests: 2, failures: undefined });
      assert.deepEqual(report.failures[0].task, ['999999', ...fresh.slice(100)]);
      assert.equal(report.failures[0].status, 400);
      assert.equal(report.failures[0].error.error_code, 2900);
      assert.match(added.stderr, new RegExp(`^users 999999…${fresh[119]} \\(21\\): error 2900 \\(HTTP 400\\): .*/users/999999`, 'm'));
      assert.match(added.stderr, /^Followed 100 users \(2 requests\)\.$/m);
    });

    it('an unreadable user reference is a usage error naming its line; nothing is sent', async () => {
      write(target, 'typo.txt', [users[0], 'not a user', '/videos/3']);
      const refused = await run(target, ['follow', 'add', '--from', 'typo.txt']);
      assert.equal(refused.code, 2);
      assert.equal(
        refused.stderr,
        'typo.txt:2: "not a user" is not a user id or URI\ntypo.txt:3: "/videos/3" is not a user id or URI\nerror: 2 user references are not readable; nothing was sent\n(add --help for usage)\n',
      );
      const none = await run(target, ['follow', 'add']);
      assert.equal(none.code, 2);
      assert.match(none.stderr, /^error: name at least one user$/m);
    });
  });

  describe(`tags (${name})`, () => {
    let target: Target;
    let videos: string[];
    before(async () => {
      target = await startTarget(name);
      videos = await createVideos(target, 40);
    });
    after(() => target.stop());

    it('tags add --videos FILE --tags a,b tags many videos, one request each; tags list shows them', async () => {
      write(target, 'ids.txt', videos.slice(1).map((id, i) => (i % 3 === 0 ? `/videos/${id}` : id)));
      const added = await run(target, ['tags', 'add', '--videos', 'ids.txt', '--video', videos[0], '--tags', 'night sky, stars,stars', '--json']);
      assert.equal(added.code, 0, added.stderr);
      assert.deepEqual(stdoutJson(added), { done: 40, failed: 0, requests: 40, failures: [] });
      assert.match(added.stderr, /^Tagged 40 videos with night sky, stars\.$/m);
      if (name === 'http') for (const id of [videos[0], videos[39]]) assert.equal(target.requests('PUT', `/videos/${id}/tags`), 1);

      for (const id of [videos[0], videos[17], videos[39]]) {
        const listed = await run(target, ['tags', 'list', '--video', id, '--json']);
        assert.equal(listed.code, 0, listed.stderr);
        assert.deepEqual(stdoutJson(listed).data.map((t: { name: string }) => t.name), ['night sky', 'stars']);
      }
      const table = await run(target, ['tags', 'list', '--video', `/videos/${videos[5]}`]);
      assert.equal(table.stdout, 'NAME       CANONICAL  URI\nnight sky  night sky  /tags/night%20sky\nstars      stars      /tags/stars\n');
    });

    it('tags remove takes tags off many videos; a missing video is reported and the rest go through', async () => {
      write(target, 'some.txt', [...videos.slice(0, 10), '987654']);
      const removed = await run(target, ['tags', 'remove', '--videos', 'some.txt', '--tags', 'stars']);
      assert.equal(removed.code, 1);
      assert.match(removed.stderr, /^video 987654, tag "stars": error 5000 \(HTTP 404\)/m);
      assert.match(removed.stderr, /^Removed 10 tags \(stars from 11 videos\)\.$/m);
      const listed = await run(target, ['tags', 'list', '--video', videos[3], '--json']);
      assert.deepEqual(stdoutJson(listed).data.map((t: { name: string }) => t.name), ['night sky']);
      const kept = await run(target, ['tags', 'list', '--video', videos[20], '--json']);
      assert.deepEqual(stdoutJson(kept).data.map((t: { name: string }) => t.name), ['night sky', 'stars']);
    });

    it('refuses bad --tags and video references before sending anything', async () => {
      const slash = await run(target, ['tags', 'add', '--video', videos[0], '--tags', 'a/b']);
      assert.equal(slash.code, 2);
      assert.match(slash.stderr, /^error: --tags: "a\/b" contains "\/", which a tag cannot$/m);
      const empty = await run(target, ['tags', 'add', '--video', videos[0], '--tags', ' , ']);
      assert.equal(empty.code, 2);
      const bad = await run(target, ['tags', 'add', '--video', 'seven', '--tags', 'a']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /^argument: "seven" is not a video id or URI$/m);
    });
  });
}

describe('follow add under the follow rate limit (http, clock injected)', () => {
  let target: Target;
  let users: string[];
  let time = Date.parse('2026-03-04T05:06:07Z');
  const waits: number[] = [];
  // The CLI's back-off moves the server's clock: no test waits a real minute.
  const clock: Clock = {
    now: () => time,
    async sleep(ms) {
      waits.push(ms);
      time += ms;
    },
  };
  before(async () => {
    target = await startTarget('http', { clock: () => new Date(time), config: { followRateLimit: { max: 100, windowSeconds: 60 } } });
    users = await seedUsers(target, 250);
  });
  after(() => target.stop());

  it('waits out 429/9006 for its Retry-After and finishes every chunk', async () => {
    write(target, 'users.txt', users);
    const added = await run(target, ['follow', 'add', '--from', 'users.txt'], { clock });
    assert.equal(added.code, 0, added.stderr);
    // 100 follow, then each later chunk meets the limit once and goes through a minute later.
    assert.deepEqual(waits, [60_000, 60_000]);
    assert.equal(target.requests('POST', '/me/following'), 5);
    assert.match(added.stderr, /^follow: waiting 1m00s: rate limited \(429\), retry 1 of 5$/m);
    assert.match(added.stderr, /^Followed 250 users \(5 requests\)\.$/m);
  });
});
