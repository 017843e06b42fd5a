import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';
import { appoint, channelTotals, createChannel } from '../src/channels';

const names = (r: Answer): string[] => (Array.isArray(r.body) ? r.body : r.body.data).map((u: { name: string }) => u.name);
const uri = (who: Fixture) => `/users/${who.user.id}`;

for (const driver of drivers) {
  describe(`channel moderators (${driver.name})`, () => {
    let h: Harness;
    let owner: Fixture;
    let stranger: Fixture;
    const people: Record<string, Fixture> = {};
    /** A fresh channel of `owner`, who follows everyone in `people`. */
    const channel = (json: Record<string, unknown> = {}) => createChannel(h, owner, 'Moderated', json);
    const moderators = async (id: string) => names(await h.call('GET', `/channels/${id}/moderators?sort=alphabetical`, { token: owner.token }));
    before(async () => {
      h = await Harness.start(driver);
      owner = await h.user('Owner');
      stranger = await h.user('Stranger');
      for (const name of ['Ann', 'Ben', 'Cat', 'Dan']) {
        people[name] = await h.user(name);
        await h.follow(owner, people[name]);
      }
    });
    after(() => h.stop());

    describe('GET /channels/{channel_id}/moderators', () => {
      it('lists the moderators, the owner among them, newest first, by name and by query', async () => {
        const id = await channel();
        for (const name of ['Cat', 'Ann']) {
          h.clock.advance(60);
          await appoint(h, owner, id, people[name]);
        }
        const r = await h.call('GET', `/channels/${id}/moderators`);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
        assert.deepEqual(names(r), ['Ann', 'Cat', 'Owner']);
        assert.equal(r.body.total, (await channelTotals(h, owner, id)).moderators);
        assert.deepEqual(names(await h.call('GET', `/channels/${id}/moderators?sort=date&direction=asc`)), ['Owner', 'Cat', 'Ann']);
        assert.deepEqual(names(await h.call('GET', `/channels/${id}/moderators?sort=alphabetical&direction=desc`)), ['Owner', 'Cat', 'Ann']);
        // A word matches names with a word beginning with it: "a" finds Ann, not Cat.
        assert.deepEqual(names(await h.call('GET', `/channels/${id}/moderators?query=a`)), ['Ann']);
        assert.deepEqual(names(await h.call('GET', `/channels/${id}/moderators?query=CA`)), ['Cat']);
        expectError(await h.call('GET', '/channels/999999/moderators'), 404, 5000);
        expectError(await h.call('GET', `/channels/${id}/moderators?sort=plays`), 400, 2204, 'sort');
      });

      it('gets one moderator (200 with the User), 404 for a user who does not moderate or does not exist', async () => {
        const id = await channel({ link: 'mod-check' });
        await appoint(h, owner, id, people.Ben);
        const r = await h.call('GET', `/channels/mod-check/moderators/${people.Ben.user.id}`);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
        assert.equal(r.body.uri, uri(people.Ben));
        assert.equal((await h.call('GET', `/channels/${id}/moderators/${owner.user.id}`)).status, 200);
        expectError(await h.call('GET', `/channels/${id}/moderators/${people.Dan.user.id}`), 404, 5000);
        expectError(await h.call('GET', `/channels/${id}/moderators/999999`), 404, 5000);
        expectError(await h.call('GET', `/channels/999999/moderators/${owner.user.id}`), 404, 5000);
      });
    });

    describe('PUT /channels/{channel_id}/moderators', () => {
      it('adds the user of user_uri (200 with the Users added), as one URI, a form field or a JSON list', async () => {
        const id = await channel();
        const r = await h.call('PUT', `/channels/${id}/moderators`, { token: owner.token, json: { user_uri: uri(people.Ann) } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
        assert.deepEqual(names(r), ['Ann']);
        const form = await h.call('PUT', `/channels/${id}/moderators`, { token: owner.token, form: { user_uri: uri(people.Ben) } });
        assert.deepEqual(names(form), ['Ben']);
        const list = await h.call('PUT', `/channels/${id}/moderators`, { token: owner.token, json: [{ user_uri: uri(people.Cat) }, { user_uri: people.Dan.user.id }] });
        assert.equal(list.status, 200, list.text);
        assert.deepEqual(names(list), ['Cat', 'Dan']);
        assert.deepEqual(await moderators(id), ['Ann', 'Ben', 'Cat', 'Dan', 'Owner']);
        assert.equal((await channelTotals(h, owner, id)).moderators, 5);
      });

      it('answers 403 when the caller is not the owner, the user already moderates, or the owner does not follow them; nothing changes', async () => {
        const id = await channel();
        await appoint(h, owner, id, people.Ann);
        const unfollowed = await h.user('Unfollowed');
        const put = (json: unknown, who: Fixture = owner) => h.call('PUT', `/channels/${id}/moderators`, { token: who.token, json });
        expectError(await put({ user_uri: uri(people.Ben) }, people.Ann), 403, 3200);
        expectError(await put({ user_uri: uri(people.Ann) }), 403, 3200);
        expectError(await put({ user_uri: uri(owner) }), 403, 3200);
        expectError(await put({ user_uri: uri(unfollowed) }), 403, 3200);
        // All or nothing: Ben would be fine, the one after him is not.
        expectError(await put([{ user_uri: uri(people.Ben) }, { user_uri: uri(unfollowed) }]), 403, 3200);
        assert.deepEqual(await moderators(id), ['Ann', 'Owner']);
        assert.equal((await channelTotals(h, owner, id)).moderators, 2);
      });

      it('answers 404 for a missing channel or user, 400 for a missing user_uri, 400/2908 beyond 100 users', async () => {
        const id = await channel();
        expectError(await h.call('PUT', '/channels/999999/moderators', { token: owner.token, json: { user_uri: uri(people.Ann) } }), 404, 5000);
        expectError(await h.call('PUT', `/channels/${id}/moderators`, { token: owner.token, json: { user_uri: '/users/999999' } }), 404, 5000);
        expectError(await h.call('PUT', `/channels/${id}/moderators`, { token: owner.token, json: { user_uri: '/videos/1' } }), 404, 5000);
        expectError(await h.call('PUT', `/channels/${id}/moderators`, { token: owner.token, json: {} }), 400, 2204, 'user_uri');
        expectError(await h.call('PUT', `/channels/${id}/moderators`, { token: owner.token, json: { user_uri: 5 } }), 400, 2204, 'user_uri');
        const many = Array.from({ length: 101 }, (_, i) => ({ user_uri: `/users/${i + 1}` }));
        expectError(await h.call('PUT', `/channels/${id}/moderators`, { token: owner.token, json: many }), 400, 2908, 'user_uri');
        expectError(await h.call('PUT', `/channels/${id}/moderators`, { json: { user_uri: uri(people.Ann) } }), 401, 8003);
        const noEdit = await h.user('NoEdit', 'public,private,create,delete,interact,upload');
        expectError(await h.call('PUT', `/channels/${id}/moderators`, { token: noEdit.token, json: { user_uri: uri(people.Ann) } }), 403, 3200);
        assert.deepEqual(await moderators(id), ['Owner']);
      });
    });

    describe('PATCH /channels/{channel_id}/moderators', () => {
      it('replaces the moderators with those listed (the owner stays), answering 200 with them', async () => {
        const id = await channel();
        await appoint(h, owner, id, people.Ann);
        await appoint(h, owner, id, people.Ben);
        const r = await h.call('PATCH', `/channels/${id}/moderators`, { token: owner.token, json: [{ user_uri: uri(people.Ben) }, { user_uri: uri(people.Cat) }] });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(names(r), ['Owner', 'Ben', 'Cat']);
        assert.deepEqual(await moderators(id), ['Ben', 'Cat', 'Owner']);
        assert.equal((await channelTotals(h, owner, id)).moderators, 3);
        const single = await h.call('PATCH', `/channels/${id}/moderators`, { token: owner.token, form: { user_uri: uri(owner) } });
        assert.deepEqual(names(single), ['Owner']);
        assert.deepEqual(await moderators(id), ['Owner']);
        assert.equal((await channelTotals(h, owner, id)).moderators, 1);
      });

      it('answers 403 to a non-owner or for a new moderator the owner does not follow, 404, 400/2908; nothing changes', async () => {
        const id = await channel();
        await appoint(h, owner, id, people.Ann);
        const unfollowed = await h.user('Unfollowed too');
        const patch = (json: unknown, who: Fixture = owner, path = `/channels/${id}/moderators`) => h.call('PATCH', path, { token: who.token, json });
        expectError(await patch({ user_uri: uri(people.Ben) }, people.Ann), 403, 3200);
        expectError(await patch([{ user_uri: uri(people.Ben) }, { user_uri: uri(unfollowed) }]), 403, 3200);
        expectError(await patch({ user_uri: '/users/999999' }), 404, 5000);
        expectError(await patch({ user_uri: uri(people.Ben) }, owner, '/channels/999999/moderators'), 404, 5000);
        expectError(await patch(Array.from({ length: 101 }, (_, i) => `/users/${i + 1}`)), 400, 2908, 'user_uri');
        assert.deepEqual(await moderators(id), ['Ann', 'Owner']);
      });
    });

    describe('DELETE /channels/{channel_id}/moderators', () => {
      it('removes the users of user_uri (204)', async () => {
        const id = await channel();
        for (const name of ['Ann', 'Ben', 'Cat']) await appoint(h, owner, id, people[name]);
        const r = await h.call('DELETE', `/channels/${id}/moderators`, { token: owner.token, json: { user_uri: uri(people.Ann) } });
        assert.equal(r.status, 204, r.text);
        const list = await h.call('DELETE', `/channels/${id}/moderators`, { token: owner.token, json: [{ user_uri: uri(people.Ben) }, uri(people.Cat)] });
        assert.equal(list.status, 204, list.text);
        assert.deepEqual(await moderators(id), ['Owner']);
        assert.equal((await channelTotals(h, owner, id)).moderators, 1);
      });

      it('answers 403 for a non-owner, a user who does not moderate, the owner; 404 for a missing user or channel', async () => {
        const id = await channel();
        await appoint(h, owner, id, people.Ann);
        const del = (json: unknown, who: Fixture = owner, path = `/channels/${id}/moderators`) => h.call('DELETE', path, { token: who.token, json });
        expectError(await del({ user_uri: uri(people.Ann) }, people.Ann), 403, 3200);
        expectError(await del({ user_uri: uri(people.Ben) }), 403, 3200);
        expectError(await del({ user_uri: uri(owner) }), 403, 3200);
        expectError(await del([uri(people.Ann), uri(people.Ben)]), 403, 3200);
        expectError(await del({ user_uri: '/users/999999' }), 404, 5000);
        expectError(await del({ user_uri: uri(people.Ann) }, owner, '/channels/999999/moderators'), 404, 5000);
        assert.deepEqual(await moderators(id), ['Ann', 'Owner']);
      });
    });

    describe('PUT and DELETE /channels/{channel_id}/moderators/{user_id}', () => {
      it('adds (204) and removes (204) one moderator, who then sees a moderators channel', async () => {
        const id = await channel({ privacy: 'moderators' });
        expectError(await h.call('GET', `/channels/${id}`, { token: people.Dan.token }), 404, 5000);
        const put = await h.call('PUT', `/channels/${id}/moderators/${people.Dan.user.id}`, { token: owner.token });
        assert.equal(put.status, 204, put.text);
        assert.equal((await h.call('GET', `/channels/${id}`, { token: people.Dan.token })).status, 200);
        assert.equal((await channelTotals(h, owner, id)).moderators, 2);
        const del = await h.call('DELETE', `/channels/${id}/moderators/${people.Dan.user.id}`, { token: owner.token });
        assert.equal(del.status, 204, del.text);
        expectError(await h.call('GET', `/channels/${id}`, { token: people.Dan.token }), 404, 5000);
        assert.equal((await channelTotals(h, owner, id)).moderators, 1);
      });

      it('answers the 403s and 404s of SPEC.md', async () => {
        const id = await channel();
        await appoint(h, owner, id, people.Ann);
        const unfollowed = await h.user('Unfollowed three');
        const at = (who: Fixture) => `/channels/${id}/moderators/${who.user.id}`;
        expectError(await h.call('PUT', at(people.Ben), { token: people.Ann.token }), 403, 3200);
        expectError(await h.call('PUT', at(people.Ann), { token: owner.token }), 403, 3200);
        expectError(await h.call('PUT', at(unfollowed), { token: owner.token }), 403, 3200);
        expectError(await h.call('PUT', `/channels/${id}/moderators/999999`, { token: owner.token }), 404, 5000);
        expectError(await h.call('PUT', `/channels/999999/moderators/${people.Ben.user.id}`, { token: owner.token }), 404, 5000);
        expectError(await h.call('DELETE', at(people.Ann), { token: stranger.token }), 403, 3200);
        expectError(await h.call('DELETE', at(people.Ben), { token: owner.token }), 403, 3200);
        expectError(await h.call('DELETE', at(owner), { token: owner.token }), 403, 3200);
        expectError(await h.call('DELETE', `/channels/${id}/moderators/999999`, { token: owner.token }), 404, 5000);
        expectError(await h.call('DELETE', `/channels/999999/moderators/${people.Ann.user.id}`, { token: owner.token }), 404, 5000);
        expectError(await h.call('PUT', at(people.Ben)), 401, 8003);
        assert.deepEqual(await moderators(id), ['Ann', 'Owner']);
      });
    });
  });
}
