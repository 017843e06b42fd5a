import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';
import { createGroup, editGroup, groupTotals, joinGroup } from '../src/groups';

const names = (r: Answer): string[] => r.body.data.map((v: { name: string }) => v.name);

for (const driver of drivers) {
  describe(`group videos (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let carol: Fixture;
    let outsider: Fixture;
    const put = (group: string, video: string, who: Fixture, version?: string) =>
      h.call('PUT', `/groups/${group}/videos/${video}`, { token: who.token, version });
    const remove = (group: string, video: string, who: Fixture) => h.call('DELETE', `/groups/${group}/videos/${video}`, { token: who.token });
    const listed = async (group: string, who?: Fixture) => names(await h.call('GET', `/groups/${group}/videos?sort=alphabetical`, { token: who?.token }));
    /** A group of Alice's with Bob and Carol as members. */
    const newGroup = async (name: string) => {
      const id = await createGroup(h, alice, name);
      await joinGroup(h, bob, id);
      await joinGroup(h, carol, id);
      return id;
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      carol = await h.user('Carol');
      outsider = await h.user('Outsider');
    });
    after(() => h.stop());

    describe('PUT /groups/{group_id}/videos/{video_id}', () => {
      it('adds a member\'s video and answers 200 with the Clip; the group counts and lists it', async () => {
        const group = await newGroup('Open');
        const video = await h.video(bob, { name: 'Bob clip' });
        const r = await put(group, video, bob);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
        assert.equal(r.body.uri, `/videos/${video}`);
        assert.equal(r.body.name, 'Bob clip');
        assert.equal((await groupTotals(h, group)).videos, 1);
        assert.deepEqual(await listed(group), ['Bob clip']);
        const one = await h.call('GET', `/groups/${group}/videos/${video}`);
        assert.equal(one.status, 200);
        assert.equal(one.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
        assert.equal(one.body.uri, `/videos/${video}`);
      });

      it('answers 204 before 3.3 and 200 with the Clip from 3.3 (Versioning 3.3)', async () => {
        const group = await newGroup('Versions');
        for (const [version, status] of [['3.1', 204], ['3.2', 204], ['3.3', 200], ['3.4', 200]] as const) {
          const r = await put(group, await h.video(bob, { name: `v${version}` }), bob, version);
          assert.equal(r.status, status, `${version}: ${r.text}`);
          assert.equal(r.text === '', status === 204);
        }
        assert.equal((await groupTotals(h, group)).videos, 4);
      });

      it('answers 403 when the video is already in the group, and counts it once', async () => {
        const group = await newGroup('Once');
        const video = await h.video(bob);
        assert.equal((await put(group, video, bob)).status, 200);
        expectError(await put(group, video, bob), 403, 3200);
        expectError(await put(group, video, alice), 403, 3200);
        assert.equal((await groupTotals(h, group)).videos, 1);
      });

      it('answers 403 when the user cannot add videos: not a member, or another\'s video with privacy.add false', async () => {
        const group = await newGroup('Members add');
        expectError(await put(group, await h.video(outsider), outsider), 403, 3200);
        const locked = await h.video(carol, { privacy: { add: false } });
        expectError(await put(group, locked, bob), 403, 3200);
        assert.equal((await put(group, locked, carol)).status, 200);
        const shared = await h.video(carol, { name: 'shared' });
        assert.equal((await put(group, shared, bob)).status, 200);
        assert.equal((await groupTotals(h, group)).videos, 2);
        // privacy.videos `all`: anyone may add, member or not.
        await editGroup(h, alice, group, { privacy: { videos: 'all' } });
        assert.equal((await put(group, await h.video(outsider), outsider)).status, 200);
        assert.equal((await groupTotals(h, group)).videos, 3);
      });

      it('answers 404 for a missing group or a video the caller cannot see, 403 without edit, 401 anonymous', async () => {
        const group = await newGroup('Guarded');
        const video = await h.video(bob);
        const hidden = await h.video(carol, { privacy: { view: 'nobody' } });
        expectError(await put('999999', video, bob), 404, 5000);
        expectError(await put(group, '999999', bob), 404, 5000);
        expectError(await put(group, hidden, bob), 404, 5000);
        const noEdit = await h.user('NoEdit', 'public,private,create,delete,interact,upload');
        await joinGroup(h, noEdit, group);
        expectError(await put(group, await h.video(noEdit), noEdit), 403, 3200);
        expectError(await h.call('PUT', `/groups/${group}/videos/${video}`), 401, 8003);
        assert.equal((await groupTotals(h, group)).videos, 0);
      });

      it('a members-only group takes videos from its members only', async () => {
        const group = await newGroup('Closed');
        await editGroup(h, alice, group, { privacy: { view: 'members', videos: 'all' } });
        expectError(await put(group, await h.video(outsider), outsider), 403, 3200);
        assert.equal((await put(group, await h.video(bob), bob)).status, 200);
      });
    });

    describe('a group whose privacy.videos is moderators (approval), end to end', () => {
      it('a member\'s video waits pending (202), seen by the owner only, until the owner PUTs it again to approve it', async () => {
        const group = await newGroup('Moderated');
        await editGroup(h, alice, group, { privacy: { videos: 'moderators' } });
        const video = await h.video(bob, { name: 'Submitted' });

        const r = await put(group, video, bob);
        assert.equal(r.status, 202, r.text);
        assert.equal(r.text, '');
        assert.equal((await groupTotals(h, group)).videos, 0);
        assert.deepEqual(await listed(group), []);
        assert.deepEqual(await listed(group, bob), []);
        assert.deepEqual(await listed(group, carol), []);
        const ownerView = await h.call('GET', `/groups/${group}/videos`, { token: alice.token });
        assert.deepEqual(names(ownerView), ['Submitted']);
        assert.equal(ownerView.body.total, 1);
        expectError(await h.call('GET', `/groups/${group}/videos/${video}`, { token: bob.token }), 404, 5000);
        assert.equal((await h.call('GET', `/groups/${group}/videos/${video}`, { token: alice.token })).status, 200);

        // Submitting again changes nothing: it is already in the group, waiting.
        expectError(await put(group, video, bob), 403, 3200);
        expectError(await put(group, video, carol), 403, 3200);

        const approved = await put(group, video, alice);
        assert.equal(approved.status, 200, approved.text);
        assert.equal(approved.body.uri, `/videos/${video}`);
        assert.equal((await groupTotals(h, group)).videos, 1);
        assert.deepEqual(await listed(group), ['Submitted']);
        assert.deepEqual(await listed(group, carol), ['Submitted']);
        assert.equal((await h.call('GET', `/groups/${group}/videos/${video}`)).status, 200);
        expectError(await put(group, video, alice), 403, 3200);
      });

      it('the owner and former owners add directly; the owner rejects a pending video with DELETE', async () => {
        const group = await newGroup('Moderated 2');
        await editGroup(h, alice, group, { privacy: { videos: 'moderators' } });
        assert.equal((await put(group, await h.video(alice, { name: 'By owner' }), alice)).status, 200);
        const pending = await h.video(carol, { name: 'Rejected' });
        assert.equal((await put(group, pending, carol)).status, 202);
        assert.deepEqual(await listed(group, alice), ['By owner', 'Rejected']);
        assert.equal((await remove(group, pending, alice)).status, 204);
        assert.deepEqual(await listed(group, alice), ['By owner']);
        assert.equal((await groupTotals(h, group)).videos, 1);
        // The member may submit it again after a rejection.
        assert.equal((await put(group, pending, carol)).status, 202);

        await editGroup(h, alice, group, { owner: `/users/${bob.user.id}` });
        assert.equal((await put(group, await h.video(alice, { name: 'By former owner' }), alice)).status, 200);
        assert.deepEqual(await listed(group, bob), ['By former owner', 'By owner', 'Rejected']);
        assert.deepEqual(await listed(group, alice), ['By former owner', 'By owner']);
        assert.equal((await put(group, pending, bob)).status, 200);
        assert.equal((await groupTotals(h, group)).videos, 3);
      });
    });

    describe('DELETE /groups/{group_id}/videos/{video_id}', () => {
      it('lets the group\'s owner, the video\'s owner and whoever added it take it out (204), keeping the count exact', async () => {
        const group = await newGroup('Removals');
        const [a, b, c] = [await h.video(carol), await h.video(carol), await h.video(carol, { name: 'added by bob' })];
        for (const v of [a, b]) assert.equal((await put(group, v, carol)).status, 200);
        assert.equal((await put(group, c, bob)).status, 200);
        assert.equal((await groupTotals(h, group)).videos, 3);
        const r = await remove(group, a, alice);
        assert.equal(r.status, 204, r.text);
        assert.equal(r.text, '');
        assert.equal((await remove(group, b, carol)).status, 204);
        assert.equal((await remove(group, c, bob)).status, 204);
        assert.equal((await groupTotals(h, group)).videos, 0);
        assert.deepEqual(await listed(group), []);
        expectError(await h.call('GET', `/groups/${group}/videos/${a}`), 404, 5000);
        expectError(await remove(group, a, alice), 404, 5000);
      });

      it('answers 403 to a member who may not modify the group\'s videos, and 403 when the video may not be added to groups', async () => {
        const group = await newGroup('Protected');
        const video = await h.video(carol, { name: 'by carol' });
        assert.equal((await put(group, video, carol)).status, 200);
        expectError(await remove(group, video, bob), 403, 3200);
        expectError(await remove(group, video, outsider), 403, 3200);

        const lent = await h.video(carol, { name: 'lent' });
        assert.equal((await put(group, lent, bob)).status, 200);
        assert.equal((await h.call('PATCH', `/videos/${lent}`, { token: carol.token, json: { privacy: { add: false } } })).status, 200);
        expectError(await remove(group, lent, bob), 403, 3200);
        assert.equal((await groupTotals(h, group)).videos, 2);
        assert.equal((await remove(group, lent, carol)).status, 204);
      });

      it('answers 404 for a missing group or video or one not in the group, 403 without edit, 401 anonymous', async () => {
        const group = await newGroup('Missing');
        const video = await h.video(bob);
        assert.equal((await put(group, video, bob)).status, 200);
        expectError(await remove('999999', video, alice), 404, 5000);
        expectError(await remove(group, '999999', alice), 404, 5000);
        expectError(await remove(group, await h.video(bob), alice), 404, 5000);
        const noEdit = await h.user('NoEdit2', 'public,private,create,delete,interact,upload');
        expectError(await remove(group, video, noEdit), 403, 3200);
        expectError(await h.call('DELETE', `/groups/${group}/videos/${video}`), 401, 8003);
        assert.equal((await groupTotals(h, group)).videos, 1);
      });
    });

    it('deleting a video takes it out of its groups and keeps their counts exact', async () => {
      const group = await newGroup('Deletion');
      const video = await h.video(bob);
      assert.equal((await put(group, video, bob)).status, 200);
      assert.equal((await put(group, await h.video(bob, { name: 'stays' }), bob)).status, 200);
      assert.equal((await h.call('DELETE', `/videos/${video}`, { token: bob.token })).status, 204);
      assert.equal((await groupTotals(h, group)).videos, 1);
      assert.deepEqual(await listed(group), ['stays']);
      expectError(await h.call('GET', `/groups/${group}/videos/${video}`), 404, 5000);
    });
  });

  describe(`GET /groups/{group_id}/videos (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let outsider: Fixture;
    let group: string;
    const list = async (q: string, who?: Fixture) => {
      const r = await h.call('GET', `/groups/${group}/videos${q}`, { token: who?.token });
      assert.equal(r.status, 200, r.text);
      return r;
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      outsider = await h.user('Outsider');
      group = await createGroup(h, alice, 'Sorted');
      await joinGroup(h, bob, group);
      // name, plays, likes, comments, duration; created a minute apart.
      const rows: [string, number, number, number, number][] = [
        ['delta', 5, 1, 7, 30],
        ['Alpha', 1, 9, 0, 300],
        ['charlie', 9, 4, 2, 10],
        ['Bravo', 3, 0, 5, 120],
      ];
      for (const [name, plays, likes_total, comments_total, duration] of rows) {
        h.clock.advance(60);
        const id = await h.video(alice, { name, description: name === 'charlie' ? 'has a dog' : '' });
        await h.service.store.update('videos', id, { plays, likes_total, comments_total, duration });
        assert.equal((await h.call('PUT', `/groups/${group}/videos/${id}`, { token: alice.token })).status, 200);
      }
      h.clock.advance(60);
      const closed = await h.video(alice, { name: 'embed off', privacy: { embed: 'private' } });
      await h.call('PUT', `/groups/${group}/videos/${closed}`, { token: alice.token });
      h.clock.advance(60);
      const hidden = await h.video(bob, { name: 'bob only', privacy: { view: 'nobody' } });
      await h.call('PUT', `/groups/${group}/videos/${hidden}`, { token: bob.token });
    });
    after(() => h.stop());

    it('lists the videos the caller may see, newest first, as Clips, filtered in the store', async () => {
      const r = await list('');
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      assert.deepEqual(names(r), ['embed off', 'Bravo', 'charlie', 'Alpha', 'delta']);
      assert.equal(r.body.total, 5);
      const asBob = await list('?per_page=2', bob);
      assert.deepEqual(names(asBob), ['bob only', 'embed off']);
      assert.equal(asBob.body.total, 6);
    });

    it('sorts alphabetically, by date, plays, likes, comments and duration, in either direction', async () => {
      const sorted = async (q: string) => names(await list(`?${q}&filter=embeddable&filter_embeddable=true`));
      assert.deepEqual(await sorted('sort=alphabetical'), ['Alpha', 'Bravo', 'charlie', 'delta']);
      assert.deepEqual(await sorted('sort=alphabetical&direction=desc'), ['delta', 'charlie', 'Bravo', 'Alpha']);
      assert.deepEqual(await sorted('sort=date&direction=asc'), ['delta', 'Alpha', 'charlie', 'Bravo']);
      assert.deepEqual(await sorted('sort=plays'), ['charlie', 'delta', 'Bravo', 'Alpha']);
      assert.deepEqual(await sorted('sort=likes'), ['Alpha', 'charlie', 'delta', 'Bravo']);
      assert.deepEqual(await sorted('sort=comments'), ['delta', 'Bravo', 'charlie', 'Alpha']);
      assert.deepEqual(await sorted('sort=duration'), ['Alpha', 'Bravo', 'delta', 'charlie']);
      assert.deepEqual(await sorted('sort=duration&direction=asc'), ['charlie', 'delta', 'Bravo', 'Alpha']);
    });

    it('filters embeddable videos (filter_embeddable required) and searches names and descriptions', async () => {
      assert.deepEqual(names(await list('?filter=embeddable&filter_embeddable=false')), ['embed off']);
      assert.equal((await list('?filter=embeddable&filter_embeddable=true')).body.total, 4);
      expectError(await h.call('GET', `/groups/${group}/videos?filter=embeddable`), 400, 2204, 'filter_embeddable');
      assert.deepEqual(names(await list('?query=DOG')), ['charlie']);
      assert.deepEqual(names(await list('?query=bob', bob)), ['bob only']);
      assert.equal((await list('?query=bob')).body.total, 0);
      expectError(await h.call('GET', `/groups/${group}/videos?sort=relevant`), 400, 2204, 'sort');
      expectError(await h.call('GET', `/groups/${group}/videos?filter=featured`), 400, 2204, 'filter');
    });

    it('answers Last-Modified, and 304 to If-Modified-Since until a video is added', async () => {
      const r = await list('');
      const lastModified = r.headers.get('last-modified');
      assert.equal(lastModified, new Date(h.clock.time).toUTCString());
      const same = await h.call('GET', `/groups/${group}/videos`, { headers: { 'if-modified-since': lastModified! } });
      assert.equal(same.status, 304);
      assert.equal(same.text, '');
      h.clock.advance(60);
      const later = await h.call('GET', `/groups/${group}/videos`, { headers: { 'if-modified-since': lastModified! } });
      assert.equal(later.status, 304);
      const added = await h.video(bob, { name: 'late' });
      assert.equal((await h.call('PUT', `/groups/${group}/videos/${added}`, { token: bob.token })).status, 200);
      const fresh = await h.call('GET', `/groups/${group}/videos`, { headers: { 'if-modified-since': lastModified! } });
      assert.equal(fresh.status, 200);
      assert.equal(fresh.headers.get('last-modified'), new Date(h.clock.time).toUTCString());
      assert.equal(fresh.body.data[0].name, 'late');
    });

    it('answers 404 for a missing group or a video not in it, and 403 to outsiders of a members-only group', async () => {
      expectError(await h.call('GET', '/groups/999999/videos'), 404, 5000);
      expectError(await h.call('GET', `/groups/999999/videos/1`), 404, 5000);
      expectError(await h.call('GET', `/groups/${group}/videos/${await h.video(alice)}`), 404, 5000);
      const closed = await createGroup(h, alice, 'Closed');
      await joinGroup(h, bob, closed);
      const video = await h.video(alice, { name: 'inside' });
      await h.call('PUT', `/groups/${closed}/videos/${video}`, { token: alice.token });
      await editGroup(h, alice, closed, { privacy: { view: 'members' } });
      assert.deepEqual(names(await h.call('GET', `/groups/${closed}/videos`, { token: bob.token })), ['inside']);
      expectError(await h.call('GET', `/groups/${closed}/videos`, { token: outsider.token }), 403, 3200);
      expectError(await h.call('GET', `/groups/${closed}/videos/${video}`), 403, 3200);
    });
  });

  describe(`GET /categories/{category}/groups (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const list = async (q: string, who?: Fixture) => {
      const r = await h.call('GET', `/categories/${q}`, { token: who?.token });
      assert.equal(r.status, 200, r.text);
      return r;
    };
    /** A group of Alice's holding one video of hers in `category`, added or (moderated) left pending. */
    const groupWith = async (name: string, category: string, video: Record<string, unknown> = {}, pending = false) => {
      h.clock.advance(60);
      const id = await createGroup(h, alice, name, { description: `${name} group` });
      const clip = await h.video(alice, video);
      assert.equal((await h.call('PUT', `/videos/${clip}/categories`, { token: alice.token, json: { category: [category] } })).status, 201);
      if (pending) {
        await editGroup(h, alice, id, { privacy: { videos: 'moderators', view: 'anybody' } });
        await joinGroup(h, bob, id);
        const theirs = await h.video(bob);
        await h.call('PUT', `/videos/${theirs}/categories`, { token: bob.token, json: { category: [category] } });
        assert.equal((await h.call('PUT', `/groups/${id}/videos/${theirs}`, { token: bob.token })).status, 202);
      } else {
        assert.equal((await h.call('PUT', `/groups/${id}/videos/${clip}`, { token: alice.token })).status, 200);
      }
      return id;
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      await groupWith('Cartoons', 'animation');
      const flat = await groupWith('flat shapes', '2d');
      await joinGroup(h, bob, flat);
      await groupWith('Private reels', 'animation', { privacy: { view: 'nobody' } });
      await groupWith('Waiting room', 'animation', {}, true);
      await groupWith('Cooks', 'food');
    });
    after(() => h.stop());

    it('lists the groups holding an approved video of the category or a subcategory that the caller may see', async () => {
      const r = await list('animation/groups');
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.group+json;version=3.4');
      assert.deepEqual(names(r), ['flat shapes', 'Cartoons']);
      assert.equal(r.body.total, 2);
      assert.deepEqual(names(await list('animation/groups', alice)), ['Private reels', 'flat shapes', 'Cartoons']);
      assert.deepEqual(names(await list('2d/groups')), ['flat shapes']);
      assert.deepEqual(names(await list('Food/groups')), ['Cooks']);
      assert.equal((await list('music/groups')).body.total, 0);
    });

    it('sorts alphabetically, by date, members and videos, and searches', async () => {
      assert.deepEqual(names(await list('animation/groups?sort=alphabetical', alice)), ['Cartoons', 'flat shapes', 'Private reels']);
      assert.deepEqual(names(await list('animation/groups?sort=date&direction=asc', alice)), ['Cartoons', 'flat shapes', 'Private reels']);
      assert.deepEqual(names(await list('animation/groups?sort=members', alice)), ['flat shapes', 'Cartoons', 'Private reels']);
      assert.deepEqual(names(await list('animation/groups?sort=videos&direction=asc&query=s', alice)), ['flat shapes']);
      assert.deepEqual(names(await list('animation/groups?query=FLAT')), ['flat shapes']);
      expectError(await h.call('GET', '/categories/animation/groups?sort=followers'), 400, 2204, 'sort');
    });

    it('answers 404 for an unknown category', async () => {
      expectError(await h.call('GET', '/categories/knitting/groups'), 404, 5000);
    });
  });
}
