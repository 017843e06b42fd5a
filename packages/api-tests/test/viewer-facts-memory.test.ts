// A viewer with more likes, queued and watched videos than are read whole has each video's facts
// remembered per video, and a list page's per page (core's represent-videos.ts): what they do shows
// on the next read at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, Harness, type Fixture } from '../src/index';

/** More than core reads whole (WHOLE_ROWS, 50): the counters are what it decides by. */
const many = { likes_total: 60, watchlater_total: 60, watched_total: 60 };

for (const driver of drivers) {
  describe(`GET /videos/{video_id} and a list page by a viewer with many likes and queued videos (${driver.name})`, () => {
    let h: Harness;
    let viewer: Fixture;
    let owner: Fixture;
    let first: string;
    let second: string;
    before(async () => {
      h = await Harness.start(driver);
      viewer = await h.user('Viewer', 'all', many);
      owner = await h.user('Owner');
      first = await h.video(owner, { name: 'First' });
      second = await h.video(owner, { name: 'Second' });
    });
    after(() => h.stop());

    const shown = async (video: string) => {
      const r = await h.call('GET', `/videos/${video}`, { token: viewer.token });
      assert.equal(r.status, 200, r.text);
      const { like, watchlater } = r.body.metadata.interactions;
      return { liked: like.added, queued: watchlater.added };
    };
    const send = async (method: string, path: string) => assert.equal((await h.call(method, path, { token: viewer.token })).status, 204);

    it('shows a like, a queued video and their removal on the very next read of each video', async () => {
      assert.deepEqual(await shown(first), { liked: false, queued: false });
      assert.deepEqual(await shown(first), { liked: false, queued: false });
      await send('PUT', `/me/likes/${first}`);
      assert.deepEqual(await shown(first), { liked: true, queued: false });
      assert.deepEqual(await shown(second), { liked: false, queued: false });
      await send('PUT', `/me/watchlater/${second}`);
      assert.deepEqual(await shown(second), { liked: false, queued: true });
      assert.deepEqual(await shown(first), { liked: true, queued: false });
      await send('DELETE', `/me/likes/${first}`);
      await send('DELETE', `/me/watchlater/${second}`);
      assert.deepEqual(await shown(first), { liked: false, queued: false });
      assert.deepEqual(await shown(second), { liked: false, queued: false });
    });

    it("shows a like and its removal on the very next read of a list page holding the video", async () => {
      const page = async () => {
        const r = await h.call('GET', `/users/${owner.user.id}/videos?sort=alphabetical&direction=asc`, { token: viewer.token });
        assert.equal(r.status, 200, r.text);
        return (r.body.data as { name: string; metadata: { interactions: { like: { added: boolean } } } }[]).map((clip) => [clip.name, clip.metadata.interactions.like.added]);
      };
      assert.deepEqual(await page(), [['First', false], ['Second', false]]);
      assert.deepEqual(await page(), [['First', false], ['Second', false]]);
      await send('PUT', `/me/likes/${second}`);
      assert.deepEqual(await page(), [['First', false], ['Second', true]]);
      await send('DELETE', `/me/likes/${second}`);
      assert.deepEqual(await page(), [['First', false], ['Second', false]]);
    });
  });
}
