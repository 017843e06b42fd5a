import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';
import { addVideo, appoint, channelsTotalOf, channelTotals, createChannel, subscribe } from '../src/channels';

const names = (r: Answer): string[] => r.body.data.map((c: { name: string }) => c.name);
const idOf = (r: Answer): string => String(r.body.uri).split('/').pop()!;

for (const driver of drivers) {
  describe(`channels (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let stranger: Fixture;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      stranger = await h.user('Stranger');
    });
    after(() => h.stop());

    describe('POST /channels', () => {
      it('creates a channel its creator owns, moderates and follows, answering 200 with the Channel', async () => {
        const before = await channelsTotalOf(h, alice);
        const r = await h.call('POST', '/channels', {
          token: alice.token,
          json: { name: 'Night Skies', description: 'Stars and such', privacy: 'anybody', link: 'night-skies' },
        });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.channel+json;version=3.4');
        const id = idOf(r);
        assert.match(r.body.uri, /^\/channels\/\d+$/);
        assert.equal(r.body.name, 'Night Skies');
        assert.equal(r.body.description, 'Stars and such');
        assert.equal(r.body.link, `${h.server.url}/channels/night-skies`);
        assert.deepEqual(r.body.privacy, { view: 'anybody' });
        assert.equal(r.body.created_time, '2026-01-02T03:04:05+00:00');
        assert.equal(r.body.modified_time, '2026-01-02T03:04:05+00:00');
        assert.equal(r.body.user.uri, `/users/${alice.user.id}`);
        assert.equal(r.body.header.type, 'default');
        assert.equal(r.body.pictures.type, 'default');
        assert.deepEqual(r.body.tags, []);
        assert.deepEqual(r.body.categories, []);
        assert.match(r.body.resource_key, /^[0-9a-f]{40}$/);
        const { connections, interactions } = r.body.metadata;
        assert.deepEqual(connections.users, { uri: `/channels/${id}/users`, options: ['GET'], total: 1 });
        assert.deepEqual(connections.moderators, { uri: `/channels/${id}/moderators`, options: ['GET', 'PUT', 'PATCH', 'DELETE'], total: 1 });
        assert.deepEqual(connections.videos, { uri: `/channels/${id}/videos`, options: ['GET', 'PUT', 'DELETE'], total: 0 });
        assert.deepEqual(connections.categories, { uri: `/channels/${id}/categories`, options: ['GET', 'PUT'], total: 0 });
        assert.deepEqual(connections.tags, { uri: `/channels/${id}/tags`, options: ['GET', 'PUT'], total: 0 });
        // Only a users channel has a view list: elsewhere the connection lists none and takes no method.
        assert.deepEqual(connections.privacy_users, { uri: `/channels/${id}/privacy/users`, options: [], total: 0 });
        assert.deepEqual(interactions, {
          add_moderators: { uri: `/channels/${id}/moderators`, options: ['GET', 'PUT', 'PATCH', 'DELETE'] },
          moderate_videos: { uri: `/channels/${id}/videos`, options: ['GET', 'PUT', 'DELETE'] },
          add_to: null,
          follow: {
            uri: `/users/${alice.user.id}/channels/${id}`,
            options: ['GET', 'PUT', 'DELETE'],
            added: true,
            added_time: '2026-01-02T03:04:05+00:00',
            type: 'moderator',
          },
        });
        assert.equal(await channelsTotalOf(h, alice), before + 1);
        const owner = (await h.call('GET', `/channels/${id}/moderators`)).body.data.map((u: { uri: string }) => u.uri);
        assert.deepEqual(owner, [`/users/${alice.user.id}`]);
      });

      it('takes privacy `user` at creation and shows it as `users`, with the view list connection', async () => {
        const r = await h.call('POST', '/channels', { token: alice.token, form: { name: 'Friends', privacy: 'user' } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.privacy.view, 'users');
        assert.equal(r.body.link, `${h.server.url}/channels/${idOf(r)}`);
        assert.deepEqual(r.body.metadata.connections.privacy_users, { uri: `/channels/${idOf(r)}/privacy/users`, options: ['GET', 'PUT'], total: 0 });
      });

      it('answers 400 naming the field for a missing or invalid one, and creates nothing', async () => {
        const before = await channelsTotalOf(h, bob);
        const count = (await h.call('GET', '/channels')).body.total;
        expectError(await h.call('POST', '/channels', { token: bob.token, json: { privacy: 'anybody' } }), 400, 2204, 'name');
        expectError(await h.call('POST', '/channels', { token: bob.token, json: { name: 'x' } }), 400, 2204, 'privacy');
        expectError(await h.call('POST', '/channels', { token: bob.token, json: { name: 'x', privacy: 'users' } }), 400, 2204, 'privacy');
        expectError(await h.call('POST', '/channels', { token: bob.token, json: { name: '', privacy: 'anybody' } }), 400, 2204, 'name');
        expectError(await h.call('POST', '/channels', { token: bob.token, json: { name: 'x', privacy: 'anybody', link: '12345' } }), 400, 2204, 'link');
        expectError(await h.call('POST', '/channels', { token: bob.token, json: { name: 'x', privacy: 'anybody', link: 'a b' } }), 400, 2204, 'link');
        expectError(await h.call('POST', '/channels', { token: bob.token, json: { name: 'x', privacy: 'anybody', link: 'night-skies' } }), 400, 2204, 'link');
        expectError(await h.call('POST', '/channels', { token: bob.token, raw: '{"name":', headers: { 'content-type': 'application/json' } }), 400, 2205);
        assert.equal(await channelsTotalOf(h, bob), before);
        assert.equal((await h.call('GET', '/channels')).body.total, count);
      });

      it('answers 403 to a user who cannot create channels, 401/8003 anonymously and 403 without the create scope', async () => {
        const unverified = await h.user('Unverified', 'all', { verified: false });
        expectError(await h.call('POST', '/channels', { token: unverified.token, json: { name: 'x', privacy: 'anybody' } }), 403, 3200);
        assert.equal(await channelsTotalOf(h, unverified), 0);
        const anonymous = await h.call('POST', '/channels', { json: { name: 'x', privacy: 'anybody' } });
        expectError(anonymous, 401, 8003);
        assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
        const noCreate = await h.user('NoCreate', 'public,private,edit,delete,interact,upload');
        expectError(await h.call('POST', '/channels', { token: noCreate.token, json: { name: 'x', privacy: 'anybody' } }), 403, 3200);
      });

      it('answers 201 and plain JSON before 3.2 (Versioning 3.2), with the header but without connections', async () => {
        const v31 = await h.call('POST', '/channels', { token: bob.token, json: { name: 'Old', privacy: 'anybody' }, version: '3.1' });
        assert.equal(v31.status, 201, v31.text);
        assert.equal(v31.headers.get('content-type'), 'application/json');
        assert.equal(v31.body.header.type, 'default');
        assert.equal(v31.body.metadata, undefined);
        const v32 = await h.call('POST', '/channels', { token: bob.token, json: { name: 'Newer', privacy: 'anybody' }, version: '3.2' });
        assert.equal(v32.status, 200, v32.text);
        assert.equal(v32.headers.get('content-type'), 'application/vnd.reelbase.channel+json;version=3.2');
        assert.equal(v32.body.metadata.connections.users.total, 1);
      });
    });

    describe('GET /channels/{channel_id}', () => {
      it('answers the channel by id or by its alias, and 404 for neither', async () => {
        const id = await createChannel(h, alice, 'Aliased', { link: 'aliased' });
        const byId = await h.call('GET', `/channels/${id}`);
        assert.equal(byId.status, 200, byId.text);
        assert.equal(byId.body.metadata.interactions.follow, undefined);
        const byAlias = await h.call('GET', '/channels/aliased', { token: bob.token });
        assert.equal(byAlias.status, 200);
        assert.equal(byAlias.body.uri, `/channels/${id}`);
        assert.equal(byAlias.body.metadata.interactions.follow.added, false);
        expectError(await h.call('GET', '/channels/999999'), 404, 5000);
        expectError(await h.call('GET', '/channels/no-such-alias'), 404, 5000);
      });

      it('shows a moderators channel only to its moderators, and a users channel also to its view list', async () => {
        const mods = await createChannel(h, alice, 'Mods only', { privacy: 'moderators' });
        const users = await createChannel(h, alice, 'Listed only', { privacy: 'user' });
        const mod = await h.user('Mod');
        const listed = await h.user('Listed');
        await appoint(h, alice, mods, mod);
        await appoint(h, alice, users, mod);
        const put = await h.call('PUT', `/channels/${users}/privacy/users/${listed.user.id}`, { token: alice.token });
        assert.equal(put.status, 200, put.text);
        const status = async (id: string, who?: Fixture) => (await h.call('GET', `/channels/${id}`, { token: who?.token })).status;
        assert.deepEqual(
          await Promise.all([undefined, stranger, listed, mod, alice].map((who) => status(mods, who))),
          [404, 404, 404, 200, 200],
        );
        assert.deepEqual(
          await Promise.all([undefined, stranger, listed, mod, alice].map((who) => status(users, who))),
          [404, 404, 200, 200, 200],
        );
      });
    });

    describe('PATCH /channels/{channel_id}', () => {
      it('edits name, description, privacy and alias, answering 200 with the Channel', async () => {
        const id = await createChannel(h, alice, 'Before', { link: 'before-alias' });
        h.clock.advance(60);
        const r = await h.call('PATCH', `/channels/${id}`, {
          token: alice.token,
          json: { name: 'After', description: 'Now described', privacy: 'users', link: 'after-alias' },
        });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.channel+json;version=3.4');
        assert.equal(r.body.name, 'After');
        assert.equal(r.body.description, 'Now described');
        assert.equal(r.body.privacy.view, 'users');
        assert.equal(r.body.link, `${h.server.url}/channels/after-alias`);
        assert.notEqual(r.body.modified_time, r.body.created_time);
        assert.equal((await h.call('GET', '/channels/after-alias', { token: alice.token })).body.uri, `/channels/${id}`);
        expectError(await h.call('GET', '/channels/before-alias', { token: alice.token }), 404, 5000);
      });

      it('removes the alias for an empty string, which frees it for another channel', async () => {
        const id = await createChannel(h, alice, 'Dropping', { link: 'dropped-alias' });
        const r = await h.call('PATCH', '/channels/dropped-alias', { token: alice.token, form: { link: '' } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.link, `${h.server.url}/channels/${id}`);
        expectError(await h.call('GET', '/channels/dropped-alias'), 404, 5000);
        await createChannel(h, bob, 'Taker', { link: 'dropped-alias' });
      });

      it('answers 204 before 3.2', async () => {
        const id = await createChannel(h, alice, 'Quiet');
        const r = await h.call('PATCH', `/channels/${id}`, { token: alice.token, json: { name: 'Quieter' }, version: '3.1' });
        assert.equal(r.status, 204, r.text);
        assert.equal(r.text, '');
        assert.equal((await h.call('GET', `/channels/${id}`)).body.name, 'Quieter');
      });

      it('answers 400 naming an invalid field (privacy `user` is the creation spelling) and changes nothing', async () => {
        const id = await createChannel(h, alice, 'Stable', { link: 'stable-alias' });
        await createChannel(h, bob, 'Other', { link: 'taken-alias' });
        const before = (await h.call('GET', `/channels/${id}`)).body;
        expectError(await h.call('PATCH', `/channels/${id}`, { token: alice.token, json: { privacy: 'user' } }), 400, 2204, 'privacy');
        expectError(await h.call('PATCH', `/channels/${id}`, { token: alice.token, json: { name: 7 } }), 400, 2204, 'name');
        expectError(await h.call('PATCH', `/channels/${id}`, { token: alice.token, json: { name: 'Renamed', link: 'taken-alias' } }), 400, 2204, 'link');
        assert.deepEqual((await h.call('GET', `/channels/${id}`)).body, before);
      });

      it('answers 403 to a moderator or another user, 404 to one who cannot see it, 401 anonymously', async () => {
        const id = await createChannel(h, alice, 'Guarded');
        const hidden = await createChannel(h, alice, 'Hidden', { privacy: 'moderators' });
        const mod = await h.user('Guard');
        await appoint(h, alice, id, mod);
        expectError(await h.call('PATCH', `/channels/${id}`, { token: mod.token, json: { name: 'x' } }), 403, 3200);
        expectError(await h.call('PATCH', `/channels/${id}`, { token: bob.token, json: { name: 'x' } }), 403, 3200);
        expectError(await h.call('PATCH', `/channels/${hidden}`, { token: bob.token, json: { name: 'x' } }), 404, 5000);
        expectError(await h.call('PATCH', `/channels/${id}`, { json: { name: 'x' } }), 401, 8003);
        assert.equal((await h.call('GET', `/channels/${id}`)).body.name, 'Guarded');
      });
    });

    describe('DELETE /channels/{channel_id}', () => {
      it("deletes the channel with its memberships, keeping followers' channel totals exact", async () => {
        const id = await createChannel(h, alice, 'Doomed', { link: 'doomed' });
        await subscribe(h, bob, id);
        const video = await h.video(alice);
        await addVideo(h, alice, id, video);
        const [aliceBefore, bobBefore] = [await channelsTotalOf(h, alice), await channelsTotalOf(h, bob)];
        expectError(await h.call('DELETE', `/channels/${id}`, { token: bob.token }), 403, 3200);
        assert.equal((await h.call('GET', `/channels/${id}`)).status, 200);
        const r = await h.call('DELETE', '/channels/doomed', { token: alice.token });
        assert.equal(r.status, 204, r.text);
        expectError(await h.call('GET', `/channels/${id}`), 404, 5000);
        expectError(await h.call('DELETE', `/channels/${id}`, { token: alice.token }), 404, 5000);
        assert.equal(await channelsTotalOf(h, alice), aliceBefore - 1);
        assert.equal(await channelsTotalOf(h, bob), bobBefore - 1);
        expectError(await h.call('GET', `/me/channels/${id}`, { token: bob.token }), 404, 5000);
        assert.equal((await h.call('GET', `/videos/${video}`)).status, 200);
        for (const collection of ['channel_followers', 'channel_moderators', 'channel_videos']) {
          assert.equal(await h.service.store.count(collection, { field: 'channel_id', op: 'eq', value: id }), 0, collection);
        }
      });

      it('answers 403 to a moderator, 404 to one who cannot see it, 401 anonymously and 403 without the delete scope', async () => {
        const id = await createChannel(h, alice, 'Kept');
        const hidden = await createChannel(h, alice, 'Kept hidden', { privacy: 'moderators' });
        const mod = await h.user('Keeper');
        await appoint(h, alice, id, mod);
        expectError(await h.call('DELETE', `/channels/${id}`, { token: mod.token }), 403, 3200);
        expectError(await h.call('DELETE', `/channels/${hidden}`, { token: bob.token }), 404, 5000);
        expectError(await h.call('DELETE', `/channels/${id}`), 401, 8003);
        const noDelete = await h.user('NoDelete', 'public,private,edit,create,interact,upload');
        expectError(await h.call('DELETE', `/channels/${id}`, { token: noDelete.token }), 403, 3200);
        assert.deepEqual(await channelTotals(h, alice, id), { users: 1, videos: 0, moderators: 2, categories: 0, tags: 0, privacy_users: 0 });
      });
    });

    describe('GET /channels', () => {
      let h2: Harness;
      let owner: Fixture;
      let viewer: Fixture;
      const list = async (q = '', who?: Fixture) => h2.call('GET', `/channels${q}`, { token: who?.token });
      before(async () => {
        h2 = await Harness.start(driver);
        owner = await h2.user('Owner');
        viewer = await h2.user('Viewer');
        // Created a minute apart: names, followers and videos sort differently from times.
        const specs: [string, number, number, string?][] = [
          ['bravo', 2, 1, 'Skate and surf'],
          ['Alpha', 0, 3],
          ['charlie', 3, 0, 'Surfing only'],
          ['Delta', 1, 2],
        ];
        const followers = [await h2.user('F1'), await h2.user('F2'), await h2.user('F3')];
        for (const [name, followerCount, videoCount, description = ''] of specs) {
          h2.clock.advance(60);
          const id = await createChannel(h2, owner, name, { description });
          for (const f of followers.slice(0, followerCount)) await subscribe(h2, f, id);
          for (let i = 0; i < videoCount; i++) await addVideo(h2, owner, id, await h2.video(owner));
        }
        h2.clock.advance(60);
        await createChannel(h2, owner, 'Echo hidden', { privacy: 'moderators' });
        await h2.service.store.update('channels', (await h2.service.store.findOne('channels', { field: 'name', op: 'eq', value: 'Delta' }))!.id, { featured: true });
      });
      after(() => h2.stop());

      it('lists the channels the caller may see, the newest first, as Channels', async () => {
        const r = await list();
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.channel+json;version=3.4');
        assert.equal(r.body.total, 4);
        assert.deepEqual(names(r), ['Delta', 'charlie', 'Alpha', 'bravo']);
        assert.deepEqual(names(await list('', owner)), ['Echo hidden', 'Delta', 'charlie', 'Alpha', 'bravo']);
        assert.equal((await list('', viewer)).body.total, 4);
      });

      it('sorts by name, date, followers and videos in both directions', async () => {
        assert.deepEqual(names(await list('?sort=alphabetical')), ['Alpha', 'bravo', 'charlie', 'Delta']);
        assert.deepEqual(names(await list('?sort=alphabetical&direction=desc')), ['Delta', 'charlie', 'bravo', 'Alpha']);
        assert.deepEqual(names(await list('?sort=date&direction=asc')), ['bravo', 'Alpha', 'charlie', 'Delta']);
        // The owner follows each channel too.
        assert.deepEqual(names(await list('?sort=followers')), ['charlie', 'bravo', 'Delta', 'Alpha']);
        assert.deepEqual(names(await list('?sort=videos')), ['Alpha', 'Delta', 'bravo', 'charlie']);
        assert.deepEqual(names(await list('?sort=videos&direction=asc')), ['charlie', 'bravo', 'Delta', 'Alpha']);
      });

      it('searches names and descriptions, most followed first with sort=relevant', async () => {
        const r = await list('?query=SURF');
        assert.equal(r.body.total, 2);
        assert.deepEqual(names(r), ['charlie', 'bravo']);
        assert.deepEqual(names(await list('?query=surf&sort=relevant')), ['charlie', 'bravo']);
        // Words beginning with "s": bravo's "Skate" and "surf", charlie's "Surfing".
        assert.deepEqual(names(await list('?query=s&sort=alphabetical&per_page=1&page=2')), ['charlie']);
      });

      it('answers 400 for sort=relevant without a query', async () => {
        expectError(await list('?sort=relevant'), 400, 2204, 'query');
        expectError(await list('?sort=relevant&query=%20'), 400, 2204, 'query');
      });

      it('lists only the featured channels with filter=featured', async () => {
        assert.deepEqual(names(await list('?filter=featured')), ['Delta']);
      });

      it('pages in the store with true totals and links', async () => {
        const r = await list('?sort=alphabetical&per_page=3&page=2');
        assert.equal(r.body.total, 4);
        assert.deepEqual(names(r), ['Delta']);
        assert.equal(r.body.paging.previous, '/channels?sort=alphabetical&per_page=3&page=1');
        assert.equal(r.body.paging.next, null);
      });

      it('answers 400 naming a sort, filter, direction or page it does not list', async () => {
        expectError(await list('?sort=plays'), 400, 2204, 'sort');
        expectError(await list('?filter=moderated'), 400, 2204, 'filter');
        expectError(await list('?direction=up'), 400, 2204, 'direction');
        expectError(await list('?per_page=101'), 400, 2204, 'per_page');
      });
    });
  });
}
