import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';
import { createGroup, editGroup, groupsTotalOf, groupTotals, joinGroup } from '../src/groups';

const names = (r: Answer): string[] => r.body.data.map((u: { name: string }) => u.name);

for (const driver of drivers) {
  describe(`group members (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let outsider: Fixture;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      outsider = await h.user('Outsider');
    });
    after(() => h.stop());

    describe('GET /groups/{group_id}/users', () => {
      let group: string;
      before(async () => {
        group = await createGroup(h, alice, 'Members');
        // Joined a minute apart; names sort differently from times.
        for (const name of ['carl', 'Ann', 'dora', 'Bert']) {
          h.clock.advance(60);
          await joinGroup(h, await h.user(name), group);
        }
      });

      it('lists the members, the latest to join first, as Users', async () => {
        const r = await h.call('GET', `/groups/${group}/users`);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
        assert.equal(r.body.total, 5);
        assert.deepEqual(names(r), ['Bert', 'dora', 'Ann', 'carl', 'Alice']);
        assert.match(r.body.data[0].uri, /^\/users\/\d+$/);
        assert.equal((await groupTotals(h, group)).users, 5);
      });

      it('sorts alphabetically or by date in either direction, searches names and pages', async () => {
        const list = async (q: string) => names(await h.call('GET', `/groups/${group}/users?${q}`));
        assert.deepEqual(await list('sort=alphabetical'), ['Alice', 'Ann', 'Bert', 'carl', 'dora']);
        assert.deepEqual(await list('sort=alphabetical&direction=desc'), ['dora', 'carl', 'Bert', 'Ann', 'Alice']);
        assert.deepEqual(await list('sort=date&direction=asc'), ['Alice', 'carl', 'Ann', 'dora', 'Bert']);
        assert.deepEqual(await list('query=A'), ['Ann', 'Alice']);
        assert.deepEqual(await list('query=a&sort=alphabetical'), ['Alice', 'Ann']);
        const page = await h.call('GET', `/groups/${group}/users?sort=alphabetical&per_page=2&page=3`);
        assert.deepEqual(names(page), ['dora']);
        assert.equal(page.body.total, 5);
      });

      it('filter=moderators keeps the owner and former owners', async () => {
        const id = await createGroup(h, alice, 'Moderated');
        await joinGroup(h, bob, id);
        assert.deepEqual(names(await h.call('GET', `/groups/${id}/users?filter=moderators`)), ['Alice']);
        await editGroup(h, alice, id, { owner: `/users/${bob.user.id}` });
        const r = await h.call('GET', `/groups/${id}/users?filter=moderators&sort=alphabetical`);
        assert.deepEqual(names(r), ['Alice', 'Bob']);
        assert.equal(r.body.total, 2);
      });

      it('shows a members-only group\'s members to its members only (403), and answers 404 for a missing group', async () => {
        const id = await createGroup(h, alice, 'Closed');
        await joinGroup(h, bob, id);
        await editGroup(h, alice, id, { privacy: { view: 'members' } });
        assert.deepEqual(names(await h.call('GET', `/groups/${id}/users?sort=alphabetical`, { token: bob.token })), ['Alice', 'Bob']);
        expectError(await h.call('GET', `/groups/${id}/users`, { token: outsider.token }), 403, 3200);
        expectError(await h.call('GET', `/groups/${id}/users`), 403, 3200);
        expectError(await h.call('GET', '/groups/999999/users'), 404, 5000);
        expectError(await h.call('GET', `/groups/${group}/users?sort=plays`), 400, 2204, 'sort');
        expectError(await h.call('GET', `/groups/${group}/users?filter=moderated`), 400, 2204, 'filter');
      });
    });

    describe('PUT /me/groups/{group_id} (join)', () => {
      it('joins (204), counting the member on both sides, and is idempotent', async () => {
        const id = await createGroup(h, alice, 'Open');
        const before = await groupsTotalOf(h, bob);
        const r = await h.call('PUT', `/me/groups/${id}`, { token: bob.token });
        assert.equal(r.status, 204, r.text);
        assert.equal(r.text, '');
        assert.equal(await groupsTotalOf(h, bob), before + 1);
        assert.equal((await groupTotals(h, id)).users, 2);
        assert.equal((await h.call('PUT', `/users/${bob.user.id}/groups/${id}`, { token: bob.token })).status, 204);
        assert.equal(await groupsTotalOf(h, bob), before + 1);
        assert.equal((await groupTotals(h, id)).users, 2);
        const joined = await h.call('GET', `/groups/${id}`, { token: bob.token });
        assert.equal(joined.body.metadata.interactions.join.added, true);
      });

      it('answers 403 for a group whose privacy.join is members or that is not public, and changes nothing', async () => {
        const invite = await createGroup(h, alice, 'Invite only');
        await editGroup(h, alice, invite, { privacy: { join: 'members' } });
        const hidden = await createGroup(h, alice, 'Hidden');
        await editGroup(h, alice, hidden, { privacy: { view: 'members' } });
        const before = await groupsTotalOf(h, outsider);
        expectError(await h.call('PUT', `/me/groups/${invite}`, { token: outsider.token }), 403, 3200);
        expectError(await h.call('PUT', `/me/groups/${hidden}`, { token: outsider.token }), 403, 3200);
        assert.equal(await groupsTotalOf(h, outsider), before);
        assert.equal((await groupTotals(h, invite)).users, 1);
        assert.equal((await groupTotals(h, hidden)).users, 1);
        expectError(await h.call('GET', `/me/groups/${invite}`, { token: outsider.token }), 404, 5000);
      });

      it('answers 403/3411 to an unverified user, 403 for another user, without interact, 401 anonymous, 404 missing', async () => {
        const id = await createGroup(h, alice, 'Guarded join');
        const unverified = await h.user('Unverified', 'all', { verified: false });
        expectError(await h.call('PUT', `/me/groups/${id}`, { token: unverified.token }), 403, 3411);
        expectError(await h.call('PUT', `/users/${outsider.user.id}/groups/${id}`, { token: bob.token }), 403, 3200);
        const noInteract = await h.user('NoInteract', 'public,private,create,edit,delete,upload');
        const r = await h.call('PUT', `/me/groups/${id}`, { token: noInteract.token });
        expectError(r, 403, 3200);
        assert.match(r.body.developer_message, /"interact"/);
        expectError(await h.call('PUT', `/me/groups/${id}`), 401, 8003);
        expectError(await h.call('PUT', '/me/groups/999999', { token: bob.token }), 404, 5000);
        expectError(await h.call('PUT', `/users/999999/groups/${id}`, { token: bob.token }), 404, 5000);
        assert.equal((await groupTotals(h, id)).users, 1);
        assert.equal(await groupsTotalOf(h, unverified), 0);
      });
    });

    describe('DELETE /me/groups/{group_id} (leave)', () => {
      it('leaves (204), uncounting the member on both sides; 404 when not a member', async () => {
        const id = await createGroup(h, alice, 'Leavable');
        await joinGroup(h, bob, id);
        const before = await groupsTotalOf(h, bob);
        const r = await h.call('DELETE', `/users/${bob.user.id}/groups/${id}`, { token: bob.token });
        assert.equal(r.status, 204, r.text);
        assert.equal(await groupsTotalOf(h, bob), before - 1);
        assert.equal((await groupTotals(h, id)).users, 1);
        expectError(await h.call('GET', `/me/groups/${id}`, { token: bob.token }), 404, 5000);
        expectError(await h.call('DELETE', `/me/groups/${id}`, { token: bob.token }), 404, 5000);
        assert.equal(await groupsTotalOf(h, bob), before - 1);
      });

      it('answers 403 to the owner until they hand the group over with PATCH owner; then the former owner may leave', async () => {
        const id = await createGroup(h, alice, 'Handover', { description: 'kept' });
        await joinGroup(h, bob, id);
        expectError(await h.call('DELETE', `/me/groups/${id}`, { token: alice.token }), 403, 3200);
        assert.equal((await groupTotals(h, id)).users, 2);

        const r = await h.call('PATCH', `/groups/${id}`, { token: alice.token, json: { owner: `/users/${bob.user.id}` } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.user.uri, `/users/${bob.user.id}`);
        expectError(await h.call('PATCH', `/groups/${id}`, { token: alice.token, json: { name: 'Still mine?' } }), 403, 3200);
        expectError(await h.call('DELETE', `/me/groups/${id}`, { token: bob.token }), 403, 3200);

        const aliceBefore = await groupsTotalOf(h, alice);
        assert.equal((await h.call('DELETE', `/me/groups/${id}`, { token: alice.token })).status, 204);
        assert.equal(await groupsTotalOf(h, alice), aliceBefore - 1);
        const group = await h.call('GET', `/groups/${id}`);
        assert.equal(group.body.user.name, 'Bob');
        assert.equal(group.body.metadata.connections.users.total, 1);
        assert.deepEqual(names(await h.call('GET', `/groups/${id}/users?filter=moderators`)), ['Bob']);
        assert.equal((await h.call('PATCH', `/groups/${id}`, { token: bob.token, json: { name: 'Bob\'s now' } })).status, 200);
      });

      it('PATCH owner answers 400 naming owner for a non-member, an unknown user or a malformed URI, and changes nothing', async () => {
        const id = await createGroup(h, alice, 'No handover');
        for (const owner of [`/users/${outsider.user.id}`, '/users/999999', '/videos/1', 'a b']) {
          expectError(await h.call('PATCH', `/groups/${id}`, { token: alice.token, json: { owner, name: 'Renamed' } }), 400, 2204, 'owner');
        }
        const group = await h.call('GET', `/groups/${id}`);
        assert.equal(group.body.name, 'No handover');
        assert.equal(group.body.user.name, 'Alice');
        const self = await h.call('PATCH', `/groups/${id}`, { token: alice.token, json: { owner: alice.user.id } });
        assert.equal(self.status, 200);
        assert.deepEqual(names(await h.call('GET', `/groups/${id}/users?filter=moderators`)), ['Alice']);
      });

      it('answers 403 for another user, without interact, 401 anonymous, 404 for a missing group', async () => {
        const id = await createGroup(h, alice, 'Sticky');
        await joinGroup(h, bob, id);
        expectError(await h.call('DELETE', `/users/${bob.user.id}/groups/${id}`, { token: outsider.token }), 403, 3200);
        const noInteract = await h.user('NoInteract2', 'public,private,create,edit,delete,upload');
        expectError(await h.call('DELETE', `/me/groups/${id}`, { token: noInteract.token }), 403, 3200);
        expectError(await h.call('DELETE', `/me/groups/${id}`), 401, 8003);
        expectError(await h.call('DELETE', '/me/groups/999999', { token: bob.token }), 404, 5000);
        assert.equal((await groupTotals(h, id)).users, 2);
      });
    });
  });

  describe(`GET /me/groups and /users/{user_id}/groups (${driver.name})`, () => {
    let h: Harness;
    let uma: Fixture;
    let owner: Fixture;
    let outsider: Fixture;
    const ids: Record<string, string> = {};
    const list = async (path: string, who?: Fixture) => {
      const r = await h.call('GET', path, { token: who?.token });
      assert.equal(r.status, 200, r.text);
      return r;
    };
    before(async () => {
      h = await Harness.start(driver);
      uma = await h.user('Uma');
      owner = await h.user('Owner');
      outsider = await h.user('Outsider');
      const extra = await h.user('Extra');
      h.clock.advance(60);
      ids.zeta = await createGroup(h, uma, 'zeta', { description: 'Uma owns it' });
      h.clock.advance(60);
      ids.Beta = await createGroup(h, owner, 'Beta');
      await joinGroup(h, uma, ids.Beta);
      await joinGroup(h, extra, ids.Beta);
      await h.call('PUT', `/groups/${ids.Beta}/videos/${await h.video(owner)}`, { token: owner.token });
      h.clock.advance(60);
      ids.closed = await createGroup(h, owner, 'closed circle');
      await joinGroup(h, uma, ids.closed);
      await editGroup(h, owner, ids.closed, { privacy: { view: 'members' } });
      h.clock.advance(60);
      await createGroup(h, owner, 'not hers');
    });
    after(() => h.stop());

    it('lists the groups a user belongs to, newest first, members-only ones to their members only', async () => {
      const mine = await list('/me/groups', uma);
      assert.equal(mine.headers.get('content-type'), 'application/vnd.reelbase.group+json;version=3.4');
      assert.deepEqual(names(mine), ['closed circle', 'Beta', 'zeta']);
      assert.equal(mine.body.total, 3);
      assert.equal(await groupsTotalOf(h, uma), 3);
      assert.deepEqual(names(await list(`/users/${uma.user.id}/groups`, owner)), ['closed circle', 'Beta', 'zeta']);
      const seen = await list(`/users/${uma.user.id}/groups`, outsider);
      assert.deepEqual(names(seen), ['Beta', 'zeta']);
      assert.equal(seen.body.total, 2);
      assert.deepEqual(names(await list(`/users/${uma.user.id}/groups`)), ['Beta', 'zeta']);
    });

    it('filter=moderated keeps the groups the user owns or moderates', async () => {
      assert.deepEqual(names(await list('/me/groups?filter=moderated', uma)), ['zeta']);
      assert.deepEqual(names(await list(`/users/${owner.user.id}/groups?filter=moderated&sort=alphabetical`)), ['Beta', 'not hers']);
    });

    it('sorts alphabetically, by date, members and videos, searches and pages', async () => {
      const path = `/users/${uma.user.id}/groups`;
      assert.deepEqual(names(await list(`${path}?sort=alphabetical`, uma)), ['Beta', 'closed circle', 'zeta']);
      assert.deepEqual(names(await list(`${path}?sort=date&direction=asc`, uma)), ['zeta', 'Beta', 'closed circle']);
      assert.deepEqual(names(await list(`${path}?sort=members`, uma)), ['Beta', 'closed circle', 'zeta']);
      assert.deepEqual(names(await list(`${path}?sort=videos`, uma)), ['Beta', 'zeta', 'closed circle']);
      assert.deepEqual(names(await list(`${path}?query=uma`, uma)), ['zeta']);
      const page = await list(`${path}?sort=alphabetical&per_page=2&page=2`, uma);
      assert.deepEqual(names(page), ['zeta']);
      assert.equal(page.body.total, 3);
      expectError(await h.call('GET', `${path}?sort=followers`), 400, 2204, 'sort');
      expectError(await h.call('GET', `${path}?filter=featured`), 400, 2204, 'filter');
    });

    it('answers 404 for an unknown user and 401 for anonymous /me', async () => {
      expectError(await h.call('GET', '/users/999999/groups'), 404, 5000);
      expectError(await h.call('GET', '/me/groups'), 401, 8003);
    });

    it('GET /me/groups/{group_id} answers 204 for a member, 404 otherwise; others learn nothing of members-only groups', async () => {
      const check = (path: string, who?: Fixture) => h.call('GET', path, { token: who?.token });
      const ok = await check(`/me/groups/${ids.Beta}`, uma);
      assert.equal(ok.status, 204, ok.text);
      assert.equal(ok.text, '');
      assert.equal((await check(`/users/${uma.user.id}/groups/${ids.Beta}`)).status, 204);
      assert.equal((await check(`/users/${uma.user.id}/groups/${ids.closed}`, owner)).status, 204);
      assert.equal((await check(`/me/groups/${ids.closed}`, uma)).status, 204);
      expectError(await check(`/users/${uma.user.id}/groups/${ids.closed}`, outsider), 404, 5000);
      expectError(await check(`/users/${uma.user.id}/groups/${ids.closed}`), 404, 5000);
      expectError(await check(`/me/groups/${ids.Beta}`, outsider), 404, 5000);
      expectError(await check('/me/groups/999999', uma), 404, 5000);
      expectError(await check(`/users/999999/groups/${ids.Beta}`), 404, 5000);
      expectError(await check(`/me/groups/${ids.Beta}`), 401, 8003);
    });
  });
}
