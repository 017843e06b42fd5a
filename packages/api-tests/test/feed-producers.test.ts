import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createGroup, joinGroup } from '../src/groups';
import { publishedPage, readyPage } from '../src/ondemand';
import { drivers, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`feed items from likes, group videos and On Demand publishing (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let carol: Fixture;
    const feed = async (type: string) => (await h.call('GET', `/me/feed?type=${type}`, { token: alice.token })).body;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      carol = await h.user('Carol');
    });
    after(() => h.stop());

    it("a like by someone the reader follows appears, and goes when it is taken back", async () => {
      await h.follow(alice, bob);
      const video = await h.video(carol);
      h.clock.advance(30);
      assert.equal((await h.call('PUT', `/me/likes/${video}`, { token: bob.token })).status, 204);
      const items = await feed('likes');
      assert.equal(items.total, 1);
      assert.equal(items.data[0].type, 'likes');
      assert.equal(items.data[0].clip.uri, `/videos/${video}`);
      assert.equal(items.data[0].user.uri, `/users/${bob.user.id}`);
      assert.equal((await h.call('DELETE', `/me/likes/${video}`, { token: bob.token })).status, 204);
      assert.equal((await feed('likes')).total, 0);
    });

    it("publishing an On Demand page reaches the followers of its owner through its main video", async () => {
      const dave = await h.user('Dave');
      await h.follow(alice, dave);
      const page = await publishedPage(h, dave);
      const items = await feed('ondemand_publish');
      assert.equal(items.total, 1, JSON.stringify(items));
      assert.equal(items.data[0].type, 'ondemand_publish');
      assert.equal(items.data[0].user.uri, `/users/${dave.user.id}`);
      assert.deepEqual(items.data[0].ondemand, { uri: `/ondemand/pages/${page}` });
    });

    it('a pre-order reaches the feed when its publish time passes, though nobody read the page meanwhile', async () => {
      const erin = await h.user('Erin');
      await h.follow(alice, erin);
      const page = await readyPage(h, erin);
      const at = new Date(h.clock.time + 3600 * 1000).toISOString();
      const r = await h.call('PATCH', `/ondemand/pages/${page}`, { token: erin.token, json: { preorder: { active: true, publish_time: at } } });
      assert.equal(r.status, 200, r.text);
      const before = (await feed('ondemand_publish')).total;
      h.clock.advance(3601);
      const items = await feed('ondemand_publish');
      assert.equal(items.total, before + 1);
      assert.equal(items.data[0].user.uri, `/users/${erin.user.id}`);
      assert.deepEqual(items.data[0].ondemand, { uri: `/ondemand/pages/${page}` });
    });

    it('a video added to a group reaches its other members, and goes when removed', async () => {
      const group = await createGroup(h, carol, 'Makers');
      await joinGroup(h, alice, group);
      await joinGroup(h, bob, group);
      const video = await h.video(bob);
      assert.equal((await h.call('PUT', `/groups/${group}/videos/${video}`, { token: bob.token })).status, 200);
      const items = await feed('group');
      assert.equal(items.total, 1);
      assert.equal(items.data[0].clip.uri, `/videos/${video}`);
      assert.deepEqual(items.data[0].group, { uri: `/groups/${group}` });
      assert.equal(items.data[0].user.uri, `/users/${bob.user.id}`);
      assert.equal((await h.call('GET', '/me/feed?type=group', { token: bob.token })).body.total, 0);
      assert.equal((await h.call('DELETE', `/groups/${group}/videos/${video}`, { token: bob.token })).status, 204);
      assert.equal((await feed('group')).total, 0);
    });
  });
}
