import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';
import { addVideo, appoint, channelsTotalOf, channelTotals, createChannel, subscribe } from '../src/channels';

const names = (r: Answer): string[] => r.body.data.map((c: { name: string }) => c.name);

for (const driver of drivers) {
  describe(`channel subscriptions and followers (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let carol: Fixture;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      carol = await h.user('Carol');
    });
    after(() => h.stop());

    describe('PUT, GET and DELETE /me/channels/{channel_id}', () => {
      it('subscribes (204), checks (204) and unsubscribes (204), keeping both counters exact', async () => {
        const id = await createChannel(h, alice, 'Follow me', { link: 'follow-me' });
        const before = await channelsTotalOf(h, bob);
        expectError(await h.call('GET', `/me/channels/${id}`, { token: bob.token }), 404, 5000);
        const put = await h.call('PUT', `/me/channels/${id}`, { token: bob.token });
        assert.equal(put.status, 204, put.text);
        assert.equal(put.text, '');
        assert.equal((await h.call('PUT', '/me/channels/follow-me', { token: bob.token })).status, 204);
        assert.equal(await channelsTotalOf(h, bob), before + 1);
        assert.equal((await channelTotals(h, alice, id)).users, 2);
        assert.equal((await h.call('GET', `/me/channels/${id}`, { token: bob.token })).status, 204);
        assert.equal((await h.call('GET', `/users/${bob.user.id}/channels/follow-me`)).status, 204);
        const follow = (await h.call('GET', `/channels/${id}`, { token: bob.token })).body.metadata.interactions.follow;
        assert.equal(follow.added, true);
        assert.equal(follow.uri, `/users/${bob.user.id}/channels/${id}`);
        const del = await h.call('DELETE', `/me/channels/${id}`, { token: bob.token });
        assert.equal(del.status, 204, del.text);
        assert.equal((await h.call('DELETE', `/users/${bob.user.id}/channels/${id}`, { token: bob.token })).status, 204);
        assert.equal(await channelsTotalOf(h, bob), before);
        assert.equal((await channelTotals(h, alice, id)).users, 1);
        expectError(await h.call('GET', `/users/${bob.user.id}/channels/${id}`), 404, 5000);
      });

      it('answers the follow check with 404 for a missing or hidden channel and an unknown user', async () => {
        const hidden = await createChannel(h, alice, 'Hidden follow', { privacy: 'moderators' });
        expectError(await h.call('GET', '/me/channels/999999', { token: bob.token }), 404, 5000);
        expectError(await h.call('GET', `/users/${alice.user.id}/channels/${hidden}`, { token: bob.token }), 404, 5000);
        assert.equal((await h.call('GET', `/users/${alice.user.id}/channels/${hidden}`, { token: alice.token })).status, 204);
        expectError(await h.call('GET', `/users/999999/channels/${hidden}`, { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', `/me/channels/${hidden}`), 401, 8003);
      });

      it('answers 404 to subscribing to a missing or hidden channel, 403 for another user, and changes nothing', async () => {
        const hidden = await createChannel(h, alice, 'No entry', { privacy: 'moderators' });
        const open = await createChannel(h, alice, 'Open');
        const before = await channelsTotalOf(h, bob);
        expectError(await h.call('PUT', '/me/channels/999999', { token: bob.token }), 404, 5000);
        expectError(await h.call('PUT', `/me/channels/${hidden}`, { token: bob.token }), 404, 5000);
        expectError(await h.call('PUT', `/users/${carol.user.id}/channels/${open}`, { token: bob.token }), 403, 3200);
        expectError(await h.call('PUT', `/me/channels/${open}`), 401, 8003);
        const noInteract = await h.user('NoInteract', 'public,private,edit,create,delete,upload');
        expectError(await h.call('PUT', `/me/channels/${open}`, { token: noInteract.token }), 403, 3200);
        assert.equal(await channelsTotalOf(h, bob), before);
        assert.equal(await channelsTotalOf(h, carol), 0);
        assert.equal((await channelTotals(h, alice, open)).users, 1);
      });

      it('answers 403 to unsubscribing from a channel that cannot be found, and for another user', async () => {
        const hidden = await createChannel(h, alice, 'Unseen', { privacy: 'moderators' });
        const open = await createChannel(h, alice, 'Leavable');
        await subscribe(h, bob, open);
        expectError(await h.call('DELETE', '/me/channels/999999', { token: bob.token }), 403, 3200);
        expectError(await h.call('DELETE', '/me/channels/no-such-alias', { token: bob.token }), 403, 3200);
        expectError(await h.call('DELETE', `/me/channels/${hidden}`, { token: bob.token }), 403, 3200);
        expectError(await h.call('DELETE', `/users/${bob.user.id}/channels/${open}`, { token: carol.token }), 403, 3200);
        assert.equal((await h.call('GET', `/me/channels/${open}`, { token: bob.token })).status, 204);
      });

      it('lets a follower leave a channel that has since become hidden from them', async () => {
        const id = await createChannel(h, alice, 'Closing');
        await subscribe(h, bob, id);
        const before = await channelsTotalOf(h, bob);
        await h.call('PATCH', `/channels/${id}`, { token: alice.token, json: { privacy: 'moderators' } });
        assert.equal((await h.call('DELETE', `/me/channels/${id}`, { token: bob.token })).status, 204);
        assert.equal(await channelsTotalOf(h, bob), before - 1);
        assert.equal((await channelTotals(h, alice, id)).users, 1);
      });
    });

    describe('GET /me/channels and /users/{user_id}/channels', () => {
      let h2: Harness;
      let owner: Fixture;
      let reader: Fixture;
      let other: Fixture;
      const list = (q = '', who: Fixture = reader, path = '/me/channels', headers?: Record<string, string>) =>
        h2.call('GET', `${path}${q}`, { token: who.token, headers });
      before(async () => {
        h2 = await Harness.start(driver);
        owner = await h2.user('Owner');
        reader = await h2.user('Reader');
        other = await h2.user('Other');
        // Created, then followed by the reader, in an order that differs from the names'.
        const ids: Record<string, string> = {};
        for (const [name, videos] of [['mango', 1], ['Apple', 0], ['kiwi', 2]] as const) {
          h2.clock.advance(60);
          ids[name] = await createChannel(h2, owner, name, { description: name === 'kiwi' ? 'green fruit' : '' });
          for (let i = 0; i < videos; i++) await addVideo(h2, owner, ids[name], await h2.video(owner));
        }
        for (const name of ['kiwi', 'mango', 'Apple']) {
          h2.clock.advance(60);
          await subscribe(h2, reader, ids[name]);
        }
        await subscribe(h2, other, ids.kiwi);
        h2.clock.advance(60);
        const mine = await createChannel(h2, reader, 'Reader own');
        h2.clock.advance(60);
        await appoint(h2, owner, ids.mango, reader);
        // Moderating alone is not following.
        await h2.call('DELETE', `/me/channels/${mine}`, { token: reader.token });
      });
      after(() => h2.stop());

      it('lists the channels the user follows, the latest followed first, as Channels', async () => {
        const r = await list();
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.channel+json;version=3.4');
        assert.equal(r.body.total, 3);
        assert.deepEqual(names(r), ['Apple', 'mango', 'kiwi']);
        assert.ok(r.body.data.every((c: { metadata: { interactions: { follow: { added: boolean } } } }) => c.metadata.interactions.follow.added));
        assert.equal(r.body.total, await channelsTotalOf(h2, reader));
        const theirs = await h2.call('GET', `/users/${reader.user.id}/channels`);
        assert.deepEqual(names(theirs), ['Apple', 'mango', 'kiwi']);
        assert.equal(theirs.body.data[0].metadata.interactions.follow, undefined);
      });

      it('sorts by when followed, name, followers and videos', async () => {
        assert.deepEqual(names(await list('?sort=date&direction=asc')), ['kiwi', 'mango', 'Apple']);
        assert.deepEqual(names(await list('?sort=alphabetical')), ['Apple', 'kiwi', 'mango']);
        assert.deepEqual(names(await list('?sort=followers')), ['kiwi', 'mango', 'Apple']);
        assert.deepEqual(names(await list('?sort=videos')), ['kiwi', 'mango', 'Apple']);
        assert.deepEqual(names(await list('?sort=videos&direction=asc')), ['Apple', 'mango', 'kiwi']);
      });

      it('searches names and descriptions and pages with true totals', async () => {
        assert.deepEqual(names(await list('?query=GREEN')), ['kiwi']);
        const r = await list('?sort=alphabetical&per_page=2&page=2');
        assert.equal(r.body.total, 3);
        assert.deepEqual(names(r), ['mango']);
        assert.equal(r.body.paging.first, '/me/channels?sort=alphabetical&per_page=2&page=1');
      });

      it('lists the channels the user moderates, owned ones included, with filter=moderated', async () => {
        const r = await list('?filter=moderated&sort=alphabetical');
        assert.deepEqual(names(r), ['mango', 'Reader own']);
        assert.deepEqual(names(await list('?filter=moderated')), ['mango', 'Reader own']);
        assert.deepEqual(names(await list('?filter=moderated&sort=alphabetical', other, `/users/${reader.user.id}/channels`)), ['mango', 'Reader own']);
      });

      it('leaves out channels hidden from the caller', async () => {
        const hidden = await createChannel(h2, owner, 'Zeta hidden', { privacy: 'moderators' });
        await appoint(h2, owner, hidden, other);
        await subscribe(h2, other, hidden);
        assert.deepEqual(names(await list('', other)), ['Zeta hidden', 'kiwi']);
        assert.deepEqual(names(await list('', reader, `/users/${other.user.id}/channels`)), ['kiwi']);
        assert.deepEqual(names(await h2.call('GET', `/users/${other.user.id}/channels`)), ['kiwi']);
      });

      it('answers 304 to If-Modified-Since when nothing was followed since, and 200 once something was', async () => {
        const first = await list();
        const modified = first.headers.get('last-modified')!;
        assert.equal(modified, new Date(Date.parse('2026-01-02T03:04:05Z') + 6 * 60_000).toUTCString());
        const same = await list('', reader, '/me/channels', { 'if-modified-since': modified });
        assert.equal(same.status, 304);
        assert.equal(same.text, '');
        const older = await list('', reader, '/me/channels', { 'if-modified-since': new Date(Date.parse(modified) - 1000).toUTCString() });
        assert.equal(older.status, 200);
        h2.clock.advance(60);
        await subscribe(h2, reader, await createChannel(h2, other, 'Fresh'));
        const after = await list('', reader, '/me/channels', { 'if-modified-since': modified });
        assert.equal(after.status, 200);
        assert.equal(names(after)[0], 'Fresh');
      });

      it('answers 404 for an unknown user, 401 for /me anonymously, 400 for an unlisted sort or filter', async () => {
        expectError(await h2.call('GET', '/users/999999/channels'), 404, 5000);
        expectError(await h2.call('GET', '/me/channels'), 401, 8003);
        expectError(await list('?sort=relevant'), 400, 2204, 'sort');
        expectError(await list('?filter=featured'), 400, 2204, 'filter');
      });
    });

    describe('GET /channels/{channel_id}/users', () => {
      let id: string;
      const names = (r: Answer) => r.body.data.map((u: { name: string }) => u.name);
      before(async () => {
        id = await createChannel(h, alice, 'Crowd');
        for (const name of ['dora', 'Ann', 'carl']) {
          h.clock.advance(60);
          await subscribe(h, await h.user(name), id);
        }
        await appoint(h, alice, id, bob);
        await appoint(h, alice, id, carol);
      });

      it('lists the followers, the latest first, as Users, matching the users connection', async () => {
        const r = await h.call('GET', `/channels/${id}/users`);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
        assert.deepEqual(names(r), ['carl', 'Ann', 'dora', 'Alice']);
        assert.equal(r.body.total, (await channelTotals(h, alice, id)).users);
        assert.deepEqual(names(await h.call('GET', `/channels/${id}/users?sort=alphabetical`)), ['Alice', 'Ann', 'carl', 'dora']);
        assert.deepEqual(names(await h.call('GET', `/channels/${id}/users?sort=date&direction=asc&per_page=2`)), ['Alice', 'dora']);
      });

      it('lists the moderators with filter=moderators, where query narrows them by name', async () => {
        const r = await h.call('GET', `/channels/${id}/users?filter=moderators&sort=alphabetical`);
        assert.deepEqual(names(r), ['Alice', 'Bob', 'Carol']);
        assert.deepEqual(names(await h.call('GET', `/channels/${id}/users?filter=moderators&query=CAR`)), ['Carol']);
      });

      it('answers 400 for a query without the moderators filter, 404 for a missing or hidden channel', async () => {
        expectError(await h.call('GET', `/channels/${id}/users?query=a`), 400, 2204, 'query');
        expectError(await h.call('GET', '/channels/999999/users'), 404, 5000);
        const hidden = await createChannel(h, alice, 'Crowd hidden', { privacy: 'moderators' });
        expectError(await h.call('GET', `/channels/${hidden}/users`, { token: bob.token }), 404, 5000);
        assert.equal((await h.call('GET', `/channels/${hidden}/users`, { token: alice.token })).body.total, 1);
      });
    });
  });
}
