import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eq, schema, type Doc, type Store } from '@reelbase/core';
import { openJsonStore } from '@reelbase/store-json';
import { openSqliteStore } from '@reelbase/store-sqlite';
import { cli, stdoutJson, useTempDir } from './cli-harness';

const all = async (store: Store, collection: string): Promise<Doc[]> => (await store.find(collection)).items;

/** How many rows of `rows` name each value of `field`. */
function tally(rows: Doc[], field: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(String(row[field]), (counts.get(String(row[field])) ?? 0) + 1);
  return counts;
}

/** Asserts that every counter a record carries equals the rows it counts. */
async function assertConsistent(store: Store): Promise<void> {
  const [users, videos, follows, likes, comments, channels, channelVideos, channelFollowers, videoTags, moderators] = await Promise.all(
    ['users', 'videos', 'follows', 'likes', 'comments', 'channels', 'channel_videos', 'channel_followers', 'video_tags', 'channel_moderators'].map((c) => all(store, c)),
  );
  const checks: [Doc[], string, Map<string, number>][] = [
    [users, 'videos_total', tally(videos, 'user_id')],
    [users, 'followers_total', tally(follows, 'target_id')],
    [users, 'following_total', tally(follows, 'user_id')],
    [users, 'likes_total', tally(likes, 'user_id')],
    [users, 'channels_total', tally(channelFollowers, 'user_id')],
    [videos, 'likes_total', tally(likes, 'video_id')],
    [videos, 'comments_total', tally(comments, 'video_id')],
    [comments, 'replies_total', tally(comments, 'parent_id')],
    [channels, 'videos_total', tally(channelVideos, 'channel_id')],
    [channels, 'followers_total', tally(channelFollowers, 'channel_id')],
    [channels, 'moderators_total', tally(moderators, 'channel_id')],
  ];
  for (const [records, counter, counted] of checks) {
    for (const record of records) assert.equal(record[counter], counted.get(record.id) ?? 0, `${counter} of ${record.id}`);
  }
  const tagRows = new Map<string, string[]>();
  for (const row of videoTags) tagRows.set(String(row.video_id), [...(tagRows.get(String(row.video_id)) ?? []), String(row.tag)]);
  for (const video of videos) {
    assert.deepEqual((video.tags as { canonical: string }[]).map((t) => t.canonical).sort(), (tagRows.get(video.id) ?? []).sort(), `tags of video ${video.id}`);
  }
  for (const like of likes) assert.notEqual(videos.find((v) => v.id === like.video_id)?.user_id, like.user_id, 'nobody likes their own video');
  const times = (await all(store, 'activities')).sort((a, b) => Number(a.seq) - Number(b.seq)).map((a) => String(a.created_time));
  assert.deepEqual(times, [...times].sort(), 'feed events are numbered in the order they happened');
}

for (const driver of ['sqlite', 'json'] as const) {
  describe(`reelbase seed on ${driver}`, () => {
    const temp = useTempDir();
    const file = driver === 'sqlite' ? 'seeded.db' : 'seeded.json';
    const spec = `${driver}:./data/${file}`;
    const open = () => (driver === 'sqlite' ? openSqliteStore({ schema, path: join(temp.dir, 'data', file) }) : openJsonStore({ schema, path: join(temp.dir, 'data', file) }));

    it('writes the population asked for, every counter consistent, into a store that already has a user', async () => {
      assert.equal((await cli(['users', 'create', '--name', 'Existing', '--store', spec], { cwd: temp.dir })).code, 0);
      const seeded = await cli(['seed', '--store', spec, '--users', '40', '--videos', '300', '--follows', '200', '--likes', '500', '--comments', '150', '--channels', '4', '--tags', '25', '--batch', '64', '--json'], { cwd: temp.dir });
      assert.equal(seeded.code, 0, seeded.stderr);
      const summary = stdoutJson(seeded);
      assert.deepEqual(
        [summary.users, summary.videos, summary.follows, summary.likes, summary.comments, summary.channels, summary.channelVideos, summary.channelFollows],
        [40, 300, 200, 500, 150, 4, 100, 78],
      );
      assert.match(seeded.stderr, /^videos: 300\/300/m);
      const store = await open();
      try {
        assert.equal(await store.count('users'), 41);
        assert.equal((await store.get('users', '1'))?.name, 'Existing');
        await assertConsistent(store);
        const busiest = await store.get('users', summary.busiest.user.id);
        assert.equal(busiest?.videos_total, summary.busiest.user.videos);
        assert.equal(await store.count('video_tags', eq('tag', summary.busiest.tag.word)), summary.busiest.tag.videos);
        // It had no videos before: every video carries its tags' text, so no start looks for any without.
        assert.equal((await store.get('upgrades', 'video-tag-names'))?.id, 'video-tag-names');
      } finally {
        await store.close();
      }
    });

    it('gives the same population for the same flags and seed', async () => {
      const flags = ['--users', '20', '--videos', '50', '--seed', '9', '--json'];
      const one = stdoutJson(await cli(['seed', '--store', `${driver}:./data/a-${file}`, ...flags], { cwd: temp.dir }));
      const two = stdoutJson(await cli(['seed', '--store', `${driver}:./data/b-${file}`, ...flags], { cwd: temp.dir }));
      const { milliseconds: _a, store: _s1, ...first } = one;
      const { milliseconds: _b, store: _s2, ...second } = two;
      assert.deepEqual(first, second);
    });
  });
}

describe('reelbase seed flags', () => {
  const temp = useTempDir();

  it('prints what it wrote and where to look', async () => {
    const r = await cli(['seed', '--store', 'sqlite::memory:', '--users', '30', '--videos', '1k', '--tags', 'Music,travel, food'], { cwd: temp.dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Seeded sqlite::memory: in /);
    assert.match(r.stdout, /^ {2}videos +1,000$/m);
    assert.match(r.stdout, /^ {2}tags +3$/m);
    assert.match(r.stdout, /^ {2}GET \/tags\/(music|travel|food)\/videos\?sort=name {2}\(\d[\d,]* videos\)$/m);
  });

  for (const [flags, message] of [
    [['--videos', 'lots'], /--videos: "lots" is not a whole number/],
    [['--users', '10', '--follows', '1000'], /--follows is at most 45 with 10 users, got 1000/],
    [['--users', '0', '--videos', '5'], /--videos is at most 0 without users, got 5/],
    [['--tags-per-video', '11'], /--tags-per-video must be between 0 and 10/],
    [['--batch', '0'], /--batch must be a whole number ≥ 1/],
    [['--channel-videos', '1.5'], /--channel-videos: "1.5" is not a whole number/],
    [['--tags', 'fine,bad/word'], /--tags: "bad\/word" must not contain/],
  ] as const) {
    it(`refuses ${flags.join(' ')} with a usage error naming the flag, writing nothing`, async () => {
      const r = await cli(['seed', '--store', 'sqlite:./data/refused.db', ...flags], { cwd: temp.dir });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(existsSync(join(temp.dir, 'data', 'refused.db')), false, 'the store was not even opened');
    });
  }
});
