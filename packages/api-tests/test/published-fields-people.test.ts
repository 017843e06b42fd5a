import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';
import { createChannel } from '../src/channels';
import { createGroup, editGroup, joinGroup } from '../src/groups';

/**
 * The fields the hosted API publishes as required for the User, the Group and the Category (issue
 * 22, "Compatibility" item 2), with their exact values as the owner, another user and nobody see
 * them: real ones from the store, each connection's total the total of the list its uri answers,
 * and the documented empty forms of what reelbase has no feature for.
 */

/** The list a connection names, as `viewer` reads it: its total must be the connection's. */
async function listTotal(h: Harness, uri: string, viewer: Fixture | null): Promise<number> {
  const r = await h.call('GET', uri, { token: viewer?.token });
  assert.equal(r.status, 200, `${uri}: ${r.text}`);
  return r.body.total;
}

const emptyConnection = (uri: string) => ({ uri, options: ['GET'], total: 0 });

for (const driver of drivers) {
  describe(`published fields of users, groups and categories (${driver.name})`, () => {
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

    describe('User', () => {
      it('the owner sees the empty forms of blocking, portfolios, recommendations and reports, and the follow of themselves', async () => {
        const me = (await h.call('GET', '/me', { token: alice.token })).body;
        const u = `/users/${alice.user.id}`;
        const { connections, interactions } = me.metadata;
        assert.deepEqual(connections.block, emptyConnection(`${u}/block`));
        assert.deepEqual(connections.portfolios, emptyConnection(`${u}/portfolios`));
        assert.deepEqual(connections.recommended_channels, emptyConnection(`${u}/recommendations/channels`));
        assert.deepEqual(connections.recommended_users, emptyConnection(`${u}/recommendations/users`));
        assert.deepEqual(interactions, {
          block: { uri: null, options: [], added: false, added_time: null },
          report: { uri: null, options: [], reason: [] },
          // Nobody follows themselves (PUT answers 400): only the check, which says no.
          follow: { uri: `${u}/following/${alice.user.id}`, options: ['GET'], added: false, added_time: null },
        });
        assert.equal((await h.call('GET', `${u}/following/${alice.user.id}`, { token: alice.token })).status, 404);
      });

      it('the empty lists answer an empty page to whoever may read them', async () => {
        for (const path of ['/me/block', '/me/portfolios', '/me/recommendations/channels', '/me/recommendations/users']) {
          const r = await h.call('GET', `${path}?per_page=10`, { token: alice.token });
          assert.equal(r.status, 200, path);
          assert.deepEqual(r.body, {
            total: 0,
            page: 1,
            per_page: 10,
            paging: { next: null, previous: null, first: `${path}?per_page=10&page=1`, last: `${path}?per_page=10&page=1` },
            data: [],
          });
        }
        // Whom a user blocks and what is recommended to them are theirs to read; portfolios are anybody's.
        for (const path of ['block', 'recommendations/channels', 'recommendations/users']) {
          expectError(await h.call('GET', `/users/${alice.user.id}/${path}`, { token: bob.token }), 403, 3200);
          expectError(await h.call('GET', `/users/${alice.user.id}/${path}`), 401, 8003);
        }
        assert.equal((await h.call('GET', `/users/${alice.user.id}/portfolios`)).body.total, 0);
        expectError(await h.call('GET', '/users/987654/portfolios'), 404, 5000);
        expectError(await h.call('GET', '/me/block?per_page=0', { token: alice.token }), 400, 2204, 'per_page');
      });

      it('upload_quota: the lifetime quota is the space shown; there is no periodic quota', async () => {
        const quota = (await h.call('GET', '/me', { token: alice.token })).body.upload_quota;
        const bytes = 500 * 1024 ** 3;
        assert.deepEqual(quota, {
          space: { free: bytes, max: bytes, used: 0, showing: 'lifetime' },
          lifetime: { free: bytes, max: bytes, used: 0 },
          periodic: { free: null, max: null, used: null, reset_date: null },
        });
        assert.equal((await h.call('GET', `/users/${alice.user.id}`, { token: bob.token })).body.upload_quota, undefined);
        const v33 = (await h.call('GET', '/me', { token: alice.token, version: '3.3' })).body.upload_quota;
        assert.deepEqual(v33.lifetime, quota.lifetime);
        assert.deepEqual(v33.quota, { hd: true, sd: true });
      });

      it("moderated_channels counts the channels the user moderates that the viewer may see, as the list does", async () => {
        const dana = await h.user('Dana');
        await createChannel(h, dana, 'Open');
        await createChannel(h, dana, 'Closed', { privacy: 'moderators' });
        const uri = `/users/${dana.user.id}/channels?filter=moderated`;
        for (const [viewer, total] of [[dana, 2], [bob, 1], [null, 1]] as const) {
          const connection = (await h.call('GET', `/users/${dana.user.id}`, { token: viewer?.token })).body.metadata.connections.moderated_channels;
          assert.deepEqual(connection, { uri, options: ['GET'], total }, viewer?.user.name ?? 'anonymous');
          assert.equal(await listTotal(h, uri, viewer), total);
        }
        // A page of users reads the rows of all of them at once: each still gets their own total.
        const page = (await h.call('GET', '/users?per_page=100', { token: bob.token })).body.data;
        const totals = Object.fromEntries(page.map((u: { name: string; metadata: { connections: { moderated_channels: { total: number } } } }) => [u.name, u.metadata.connections.moderated_channels.total]));
        assert.deepEqual(totals, { Alice: 0, Bob: 0, Carol: 0, Dana: 1 });
      });

      it('shared counts the videos of others shared with the user through a users list, as /shared/videos lists them', async () => {
        const erin = await h.user('Erin');
        const shared = await h.video(bob, { name: 'For Erin', privacy: { view: 'users' } });
        await h.video(bob, { name: 'Public', privacy: { view: 'anybody' } });
        const connection = async () => (await h.call('GET', '/me', { token: erin.token })).body.metadata.connections.shared;
        const uri = `/users/${erin.user.id}/shared/videos`;
        assert.deepEqual(await connection(), { uri, options: ['GET'], total: 0 });
        assert.equal((await h.call('PUT', `/videos/${shared}/privacy/users/${erin.user.id}`, { token: bob.token })).status, 200);
        assert.deepEqual(await connection(), { uri, options: ['GET'], total: 1 });
        const list = await h.call('GET', uri, { token: erin.token });
        assert.deepEqual(
          list.body.data.map((v: { uri: string }) => v.uri),
          [`/videos/${shared}`],
        );
        assert.equal(list.body.total, 1);
        // Others may not read the list, so they count none of it (issue 46 §7: counts by the same rule as lists).
        assert.equal((await h.call('GET', `/users/${erin.user.id}`, { token: carol.token })).body.metadata.connections.shared.total, 0);
        expectError(await h.call('GET', uri, { token: carol.token }), 403, 3200);
        // Made public, the video is no longer shared through the list.
        assert.equal((await h.call('PATCH', `/videos/${shared}`, { token: bob.token, json: { privacy: { view: 'anybody' } } })).status, 200);
        assert.equal((await connection()).total, 0);
        assert.equal(await listTotal(h, uri, erin), 0);
      });

      it('a user with more rows than one read takes still gets the exact total', async () => {
        const gina = await h.user('Gina');
        // Beyond the 200 rows a page of users is read in at once (domain/user-connections.ts), each user's are counted.
        for (let i = 0; i < 201; i++) await createChannel(h, gina, `Gina's ${i}`);
        const uri = `/users/${gina.user.id}/channels?filter=moderated`;
        assert.equal((await h.call('GET', '/me', { token: gina.token })).body.metadata.connections.moderated_channels.total, 201);
        assert.equal(await listTotal(h, uri, gina), 201);
        const page = await h.call('GET', '/users?query=Gina', { token: bob.token });
        assert.equal(page.body.data[0].metadata.connections.moderated_channels.total, 201);
      });

      it('another user sees their follow with what they may do; nobody sees only the empty forms', async () => {
        const u = `/users/${alice.user.id}`;
        const follow = async (viewer: Fixture) => (await h.call('GET', u, { token: viewer.token })).body.metadata.interactions.follow;
        assert.deepEqual(await follow(carol), { uri: `/users/${carol.user.id}/following/${alice.user.id}`, options: ['GET', 'PUT', 'DELETE'], added: false, added_time: null });
        h.clock.advance(60);
        assert.equal((await h.call('PUT', `/me/following/${alice.user.id}`, { token: carol.token })).status, 204);
        assert.deepEqual(await follow(carol), {
          uri: `/users/${carol.user.id}/following/${alice.user.id}`,
          options: ['GET', 'PUT', 'DELETE'],
          added: true,
          added_time: '2026-01-02T03:05:05+00:00',
        });
        // An administrator took away Frank's right to follow: he may only unfollow.
        const frank = await h.user('Frank', 'all', { can_follow: false });
        assert.deepEqual((await follow(frank)).options, ['GET', 'DELETE']);
        expectError(await h.call('PUT', `/me/following/${alice.user.id}`, { token: frank.token }), 403, 3417);
        const anon = (await h.call('GET', u)).body.metadata;
        assert.deepEqual(anon.interactions, { block: { uri: null, options: [], added: false, added_time: null }, report: { uri: null, options: [], reason: [] } });
        assert.deepEqual(anon.connections.block, emptyConnection(`${u}/block`));
      });

      it('the new connections appear from 3.2 on, where connections do', async () => {
        const v31 = (await h.call('GET', '/me', { token: alice.token, version: '3.1' })).body;
        assert.equal(v31.metadata, undefined);
        assert.ok(v31.upload_quota.periodic);
        const v32 = (await h.call('GET', '/me', { token: alice.token, version: '3.2' })).body;
        assert.deepEqual(v32.metadata.connections.portfolios, emptyConnection(`/users/${alice.user.id}/portfolios`));
      });
    });

    describe('Group', () => {
      it("join: the viewer's role, no title, and only the methods they may use", async () => {
        const created = '2026-01-02T04:00:00+00:00';
        h.clock.time = Date.parse(created);
        const id = await createGroup(h, alice, 'Roles');
        const join = async (viewer: Fixture) => (await h.call('GET', `/groups/${id}`, { token: viewer.token })).body.metadata.interactions.join;
        const uri = (viewer: Fixture) => `/users/${viewer.user.id}/groups/${id}`;
        assert.deepEqual(await join(alice), { uri: uri(alice), options: ['GET', 'PUT'], added: true, added_time: created, title: null, type: 'moderator' });
        assert.deepEqual(await join(bob), { uri: uri(bob), options: ['GET', 'PUT'], added: false, added_time: null, title: null, type: null });
        await joinGroup(h, bob, id);
        assert.deepEqual(await join(bob), { uri: uri(bob), options: ['GET', 'PUT', 'DELETE'], added: true, added_time: created, title: null, type: 'member' });
        // Closed to newcomers: Carol may only check.
        await editGroup(h, alice, id, { privacy: { join: 'members' } });
        assert.deepEqual((await join(carol)).options, ['GET']);
        expectError(await h.call('PUT', `/me/groups/${id}`, { token: carol.token }), 403, 3200);
        // An unverified user joins no group, open or not.
        const open = await createGroup(h, alice, 'Open');
        const unverified = await h.user('Unverified', 'all', { verified: false });
        assert.deepEqual((await h.call('GET', `/groups/${open}`, { token: unverified.token })).body.metadata.interactions.join.options, ['GET']);
        expectError(await h.call('PUT', `/me/groups/${open}`, { token: unverified.token }), 403, 3411);
        assert.deepEqual((await h.call('GET', `/groups/${id}`)).body.metadata.interactions, {});
      });
    });

    describe('Category', () => {
      let owner: Fixture;
      let other: Fixture;
      let publicVideo: string;
      let privateVideo: string;

      before(async () => {
        owner = await h.user('Category owner');
        other = await h.user('Category other');
        h.clock.time = Date.parse('2026-01-03T00:00:00Z');
        publicVideo = await h.video(owner, { name: 'Public in 2D' });
        assert.equal((await h.call('PUT', `/videos/${publicVideo}/categories`, { token: owner.token, json: { category: ['2d'] } })).status, 201);
        h.clock.advance(3600);
        privateVideo = await h.video(other, { name: 'Private', privacy: { view: 'nobody' } });
        assert.equal((await h.call('PUT', `/videos/${privateVideo}/categories`, { token: other.token, json: { category: ['stop-motion'] } })).status, 201);
        const channel = await createChannel(h, owner, 'Animated');
        assert.equal((await h.call('PUT', `/channels/${channel}/categories/animation`, { token: owner.token })).status, 204);
        const hidden = await createChannel(h, other, 'Hidden animation', { privacy: 'moderators' });
        assert.equal((await h.call('PUT', `/channels/${hidden}/categories/animation`, { token: other.token })).status, 204);
        const group = await createGroup(h, owner, 'Animators');
        assert.equal((await h.call('PUT', `/groups/${group}/videos/${publicVideo}`, { token: owner.token })).status, 200);
      });

      it('counts what each list of the category shows the viewer, with the latest video put in it', async () => {
        const expected: [Fixture | null, Record<string, number>, string][] = [
          // The owner of the private video and its channel sees both; others only the public ones.
          [other, { channels: 2, groups: 1, users: 2, videos: 2 }, '2026-01-03T01:00:00+00:00'],
          [owner, { channels: 1, groups: 1, users: 1, videos: 1 }, '2026-01-03T00:00:00+00:00'],
          [null, { channels: 1, groups: 1, users: 1, videos: 1 }, '2026-01-03T00:00:00+00:00'],
        ];
        for (const [viewer, totals, last] of expected) {
          const who = viewer?.user.name ?? 'anonymous';
          const c = (await h.call('GET', '/categories/animation', { token: viewer?.token })).body;
          assert.equal(c.last_video_featured_time, last, who);
          for (const [name, total] of Object.entries(totals)) {
            const uri = `/categories/animation/${name}`;
            assert.deepEqual(c.metadata.connections[name], { uri, options: ['GET'], total }, `${who}: ${name}`);
            assert.equal(await listTotal(h, uri, viewer), total, `${who}: ${uri}`);
          }
        }
        const users = await h.call('GET', '/categories/animation/users', { token: other.token });
        assert.deepEqual(users.body.data.map((u: { name: string }) => u.name), ['Category other', 'Category owner']);
      });

      it('a category nothing visible was put in: zero totals and no time; its picture is the placeholder', async () => {
        const c = (await h.call('GET', '/categories/music', { token: owner.token })).body;
        assert.equal(c.last_video_featured_time, null);
        for (const name of ['channels', 'groups', 'users', 'videos']) assert.equal(c.metadata.connections[name].total, 0, name);
        assert.equal(c.pictures.type, 'default');
        assert.equal(c.pictures.active, true);
        assert.match(c.pictures.link, /\/static\/placeholders\/thumbnail_\d+x\d+\.png$/);
        assert.equal((await fetch(c.pictures.link)).status, 200);
      });

      it('only a category read by itself carries its stats: lists and a category embedded in a Clip carry none', async () => {
        // Each total is a count over the category's videos the caller may see: a list would count every category it shows.
        const listed = (await h.call('GET', '/categories?per_page=100')).body.data.find((c: { uri: string }) => c.uri === '/categories/animation');
        assert.deepEqual(listed.metadata.connections.videos, { uri: '/categories/animation/videos', options: ['GET'] });
        assert.equal('last_video_featured_time' in listed, false);
        const followed = await h.call('PUT', '/me/categories/animation', { token: owner.token });
        assert.equal(followed.status, 204);
        const mine = (await h.call('GET', '/me/categories', { token: owner.token })).body.data[0];
        assert.deepEqual(mine.metadata.connections.users, { uri: '/categories/animation/users', options: ['GET'] });
        assert.equal(mine.metadata.interactions.follow.added, true);
        assert.equal((await h.call('GET', '/categories/animation', { token: owner.token })).body.metadata.connections.users.total, 1);
        const embedded = (await h.call('GET', `/videos/${publicVideo}`, { token: owner.token })).body.categories[0];
        assert.equal(embedded.uri, '/categories/2d');
        assert.equal('last_video_featured_time' in embedded, false);
        assert.deepEqual(embedded.metadata.connections.users, { uri: '/categories/2d/users', options: ['GET'] });
        assert.equal(embedded.pictures.type, 'default');
      });
    });
  });
}
