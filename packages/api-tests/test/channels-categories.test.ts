import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';
import { appoint, channelTotals, createChannel, subscribe } from '../src/channels';

const slugs = (r: Answer): string[] => r.body.data.map((c: { uri: string }) => c.uri.split('/').pop());
const names = (r: Answer): string[] => r.body.data.map((c: { name: string }) => c.name);

for (const driver of drivers) {
  describe(`channel categories (${driver.name})`, () => {
    let h: Harness;
    let owner: Fixture;
    let mod: Fixture;
    let stranger: Fixture;
    const categoriesOf = async (id: string) => slugs(await h.call('GET', `/channels/${id}/categories`, { token: owner.token }));
    before(async () => {
      h = await Harness.start(driver);
      owner = await h.user('Owner');
      mod = await h.user('Mod');
      stranger = await h.user('Stranger');
    });
    after(() => h.stop());

    describe('PUT and GET /channels/{channel_id}/categories', () => {
      it('replaces the categories with those `channels` lists (204) and lists them as Categories', async () => {
        const id = await createChannel(h, owner, 'Sorted');
        const r = await h.call('PUT', `/channels/${id}/categories`, { token: owner.token, json: { channels: ['/categories/music', 'sports'] } });
        assert.equal(r.status, 204, r.text);
        const list = await h.call('GET', `/channels/${id}/categories`);
        assert.equal(list.status, 200, list.text);
        assert.equal(list.headers.get('content-type'), 'application/vnd.reelbase.category+json;version=3.4');
        assert.equal(list.body.total, 2);
        assert.deepEqual(slugs(list), ['music', 'sports']);
        assert.equal(list.body.data[0].name, 'Music');
        const channel = (await h.call('GET', `/channels/${id}`)).body;
        assert.deepEqual(channel.categories.map((c: { uri: string }) => c.uri), ['/categories/music', '/categories/sports']);
        assert.equal(channel.metadata.connections.categories.total, 2);
        const form = await h.call('PUT', `/channels/${id}/categories`, { token: owner.token, form: { channels: '/categories/travel' } });
        assert.equal(form.status, 204, form.text);
        assert.deepEqual(await categoriesOf(id), ['travel']);
      });

      it('lets a moderator set them, and answers 403/3200 to anyone else, 401/8003 anonymously', async () => {
        const id = await createChannel(h, owner, 'Shared');
        await appoint(h, owner, id, mod);
        assert.equal((await h.call('PUT', `/channels/${id}/categories`, { token: mod.token, json: { channels: ['food'] } })).status, 204);
        expectError(await h.call('PUT', `/channels/${id}/categories`, { token: stranger.token, json: { channels: ['art'] } }), 403, 3200);
        expectError(await h.call('PUT', `/channels/${id}/categories`, { json: { channels: ['art'] } }), 401, 8003);
        assert.deepEqual(await categoriesOf(id), ['food']);
      });

      it('answers 400/2205 without `channels` or for a body it cannot read, 400/2204 beyond the maximum, and changes nothing', async () => {
        const id = await createChannel(h, owner, 'Limited');
        await h.call('PUT', `/channels/${id}/categories`, { token: owner.token, json: { channels: ['comedy'] } });
        const put = (o: Parameters<Harness['call']>[2]) => h.call('PUT', `/channels/${id}/categories`, { token: owner.token, ...o });
        expectError(await put({}), 400, 2205);
        expectError(await put({ json: {} }), 400, 2205);
        expectError(await put({ json: ['music'] }), 400, 2205);
        expectError(await put({ raw: '{"channels":', headers: { 'content-type': 'application/json' } }), 400, 2205);
        expectError(await put({ json: { channels: ['music', 'sports', 'travel'] } }), 400, 2204, 'channels');
        expectError(await put({ json: { channels: 5 } }), 400, 2204, 'channels');
        expectError(await put({ json: { channels: ['/categories/nope'] } }), 404, 5000);
        assert.deepEqual(await categoriesOf(id), ['comedy']);
      });

      it('answers 404 for a missing or hidden channel', async () => {
        const hidden = await createChannel(h, owner, 'Secret', { privacy: 'moderators' });
        expectError(await h.call('GET', '/channels/999999/categories'), 404, 5000);
        expectError(await h.call('GET', `/channels/${hidden}/categories`, { token: stranger.token }), 404, 5000);
        expectError(await h.call('PUT', '/channels/999999/categories', { token: owner.token, json: { channels: ['music'] } }), 404, 5000);
      });
    });

    describe('PUT and DELETE /channels/{channel_id}/categories/{category}', () => {
      it('puts the channel in a category (204), by slug or name, and takes it out (204)', async () => {
        const id = await createChannel(h, owner, 'One by one');
        assert.equal((await h.call('PUT', `/channels/${id}/categories/music`, { token: owner.token })).status, 204);
        assert.equal((await h.call('PUT', `/channels/${id}/categories/music`, { token: owner.token })).status, 204);
        assert.equal((await h.call('PUT', `/channels/${id}/categories/Sports`, { token: owner.token })).status, 204);
        assert.deepEqual(await categoriesOf(id), ['music', 'sports']);
        const del = await h.call('DELETE', `/channels/${id}/categories/music`, { token: owner.token });
        assert.equal(del.status, 204, del.text);
        assert.equal((await h.call('DELETE', `/channels/${id}/categories/music`, { token: owner.token })).status, 204);
        assert.deepEqual(await categoriesOf(id), ['sports']);
      });

      it('answers 400/2204 beyond the maximum, 404 for a missing category or channel, 403/3200, 401/8003', async () => {
        const id = await createChannel(h, owner, 'Full');
        await h.call('PUT', `/channels/${id}/categories`, { token: owner.token, json: { channels: ['music', 'sports'] } });
        expectError(await h.call('PUT', `/channels/${id}/categories/travel`, { token: owner.token }), 400, 2204, 'category');
        expectError(await h.call('PUT', `/channels/${id}/categories/nope`, { token: owner.token }), 404, 5000);
        expectError(await h.call('PUT', '/channels/999999/categories/music', { token: owner.token }), 404, 5000);
        expectError(await h.call('PUT', `/channels/${id}/categories/art`, { token: stranger.token }), 403, 3200);
        expectError(await h.call('DELETE', `/channels/${id}/categories/music`, { token: stranger.token }), 403, 3200);
        expectError(await h.call('DELETE', `/channels/${id}/categories/nope`, { token: owner.token }), 404, 5000);
        expectError(await h.call('DELETE', `/channels/${id}/categories/music`), 401, 8003);
        expectError(await h.call('PUT', `/channels/${id}/categories/music`), 401, 8003);
        assert.deepEqual(await categoriesOf(id), ['music', 'sports']);
      });
    });

    describe('GET /categories/{category}/channels', () => {
      let h2: Harness;
      let owner2: Fixture;
      before(async () => {
        h2 = await Harness.start(driver);
        owner2 = await h2.user('Owner');
        const fan = await h2.user('Fan');
        for (const [name, categories, fans] of [['rock', ['music'], 1], ['Jazz', ['live-music'], 0], ['Gigs', ['music', 'travel'], 0], ['Trips', ['travel'], 0]] as const) {
          h2.clock.advance(60);
          const id = await createChannel(h2, owner2, name, { description: name === 'Gigs' ? 'concert diaries' : '' });
          await h2.call('PUT', `/channels/${id}/categories`, { token: owner2.token, json: { channels: categories } });
          if (fans) await subscribe(h2, fan, id);
        }
        const hidden = await createChannel(h2, owner2, 'Hidden music', { privacy: 'moderators' });
        await h2.call('PUT', `/channels/${hidden}/categories`, { token: owner2.token, json: { channels: ['music'] } });
      });
      after(() => h2.stop());

      it('lists the channels in the category or its subcategories that the caller may see, the newest first', async () => {
        const r = await h2.call('GET', '/categories/music/channels');
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.channel+json;version=3.4');
        assert.deepEqual(names(r), ['Gigs', 'Jazz', 'rock']);
        assert.deepEqual(names(await h2.call('GET', '/categories/Music/channels', { token: owner2.token })), ['Hidden music', 'Gigs', 'Jazz', 'rock']);
        assert.deepEqual(names(await h2.call('GET', '/categories/live-music/channels')), ['Jazz']);
        assert.deepEqual(names(await h2.call('GET', '/categories/travel/channels')), ['Trips', 'Gigs']);
      });

      it('sorts, searches and pages', async () => {
        assert.deepEqual(names(await h2.call('GET', '/categories/music/channels?sort=alphabetical')), ['Gigs', 'Jazz', 'rock']);
        assert.deepEqual(names(await h2.call('GET', '/categories/music/channels?sort=followers')), ['rock', 'Jazz', 'Gigs']);
        assert.deepEqual(names(await h2.call('GET', '/categories/music/channels?sort=date&direction=asc')), ['rock', 'Jazz', 'Gigs']);
        assert.deepEqual(names(await h2.call('GET', '/categories/music/channels?sort=videos&direction=asc&per_page=1&page=2')), ['Jazz']);
        assert.deepEqual(names(await h2.call('GET', '/categories/music/channels?query=CONCERT')), ['Gigs']);
      });

      it('answers 404 for an unknown category and 400 for a sort it does not list', async () => {
        expectError(await h2.call('GET', '/categories/nope/channels'), 404, 5000);
        expectError(await h2.call('GET', '/categories/music/channels?sort=relevant'), 400, 2204, 'sort');
      });
    });

    describe('channel tags', () => {
      const tagsOf = async (id: string) => (await h.call('GET', `/channels/${id}/tags`, { token: owner.token })).body.data.map((t: { name: string }) => t.name);

      it('adds a list of tags (200 with the Tags) as `tag` or a JSON list, skipping those already there', async () => {
        const id = await createChannel(h, owner, 'Tagged');
        const r = await h.call('PUT', `/channels/${id}/tags`, { token: owner.token, json: { tag: ['Surf', '  Big   Waves '] } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.tag+json;version=3.4');
        assert.deepEqual(r.body.map((t: { name: string; canonical: string; uri: string }) => [t.name, t.canonical, t.uri]), [
          ['Surf', 'surf', '/tags/surf'],
          ['Big Waves', 'big waves', '/tags/big%20waves'],
        ]);
        const list = await h.call('PUT', `/channels/${id}/tags`, { token: owner.token, json: [{ tag: 'SURF' }, { name: 'reef' }, 'dawn'] });
        assert.equal(list.status, 200, list.text);
        assert.equal(list.body.length, 4);
        const form = await h.call('PUT', `/channels/${id}/tags`, { token: owner.token, form: { tag: 'dusk,dawn' } });
        assert.equal(form.status, 200, form.text);
        const get = await h.call('GET', `/channels/${id}/tags`);
        assert.equal(get.status, 200, get.text);
        assert.equal(get.body.total, 5);
        assert.deepEqual(get.body.data.map((t: { name: string }) => t.name), ['Surf', 'Big Waves', 'reef', 'dawn', 'dusk']);
        assert.equal((await channelTotals(h, owner, id)).tags, 5);
        assert.deepEqual((await h.call('GET', `/channels/${id}`)).body.tags.map((t: { canonical: string }) => t.canonical), ['surf', 'big waves', 'reef', 'dawn', 'dusk']);
        assert.equal((await h.call('GET', '/tags/reef')).status, 200);
      });

      it('answers 400/2501 beyond 20 tags, 400/2205 without a body, 400 naming a bad tag, and changes nothing', async () => {
        const id = await createChannel(h, owner, 'Crowded');
        await h.call('PUT', `/channels/${id}/tags`, { token: owner.token, json: { tag: Array.from({ length: 19 }, (_, i) => `t${i}`) } });
        const put = (o: Parameters<Harness['call']>[2]) => h.call('PUT', `/channels/${id}/tags`, { token: owner.token, ...o });
        expectError(await put({ json: { tag: ['one', 'two'] } }), 400, 2501);
        assert.equal((await h.call('PUT', `/channels/${id}/tags/twentieth`, { token: owner.token })).status, 204);
        expectError(await h.call('PUT', `/channels/${id}/tags/one-more`, { token: owner.token }), 400, 2501);
        assert.equal((await h.call('PUT', `/channels/${id}/tags/T0`, { token: owner.token })).status, 204);
        expectError(await put({}), 400, 2205);
        expectError(await put({ json: {} }), 400, 2205);
        expectError(await put({ json: [] }), 400, 2205);
        expectError(await put({ raw: '{"tag":', headers: { 'content-type': 'application/json' } }), 400, 2205);
        expectError(await put({ json: { tag: ['ok', 'bad/word'] } }), 400, 2204, 'tag.1');
        expectError(await put({ json: { tag: 7 } }), 400, 2204, 'tag');
        assert.equal((await tagsOf(id)).length, 20);
      });

      it('checks one tag (204, or 404/5000 when the channel does not carry it) and takes one off (204)', async () => {
        const id = await createChannel(h, owner, 'Checked');
        await h.call('PUT', `/channels/${id}/tags`, { token: owner.token, json: { tag: ['Night Sky'] } });
        assert.equal((await h.call('GET', `/channels/${id}/tags/night%20sky`)).status, 204);
        expectError(await h.call('GET', `/channels/${id}/tags/day`), 404, 5000);
        expectError(await h.call('GET', `/channels/${id}/tags/${'x'.repeat(101)}`), 400, 2204, 'word');
        expectError(await h.call('GET', `/channels/${id}/tags/night?sort=1`), 400, 2204, 'sort');
        assert.equal((await h.call('DELETE', `/channels/${id}/tags/NIGHT%20SKY`, { token: owner.token })).status, 204);
        assert.equal((await h.call('DELETE', `/channels/${id}/tags/night%20sky`, { token: owner.token })).status, 204);
        assert.deepEqual(await tagsOf(id), []);
      });

      it('answers 400 for a channel that cannot be found, 403/3200 to a non-moderator, 401/8003 anonymously', async () => {
        const id = await createChannel(h, owner, 'Guarded tags');
        await appoint(h, owner, id, mod);
        const hidden = await createChannel(h, owner, 'Hidden tags', { privacy: 'moderators' });
        expectError(await h.call('GET', '/channels/999999/tags'), 400, 2204, 'channel_id');
        expectError(await h.call('GET', `/channels/${hidden}/tags`, { token: stranger.token }), 400, 2204, 'channel_id');
        expectError(await h.call('GET', '/channels/999999/tags/word'), 400, 2204, 'channel_id');
        expectError(await h.call('PUT', '/channels/999999/tags', { token: owner.token, json: { tag: ['a'] } }), 400, 2204, 'channel_id');
        expectError(await h.call('PUT', '/channels/999999/tags/a', { token: owner.token }), 400, 2204, 'channel_id');
        expectError(await h.call('PUT', `/channels/${id}/tags`, { token: stranger.token, json: { tag: ['a'] } }), 403, 3200);
        expectError(await h.call('PUT', `/channels/${id}/tags/a`, { token: stranger.token }), 403, 3200);
        expectError(await h.call('DELETE', `/channels/${id}/tags/a`, { token: stranger.token }), 403, 3200);
        expectError(await h.call('PUT', `/channels/${id}/tags/a`), 401, 8003);
        expectError(await h.call('PUT', `/channels/${id}/tags/a`, { token: owner.token, json: { extra: 1 } }), 400, 2204, 'extra');
        assert.equal((await h.call('PUT', `/channels/${id}/tags/a`, { token: mod.token })).status, 204);
        assert.deepEqual(await tagsOf(id), ['a']);
      });
    });

    describe('private channel users', () => {
      it('lists (owner only) and adds the users who may view a users channel', async () => {
        const id = await createChannel(h, owner, 'Members', { privacy: 'user' });
        const [ann, ben] = [await h.user('Ann'), await h.user('Ben')];
        expectError(await h.call('GET', `/channels/${id}`, { token: ann.token }), 404, 5000);
        const one = await h.call('PUT', `/channels/${id}/privacy/users/${ann.user.id}`, { token: owner.token });
        assert.equal(one.status, 200, one.text);
        assert.equal(one.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
        assert.equal(one.body.uri, `/users/${ann.user.id}`);
        h.clock.advance(60);
        const many = await h.call('PUT', `/channels/${id}/privacy/users`, { token: owner.token, json: { users: [`/users/${ben.user.id}`, ann.user.id] } });
        assert.equal(many.status, 200, many.text);
        assert.deepEqual(many.body.map((u: { name: string }) => u.name), ['Ben', 'Ann']);
        const list = await h.call('GET', `/channels/${id}/privacy/users`, { token: owner.token });
        assert.equal(list.status, 200, list.text);
        assert.deepEqual(names(list), ['Ben', 'Ann']);
        assert.deepEqual(names(await h.call('GET', `/channels/${id}/privacy/users?direction=asc`, { token: owner.token })), ['Ann', 'Ben']);
        assert.equal((await channelTotals(h, owner, id)).privacy_users, 2);
        assert.equal((await h.call('GET', `/channels/${id}`, { token: ann.token })).status, 200);
        assert.deepEqual(names(await h.call('GET', '/channels', { token: ben.token })).includes('Members'), true);
      });

      it('answers 401/8003, 403/3200 to a non-owner, 404/2204 for a channel of another type, 400/2205, 400/2900', async () => {
        const id = await createChannel(h, owner, 'Members strict', { privacy: 'user' });
        const open = await createChannel(h, owner, 'Open to all');
        await appoint(h, owner, id, mod);
        const ann = await h.user('Ann two');
        expectError(await h.call('GET', `/channels/${id}/privacy/users`), 401, 8003);
        expectError(await h.call('GET', `/channels/${id}/privacy/users`, { token: mod.token }), 403, 3200);
        expectError(await h.call('PUT', `/channels/${id}/privacy/users/${ann.user.id}`, { token: mod.token }), 403, 3200);
        expectError(await h.call('PUT', `/channels/${id}/privacy/users`, { token: mod.token, json: { users: [ann.user.id] } }), 403, 3200);
        expectError(await h.call('GET', `/channels/${open}/privacy/users`, { token: owner.token }), 404, 2204);
        expectError(await h.call('PUT', `/channels/${open}/privacy/users/${ann.user.id}`, { token: owner.token }), 404, 2204);
        expectError(await h.call('PUT', `/channels/${open}/privacy/users`, { token: owner.token, json: { users: [ann.user.id] } }), 404, 2204);
        expectError(await h.call('PUT', `/channels/${id}/privacy/users`, { token: owner.token }), 400, 2205);
        expectError(await h.call('PUT', `/channels/${id}/privacy/users`, { token: owner.token, json: [ann.user.id] }), 400, 2205);
        expectError(await h.call('PUT', `/channels/${id}/privacy/users`, { token: owner.token, json: { users: [ann.user.id, '/users/999999'] } }), 400, 2900, 'users');
        expectError(await h.call('PUT', `/channels/${id}/privacy/users`, { token: owner.token, json: { users: ['not a uri'] } }), 400, 2204, 'users');
        expectError(await h.call('PUT', `/channels/${id}/privacy/users/999999`, { token: owner.token }), 404, 5000);
        expectError(await h.call('GET', '/channels/999999/privacy/users', { token: owner.token }), 404, 5000);
        assert.equal((await h.call('GET', `/channels/${id}/privacy/users`, { token: owner.token })).body.total, 0);
      });
    });
  });
}
