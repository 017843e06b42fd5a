import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isoTime } from '@reelbase/core';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';
import { createGroup, editGroup, groupsTotalOf, groupTotals, joinGroup } from '../src/groups';

const names = (r: Answer): string[] => r.body.data.map((g: { name: string }) => g.name);

for (const driver of drivers) {
  describe(`groups (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const now = () => isoTime(h.clock.now());
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    describe('POST /groups', () => {
      it('creates a group owned by the caller, who is its first member, and answers 200 with the Group', async () => {
        const before = await groupsTotalOf(h, alice);
        const r = await h.call('POST', '/groups', { token: alice.token, json: { name: '  Night Riders ', description: 'Bikes after dark' } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.group+json;version=3.4');
        const id = r.body.uri.split('/').pop();
        assert.match(r.body.uri, /^\/groups\/\d+$/);
        assert.equal(r.body.name, 'Night Riders');
        assert.equal(r.body.description, 'Bikes after dark');
        assert.equal(r.body.link, `${h.server.url}/groups/${id}`);
        assert.equal(r.body.created_time, now());
        assert.equal(r.body.modified_time, now());
        assert.equal(r.body.user.uri, `/users/${alice.user.id}`);
        assert.equal(r.body.user.name, 'Alice');
        assert.equal(r.body.pictures.type, 'default');
        assert.deepEqual(r.body.privacy, { view: 'anybody', join: 'anybody', videos: 'members', comment: 'all', invite: 'all' });
        assert.match(r.body.resource_key, /^[0-9a-f]{40}$/);
        assert.equal('stats' in r.body, false);
        assert.deepEqual(r.body.metadata, {
          connections: {
            users: { uri: `/groups/${id}/users`, options: ['GET'], total: 1 },
            videos: { uri: `/groups/${id}/videos`, options: ['GET'], total: 0 },
          },
          interactions: {
            // The owner cannot leave (DELETE), only hand the group on; owners moderate.
            join: { uri: `/users/${alice.user.id}/groups/${id}`, options: ['GET', 'PUT'], added: true, added_time: now(), title: null, type: 'moderator' },
          },
        });
        assert.equal(await groupsTotalOf(h, alice), before + 1);
        assert.equal((await h.call('GET', `/me/groups/${id}`, { token: alice.token })).status, 204);
      });

      it('takes a form body, and the description is optional (empty when left out)', async () => {
        const r = await h.call('POST', '/groups', { token: alice.token, form: { name: 'Form Group' } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.name, 'Form Group');
        assert.equal(r.body.description, '');
      });

      it('answers 400 naming the field for a missing, blank or too long name or a bad description, and writes nothing', async () => {
        const before = await groupsTotalOf(h, bob);
        const cases: [unknown, string][] = [
          [{}, 'name'],
          [{ name: '' }, 'name'],
          [{ name: '   ' }, 'name'],
          [{ name: 'x'.repeat(129) }, 'name'],
          [{ name: 7 }, 'name'],
          [{ name: 'ok', description: 5 }, 'description'],
          [{ name: 'ok', description: 'd'.repeat(5001) }, 'description'],
        ];
        for (const [json, field] of cases) expectError(await h.call('POST', '/groups', { token: bob.token, json }), 400, 2204, field);
        expectError(await h.call('POST', '/groups', { token: bob.token, raw: '{"name":', headers: { 'content-type': 'application/json' } }), 400, 2205);
        expectError(await h.call('POST', '/groups', { token: bob.token, json: ['name'] }), 400, 2205);
        assert.equal(await groupsTotalOf(h, bob), before);
        assert.equal((await h.call('GET', '/me/groups', { token: bob.token })).body.total, before);
      });

      it('answers 403/3411 to an unverified user, 403 without the create scope and 401 anonymous', async () => {
        const unverified = await h.user('Unverified', 'all', { verified: false });
        expectError(await h.call('POST', '/groups', { token: unverified.token, json: { name: 'Nope' } }), 403, 3411);
        const noCreate = await h.user('NoCreate', 'public,private,edit,delete,interact,upload');
        const r = await h.call('POST', '/groups', { token: noCreate.token, json: { name: 'Nope' } });
        expectError(r, 403, 3200);
        assert.match(r.body.developer_message, /"create"/);
        expectError(await h.call('POST', '/groups', { json: { name: 'Nope' } }), 401, 8003);
        assert.equal(await groupsTotalOf(h, unverified), 0);
        assert.equal((await h.call('GET', '/groups?query=Nope')).body.total, 0);
      });
    });

    describe('GET /groups/{group_id}', () => {
      it('answers the Group to anyone, with the join interaction for the caller; 404 for unknown ids', async () => {
        const id = await createGroup(h, alice, 'Readable');
        const anon = await h.call('GET', `/groups/${id}`);
        assert.equal(anon.status, 200);
        assert.equal(anon.headers.get('content-type'), 'application/vnd.reelbase.group+json;version=3.4');
        assert.deepEqual(anon.body.metadata.interactions, {});
        const asBob = await h.call('GET', `/groups/${id}`, { token: bob.token });
        assert.deepEqual(asBob.body.metadata.interactions.join, {
          uri: `/users/${bob.user.id}/groups/${id}`,
          // Not a member: nothing to leave.
          options: ['GET', 'PUT'],
          added: false,
          added_time: null,
          title: null,
          type: null,
        });
        for (const missing of ['999999', 'abc', '-1']) expectError(await h.call('GET', `/groups/${missing}`), 404, 5000);
      });

      it('shows privacy.forums before 3.4 and no connections before 3.2, with the plain content type in 3.1', async () => {
        const id = await createGroup(h, alice, 'Versions');
        const v33 = await h.call('GET', `/groups/${id}`, { version: '3.3' });
        assert.deepEqual(v33.body.privacy, { view: 'anybody', join: 'anybody', videos: 'members', comment: 'all', invite: 'all', forums: 'all' });
        assert.equal(v33.headers.get('content-type'), 'application/vnd.reelbase.group+json;version=3.3');
        const v32 = await h.call('GET', `/groups/${id}`, { version: '3.2' });
        assert.equal(v32.body.metadata.connections.users.total, 1);
        const v31 = await h.call('GET', `/groups/${id}`, { version: '3.1' });
        assert.equal(v31.headers.get('content-type'), 'application/json');
        assert.equal('metadata' in v31.body, false);
        assert.equal(v31.body.privacy.forums, 'all');
      });
    });

    describe('PATCH /groups/{group_id}', () => {
      it('edits name, description and privacy (owner only) and answers 200 with the Group (204 before 3.2)', async () => {
        const id = await createGroup(h, alice, 'Before', { description: 'old' });
        h.clock.advance(60);
        const r = await h.call('PATCH', `/groups/${id}`, {
          token: alice.token,
          json: { name: 'After', description: 'new', privacy: { view: 'members', videos: 'moderators' } },
        });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.group+json;version=3.4');
        assert.equal(r.body.name, 'After');
        assert.equal(r.body.description, 'new');
        assert.deepEqual(r.body.privacy, { view: 'members', join: 'anybody', videos: 'moderators', comment: 'all', invite: 'all' });
        assert.equal(r.body.modified_time, now());
        assert.notEqual(r.body.created_time, r.body.modified_time);
        const form = await h.call('PATCH', `/groups/${id}`, { token: alice.token, form: { 'privacy.join': 'members', 'privacy.comment': 'members', 'privacy.invite': 'moderators' } });
        assert.deepEqual(form.body.privacy, { view: 'members', join: 'members', videos: 'moderators', comment: 'members', invite: 'moderators' });
        const old = await h.call('PATCH', `/groups/${id}`, { token: alice.token, json: { name: 'Old Form' }, version: '3.1' });
        assert.equal(old.status, 204);
        assert.equal(old.text, '');
        assert.equal((await h.call('GET', `/groups/${id}`)).body.name, 'Old Form');
      });

      it('takes privacy.forums before 3.4 and drops it from 3.4 on', async () => {
        const id = await createGroup(h, alice, 'Forums');
        const v33 = await h.call('PATCH', `/groups/${id}`, { token: alice.token, json: { privacy: { forums: 'members' } }, version: '3.3' });
        assert.equal(v33.body.privacy.forums, 'members');
        const v34 = await h.call('PATCH', `/groups/${id}`, { token: alice.token, json: { privacy: { forums: 'all' } } });
        assert.equal(v34.status, 200);
        assert.equal('forums' in v34.body.privacy, false);
        assert.equal((await h.call('GET', `/groups/${id}`, { version: '3.3' })).body.privacy.forums, 'members');
      });

      it('answers 400 naming the field for bad values, and changes nothing', async () => {
        const id = await createGroup(h, alice, 'Strict');
        const cases: [unknown, string][] = [
          [{ name: '' }, 'name'],
          [{ privacy: { view: 'nobody' } }, 'privacy.view'],
          [{ privacy: { join: 'all' } }, 'privacy.join'],
          [{ privacy: { videos: 'anybody' } }, 'privacy.videos'],
          [{ privacy: { comment: 'nobody' } }, 'privacy.comment'],
          [{ privacy: { invite: 'owner' } }, 'privacy.invite'],
          [{ privacy: 'members' }, 'privacy'],
          [{ owner: '' }, 'owner'],
        ];
        for (const [json, field] of cases) expectError(await h.call('PATCH', `/groups/${id}`, { token: alice.token, json }), 400, 2204, field);
        const r = await h.call('GET', `/groups/${id}`);
        assert.equal(r.body.name, 'Strict');
        assert.equal(r.body.privacy.view, 'anybody');
      });

      it('is for the owner only (403), needs the edit scope (403) and a user (401); 404 for a missing group', async () => {
        const id = await createGroup(h, alice, 'Guarded');
        await joinGroup(h, bob, id);
        expectError(await h.call('PATCH', `/groups/${id}`, { token: bob.token, json: { name: 'Mine' } }), 403, 3200);
        const noEdit = await h.user('NoEdit', 'public,private,create,delete,interact,upload');
        expectError(await h.call('PATCH', `/groups/${id}`, { token: noEdit.token, json: { name: 'Mine' } }), 403, 3200);
        expectError(await h.call('PATCH', `/groups/${id}`, { json: { name: 'Mine' } }), 401, 8003);
        expectError(await h.call('PATCH', '/groups/999999', { token: alice.token, json: { name: 'Mine' } }), 404, 5000);
        assert.equal((await h.call('GET', `/groups/${id}`)).body.name, 'Guarded');
      });
    });

    describe('DELETE /groups/{group_id}', () => {
      it('deletes the group with its memberships, keeping every member\'s groups total exact (204)', async () => {
        const carol = await h.user('Carol');
        const id = await createGroup(h, alice, 'Doomed');
        await joinGroup(h, bob, id);
        await joinGroup(h, carol, id);
        const video = await h.video(carol);
        assert.equal((await h.call('PUT', `/groups/${id}/videos/${video}`, { token: carol.token })).status, 200);
        const [a, b] = [await groupsTotalOf(h, alice), await groupsTotalOf(h, bob)];
        assert.equal(await groupsTotalOf(h, carol), 1);
        const r = await h.call('DELETE', `/groups/${id}`, { token: alice.token });
        assert.equal(r.status, 204, r.text);
        assert.equal(r.text, '');
        expectError(await h.call('GET', `/groups/${id}`), 404, 5000);
        expectError(await h.call('GET', `/groups/${id}/videos`), 404, 5000);
        expectError(await h.call('GET', `/me/groups/${id}`, { token: bob.token }), 404, 5000);
        assert.deepEqual([await groupsTotalOf(h, alice), await groupsTotalOf(h, bob), await groupsTotalOf(h, carol)], [a - 1, b - 1, 0]);
        assert.equal((await h.call('GET', `/videos/${video}`)).status, 200);
        assert.equal(await h.service.store.count('group_members', { field: 'group_id', op: 'eq', value: id }), 0);
        assert.equal(await h.service.store.count('group_videos', { field: 'group_id', op: 'eq', value: id }), 0);
      });

      it('answers 403 to a member who is not the owner, 403 without the delete scope, 401 anonymous, 404 when missing', async () => {
        const id = await createGroup(h, alice, 'Sturdy');
        await joinGroup(h, bob, id);
        expectError(await h.call('DELETE', `/groups/${id}`, { token: bob.token }), 403, 3200);
        const noDelete = await h.user('NoDelete', 'public,private,create,edit,interact,upload');
        expectError(await h.call('DELETE', `/groups/${id}`, { token: noDelete.token }), 403, 3200);
        expectError(await h.call('DELETE', `/groups/${id}`), 401, 8003);
        expectError(await h.call('DELETE', '/groups/999999', { token: alice.token }), 404, 5000);
        assert.deepEqual(await groupTotals(h, id), { users: 2, videos: 0 });
      });
    });
  });

  describe(`GET /groups (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const ids: Record<string, string> = {};
    const list = async (q: string, who?: Fixture) => {
      const r = await h.call('GET', `/groups${q}`, { token: who?.token });
      assert.equal(r.status, 200, r.text);
      return r;
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      const members = [await h.user('M1'), await h.user('M2'), await h.user('M3')];
      // Created a minute apart: names, members, videos and dates all order differently.
      const groups: [string, string, number, number][] = [
        ['bravo', 'Cycling around town', 2, 0],
        ['Alpha cycling', 'Weekend rides', 0, 2],
        ['charlie', 'Hiking', 3, 1],
        ['Delta', 'All about cycling gear', 1, 0],
      ];
      for (const [name, description, memberCount, videoCount] of groups) {
        h.clock.advance(60);
        const id = await createGroup(h, alice, name, { description });
        ids[name] = id;
        for (const m of members.slice(0, memberCount)) await joinGroup(h, m, id);
        for (let i = 0; i < videoCount; i++) {
          assert.equal((await h.call('PUT', `/groups/${id}/videos/${await h.video(alice)}`, { token: alice.token })).status, 200);
        }
      }
      h.clock.advance(60);
      ids.secret = await createGroup(h, bob, 'secret cycling');
      await editGroup(h, bob, ids.secret, { privacy: { view: 'members' } });
      await h.service.store.update('groups', ids.charlie, { featured: true });
      await h.service.store.update('groups', ids.Delta, { featured: true });
    });
    after(() => h.stop());

    it('lists the groups anybody may see, newest first, as Groups', async () => {
      const r = await list('');
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.group+json;version=3.4');
      assert.equal(r.body.total, 4);
      assert.deepEqual(names(r), ['Delta', 'charlie', 'Alpha cycling', 'bravo']);
      assert.equal(r.body.data[1].metadata.connections.users.total, 4);
      assert.equal(r.body.data[1].metadata.connections.videos.total, 1);
    });

    it('lists a members-only group to its members only', async () => {
      assert.deepEqual(names(await list('?sort=alphabetical', bob)), ['Alpha cycling', 'bravo', 'charlie', 'Delta', 'secret cycling']);
      assert.equal((await list('', alice)).body.total, 4);
    });

    it('sorts alphabetically, by date, followers (members) and videos, in either direction', async () => {
      assert.deepEqual(names(await list('?sort=alphabetical')), ['Alpha cycling', 'bravo', 'charlie', 'Delta']);
      assert.deepEqual(names(await list('?sort=alphabetical&direction=desc')), ['Delta', 'charlie', 'bravo', 'Alpha cycling']);
      assert.deepEqual(names(await list('?sort=date&direction=asc')), ['bravo', 'Alpha cycling', 'charlie', 'Delta']);
      assert.deepEqual(names(await list('?sort=followers')), ['charlie', 'bravo', 'Delta', 'Alpha cycling']);
      assert.deepEqual(names(await list('?sort=followers&direction=asc')), ['Alpha cycling', 'Delta', 'bravo', 'charlie']);
      assert.deepEqual(names(await list('?sort=videos')), ['Alpha cycling', 'charlie', 'bravo', 'Delta']);
    });

    it('filters featured groups and searches names and descriptions', async () => {
      assert.deepEqual(names(await list('?filter=featured')), ['Delta', 'charlie']);
      const found = await list('?query=CYCLING&sort=alphabetical');
      assert.deepEqual(names(found), ['Alpha cycling', 'bravo', 'Delta']);
      assert.equal(found.body.total, 3);
      assert.deepEqual(names(await list('?query=cycling&filter=featured')), ['Delta']);
    });

    it('sort=relevant ranks name matches before description matches, each by members, and pages across both', async () => {
      // Equal members: the older group first.
      assert.deepEqual(names(await list('?query=cycling&sort=relevant', bob)), ['Alpha cycling', 'secret cycling', 'bravo', 'Delta']);
      const page2 = await list('?query=cycling&sort=relevant&per_page=1&page=2');
      assert.deepEqual(names(page2), ['bravo']);
      assert.equal(page2.body.total, 3);
      const page1 = await list('?query=cycling&sort=relevant&per_page=2');
      assert.deepEqual(names(page1), ['Alpha cycling', 'bravo']);
      assert.equal(page1.body.total, 3);
      assert.deepEqual(names(await list('?query=cycling&sort=relevant&per_page=2&page=2')), ['Delta']);
    });

    it('answers 400 for sort=relevant without a query and for values it does not list', async () => {
      expectError(await h.call('GET', '/groups?sort=relevant'), 400, 2204, 'query');
      expectError(await h.call('GET', '/groups?sort=relevant&query=%20%20'), 400, 2204, 'query');
      expectError(await h.call('GET', '/groups?sort=members'), 400, 2204, 'sort');
      expectError(await h.call('GET', '/groups?filter=moderated'), 400, 2204, 'filter');
      expectError(await h.call('GET', '/groups?direction=up'), 400, 2204, 'direction');
      expectError(await h.call('GET', '/groups?per_page=101'), 400, 2204, 'per_page');
    });

    it('pages with true totals and links', async () => {
      const r = await list('?sort=alphabetical&per_page=3&page=2');
      assert.deepEqual(names(r), ['Delta']);
      assert.equal(r.body.total, 4);
      assert.equal(r.body.paging.previous, '/groups?sort=alphabetical&per_page=3&page=1');
      assert.equal(r.body.paging.next, null);
    });
  });
}
