import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { where, type UserRecord, type VideoRecord } from '@reelbase/core';
import { drivers, Harness, type Fixture } from '../src/index';

/**
 * 100 concurrent clients over HTTP (Promise.all) liking, following, commenting on and tagging
 * the same objects: afterwards every counter equals its membership count, with no lost updates
 * and no duplicates, on every driver.
 */
const CLIENTS = 100;

for (const driver of drivers) {
  describe(`${CLIENTS} concurrent clients on the same objects (${driver.name})`, () => {
    let h: Harness;
    let owner: Fixture;
    let clients: Fixture[];
    let video: string;
    before(async () => {
      h = await Harness.start(driver);
      owner = await h.user('Popular');
      clients = [];
      for (let i = 0; i < CLIENTS; i++) clients.push(await h.user(`Fan ${i}`));
      video = await h.video(owner, { name: 'Viral' });
    });
    after(() => h.stop());

    const all = async (requests: Promise<{ status: number; text: string }>[], ok: number[]): Promise<void> => {
      const answers = await Promise.all(requests);
      for (const r of answers) assert.ok(ok.includes(r.status), `${r.status} ${r.text.slice(0, 200)}`);
    };
    const store = () => h.service.store;

    it('likes: each client likes twice at once → exactly one like each, likes_total exact', async () => {
      await all(
        clients.flatMap((c) => [h.call('PUT', `/me/likes/${video}`, { token: c.token }), h.call('PUT', `/me/likes/${video}`, { token: c.token })]),
        [204],
      );
      assert.equal(await store().count('likes', where({ video_id: video })), CLIENTS);
      assert.equal((await store().get<VideoRecord>('videos', video))!.likes_total, CLIENTS);
      assert.equal((await h.call('GET', `/videos/${video}/likes?per_page=1`)).body.total, CLIENTS);
      // And all unlike at once, twice.
      await all(
        clients.flatMap((c) => [h.call('DELETE', `/me/likes/${video}`, { token: c.token }), h.call('DELETE', `/me/likes/${video}`, { token: c.token })]),
        [204, 404],
      );
      assert.equal(await store().count('likes', where({ video_id: video })), 0);
      assert.equal((await store().get<VideoRecord>('videos', video))!.likes_total, 0);
    });

    it('follows: each client follows the owner twice at once → followers_total exact', async () => {
      await all(
        clients.flatMap((c) => [
          h.call('PUT', `/me/following/${owner.user.id}`, { token: c.token }),
          h.call('PUT', `/me/following/${owner.user.id}`, { token: c.token }),
        ]),
        [204],
      );
      assert.equal(await store().count('follows', where({ target_id: owner.user.id })), CLIENTS);
      assert.equal((await store().get<UserRecord>('users', owner.user.id))!.followers_total, CLIENTS);
      assert.equal((await h.call('GET', `/users/${owner.user.id}/followers?per_page=1`)).body.total, CLIENTS);
    });

    it('comments: each client comments at once, and replies to the first → comments_total exact', async () => {
      await all(clients.map((c, i) => h.call('POST', `/videos/${video}/comments`, { token: c.token, json: { text: `comment ${i}` } })), [201]);
      const first = (await store().find('comments', { where: where({ video_id: video }), limit: 1 })).items[0];
      await all(
        clients.map((c, i) => h.call('POST', `/videos/${video}/comments/${first.id}/replies`, { token: c.token, json: { text: `reply ${i}` } })),
        [201],
      );
      const stored = await store().count('comments', where({ video_id: video }));
      assert.equal(stored, 2 * CLIENTS);
      assert.equal((await store().get<VideoRecord>('videos', video))!.comments_total, stored);
      const listed = await h.call('GET', `/videos/${video}/comments?per_page=1`);
      assert.equal(listed.status, 200);
      assert.equal((await h.call('GET', `/videos/${video}`)).body.metadata.connections.comments.total, stored);
    });

    it('tags: the owner adds the same 20 tags from 100 requests at once → 20 tags, no duplicates', async () => {
      await all(
        clients.map((_, i) => h.call('PUT', `/videos/${video}/tags/word${i % 20}`, { token: owner.token })),
        [200, 201, 204],
      );
      const rows = (await store().find<{ id: string; tag: string }>('video_tags', { where: where({ video_id: video }) })).items;
      assert.equal(rows.length, 20);
      assert.equal(new Set(rows.map((r) => r.tag)).size, 20);
      const listed = (await h.call('GET', `/videos/${video}/tags`)).body;
      assert.equal(Array.isArray(listed) ? listed.length : listed.total, 20);
    });

    it('watch later and channel subscriptions from everyone at once are exact', async () => {
      const channel = String((await h.call('POST', '/channels', { token: owner.token, json: { name: 'Busy', privacy: 'anybody' } })).body.uri).split('/').pop()!;
      await all(
        clients.flatMap((c) => [
          h.call('PUT', `/me/channels/${channel}`, { token: c.token }),
          h.call('PUT', `/me/channels/${channel}`, { token: c.token }),
          h.call('PUT', `/me/watchlater/${video}`, { token: c.token }),
        ]),
        [204],
      );
      assert.equal((await h.call('GET', `/channels/${channel}/users?per_page=1`)).body.total, CLIENTS + (await ownerFollows(h, owner, channel)));
      assert.equal(await store().count('watchlater', where({ video_id: video })), CLIENTS);
    });
  });
}

/** Whether the channel's owner counts among its followers (1) or not (0). */
async function ownerFollows(h: Harness, owner: Fixture, channel: string): Promise<number> {
  return (await h.call('GET', `/me/channels/${channel}`, { token: owner.token })).status === 204 ? 1 : 0;
}
