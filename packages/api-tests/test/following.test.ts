import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createUser, eq, isIn, type Doc, type Store, type UserRecord } from '@reelbase/core';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';

const names = (r: Answer): string[] => r.body.data.map((u: { name: string }) => u.name);

/** The follow counters as the User representation shows them. */
async function totals(h: Harness, who: Fixture): Promise<{ following: number; followers: number }> {
  const r = await h.call('GET', `/users/${who.user.id}`);
  return { following: r.body.metadata.connections.following.total, followers: r.body.metadata.connections.followers.total };
}

for (const driver of drivers) {
  describe(`following one user at a time: PUT, GET, DELETE /me/following/{id} (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    it('PUT follows (204); the check answers 204; both counters move; a second PUT changes nothing', async () => {
      const r = await h.call('PUT', `/me/following/${bob.user.id}`, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      assert.equal(r.text, '');
      assert.equal((await h.call('GET', `/me/following/${bob.user.id}`, { token: alice.token })).status, 204);
      assert.equal((await h.call('GET', `/users/${alice.user.id}/following/${bob.user.id}`)).status, 204);
      assert.deepEqual(await totals(h, alice), { following: 1, followers: 0 });
      assert.deepEqual(await totals(h, bob), { following: 0, followers: 1 });
      assert.equal((await h.call('PUT', `/users/${alice.user.id}/following/${bob.user.id}`, { token: alice.token })).status, 204);
      assert.deepEqual(await totals(h, alice), { following: 1, followers: 0 });
      assert.deepEqual(await totals(h, bob), { following: 0, followers: 1 });
    });

    it('the check answers 404 when not following and for an unknown user', async () => {
      expectError(await h.call('GET', `/users/${bob.user.id}/following/${alice.user.id}`), 404, 5000);
      expectError(await h.call('GET', '/me/following/999999', { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', '/users/999999/following/1'), 404, 5000);
      expectError(await h.call('GET', '/me/following/1'), 401, 8000);
    });

    it('a user named by custom slug can be followed', async () => {
      const carl = await h.user('Carl', 'all', { link: 'carl_films' });
      assert.equal((await h.call('PUT', '/me/following/carl_films', { token: bob.token })).status, 204);
      assert.equal((await h.call('GET', `/users/${bob.user.id}/following/${carl.user.id}`)).status, 204);
      assert.equal((await h.call('DELETE', '/me/following/carl_films', { token: bob.token })).status, 204);
    });

    it('following yourself is a 400; an unknown user a 404; nothing changes', async () => {
      expectError(await h.call('PUT', `/me/following/${alice.user.id}`, { token: alice.token }), 400, 2204, 'follow_user_id');
      expectError(await h.call('PUT', '/me/following/999999', { token: alice.token }), 404, 5000);
      expectError(await h.call('PUT', '/me/following/abc', { token: alice.token }), 404, 5000);
      assert.deepEqual(await totals(h, alice), { following: 1, followers: 0 });
    });

    it("only the user themselves may change their follows (403); 401/8000 without a valid token; scope interact", async () => {
      expectError(await h.call('PUT', `/users/${bob.user.id}/following/${alice.user.id}`, { token: alice.token }), 403, 3200);
      expectError(await h.call('DELETE', `/users/${alice.user.id}/following/${bob.user.id}`, { token: bob.token }), 403, 3200);
      expectError(await h.call('PUT', `/me/following/${bob.user.id}`), 401, 8000);
      expectError(await h.call('DELETE', `/me/following/${bob.user.id}`), 401, 8000);
      expectError(await h.call('PUT', `/me/following/${bob.user.id}`, { token: 'not-a-token' }), 401, 8000);
      expectError(await h.call('GET', '/me/following', { token: 'not-a-token' }), 401, 8000);
      const noInteract = await h.user('No interact', 'public,private,edit');
      const r = await h.call('PUT', `/me/following/${bob.user.id}`, { token: noInteract.token });
      expectError(r, 403, 3200);
      assert.match(r.body.developer_message, /"interact"/);
      assert.deepEqual(await totals(h, bob), { following: 0, followers: 1 });
    });

    it('a user who may not follow gets 403/3417 and follows nobody; they may still unfollow', async () => {
      const barred = await h.user('Barred');
      assert.equal((await h.call('PUT', `/me/following/${bob.user.id}`, { token: barred.token })).status, 204);
      await h.service.store.update<UserRecord>('users', barred.user.id, { can_follow: false });
      expectError(await h.call('PUT', `/me/following/${alice.user.id}`, { token: barred.token }), 403, 3417);
      expectError(await h.call('POST', '/me/following', { token: barred.token, json: { users: [`/users/${alice.user.id}`] } }), 403, 3417);
      assert.equal((await h.call('GET', `/me/following/${alice.user.id}`, { token: barred.token })).status, 404);
      assert.equal((await h.call('DELETE', `/me/following/${bob.user.id}`, { token: barred.token })).status, 204);
      assert.deepEqual(await totals(h, barred), { following: 0, followers: 0 });
    });

    it('DELETE unfollows (204) and both counters come back; a second DELETE is a 404', async () => {
      assert.equal((await h.call('DELETE', `/me/following/${bob.user.id}`, { token: alice.token })).status, 204);
      expectError(await h.call('GET', `/me/following/${bob.user.id}`, { token: alice.token }), 404, 5000);
      assert.deepEqual(await totals(h, alice), { following: 0, followers: 0 });
      assert.deepEqual(await totals(h, bob), { following: 0, followers: 0 });
      expectError(await h.call('DELETE', `/me/following/${bob.user.id}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', '/me/following/999999', { token: alice.token }), 404, 5000);
      assert.deepEqual(await totals(h, alice), { following: 0, followers: 0 });
    });
  });

  describe(`GET /me/following and /me/followers (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    const people: Record<string, Fixture> = {};
    const list = async (path: string, token?: string) => {
      const r = await h.call('GET', path, { token });
      assert.equal(r.status, 200, r.text);
      return r;
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      // Followed in this order, a minute apart; names sort differently from times.
      for (const name of ['carl', 'Ann', 'dora', 'Bert']) {
        people[name] = await h.user(name);
        h.clock.advance(60);
        assert.equal((await h.call('PUT', `/me/following/${people[name].user.id}`, { token: alice.token })).status, 204);
      }
      // Followers of Ann, in this order.
      for (const name of ['carl', 'dora']) {
        h.clock.advance(60);
        assert.equal((await h.call('PUT', `/me/following/${people.Ann.user.id}`, { token: people[name].token })).status, 204);
      }
    });
    after(() => h.stop());

    it('lists whom the user follows as Users, the latest followed first, with a total matching the counter', async () => {
      const r = await list('/me/following', alice.token);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
      assert.deepEqual(names(r), ['Bert', 'dora', 'Ann', 'carl']);
      assert.equal(r.body.total, 4);
      assert.equal(r.body.data[0].uri, `/users/${people.Bert.user.id}`);
      assert.equal((await totals(h, alice)).following, 4);
      assert.deepEqual(names(await list(`/users/${alice.user.id}/following`)), ['Bert', 'dora', 'Ann', 'carl']);
    });

    it('sorts by date and alphabetically in both directions, searches names and pages', async () => {
      const following = async (q: string) => names(await list(`/users/${alice.user.id}/following?${q}`));
      assert.deepEqual(await following('sort=date&direction=asc'), ['carl', 'Ann', 'dora', 'Bert']);
      assert.deepEqual(await following('sort=alphabetical'), ['Ann', 'Bert', 'carl', 'dora']);
      assert.deepEqual(await following('sort=alphabetical&direction=desc'), ['dora', 'carl', 'Bert', 'Ann']);
      assert.deepEqual(await following('query=B&sort=alphabetical'), ['Bert']);
      assert.deepEqual(await following('query=R&sort=alphabetical'), []);
      const page = await list(`/users/${alice.user.id}/following?sort=alphabetical&per_page=3&page=2`);
      assert.deepEqual(names(page), ['dora']);
      assert.equal(page.body.total, 4);
      assert.equal(page.body.paging.previous, `/users/${alice.user.id}/following?sort=alphabetical&per_page=3&page=1`);
      assert.equal(page.body.paging.next, null);
    });

    it('rejects a sort, filter, direction or paging value it does not list (400 naming it)', async () => {
      for (const [q, field] of [
        ['sort=followers', 'sort'],
        ['filter=moderators', 'filter'],
        ['direction=up', 'direction'],
        ['per_page=101', 'per_page'],
        ['page=0', 'page'],
      ]) {
        expectError(await h.call('GET', `/me/following?${q}`, { token: alice.token }), 400, 2204, field);
      }
      expectError(await h.call('GET', '/users/999999/following'), 404, 5000);
      expectError(await h.call('GET', '/users/999999/followers'), 404, 5000);
      expectError(await h.call('GET', '/me/followers'), 401, 8003);
    });

    it('filter=online keeps the users who wrote through the API in the last five minutes', async () => {
      // carl and dora last wrote when they followed Ann, five and four minutes from now; Ann and Bert never did.
      h.clock.advance(4 * 60);
      assert.deepEqual(names(await list('/me/following?filter=online&sort=alphabetical', alice.token)), ['carl', 'dora']);
      h.clock.advance(60);
      assert.deepEqual(names(await list('/me/following?filter=online', alice.token)), ['dora']);
      assert.equal((await h.call('PUT', `/me/likes/${await h.video(alice)}`, { token: people.Bert.token })).status, 204);
      const r = await list('/me/following?filter=online&sort=date', alice.token);
      assert.deepEqual(names(r), ['Bert', 'dora']);
      assert.equal(r.body.total, 2);
      assert.deepEqual(names(await list('/me/following?filter=online&query=b', alice.token)), ['Bert']);
      h.clock.advance(5 * 60 + 1);
      const none = await list('/me/following?filter=online', alice.token);
      assert.deepEqual(names(none), []);
      assert.equal(none.body.total, 0);
    });

    it('lists the followers of a user, the latest first, sorted and searched', async () => {
      const r = await list(`/users/${people.Ann.user.id}/followers`);
      assert.deepEqual(names(r), ['dora', 'carl', 'Alice']);
      assert.equal(r.body.total, 3);
      assert.equal((await totals(h, people.Ann)).followers, 3);
      assert.deepEqual(names(await list(`/users/${people.Ann.user.id}/followers?sort=date&direction=asc`)), ['Alice', 'carl', 'dora']);
      assert.deepEqual(names(await list(`/users/${people.Ann.user.id}/followers?sort=alphabetical`)), ['Alice', 'carl', 'dora']);
      assert.deepEqual(names(await list(`/users/${people.Ann.user.id}/followers?sort=alphabetical&direction=desc&query=a`)), ['Alice']);
      assert.deepEqual(names(await list('/me/followers', people.Ann.token)), ['dora', 'carl', 'Alice']);
      assert.deepEqual(names(await list('/me/followers', alice.token)), []);
    });
  });

  describe(`POST /me/following: bulk follows (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let crowd: UserRecord[];
    const uris = (users: UserRecord[]) => users.map((u) => `/users/${u.id}`);
    const followCount = () => h.service.store.count('follows');
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob', 'all', { link: 'bob_films' });
      crowd = [];
      for (let i = 0; i < 101; i++) crowd.push(await createUser(h.service.store, h.clock.now(), { name: `Member ${i}` }));
    });
    after(() => h.stop());

    it('a list with one missing user answers 400/2900 and follows nobody', async () => {
      const r = await h.call('POST', '/me/following', { token: alice.token, json: { users: [...uris(crowd.slice(0, 99)), '/users/999999'] } });
      expectError(r, 400, 2900, 'users');
      assert.match(r.body.developer_message, /\/users\/999999/);
      assert.equal(await followCount(), 0);
      assert.deepEqual(await totals(h, alice), { following: 0, followers: 0 });
      assert.equal((await totals(h, { user: crowd[0], token: '' })).followers, 0);
    });

    it('follows 100 users in one request (204), every counter exact', async () => {
      const r = await h.call('POST', '/me/following', { token: alice.token, json: { users: uris(crowd.slice(0, 100)) } });
      assert.equal(r.status, 204, r.text);
      assert.equal(r.text, '');
      assert.equal(await followCount(), 100);
      assert.deepEqual(await totals(h, alice), { following: 100, followers: 0 });
      const counted = await h.service.store.find<UserRecord>('users', { where: isIn('id', crowd.slice(0, 100).map((u) => u.id)) });
      assert.deepEqual(new Set(counted.items.map((u) => u.followers_total)), new Set([1]));
      const listed = await h.call('GET', '/me/following?per_page=100', { token: alice.token });
      assert.equal(listed.body.total, 100);
      assert.equal((await h.call('GET', `/me/following/${crowd[99].id}`, { token: alice.token })).status, 204);
    });

    it('more than 100 users answers 400/2901 and follows nobody', async () => {
      const r = await h.call('POST', '/me/following', { token: bob.token, json: { users: uris(crowd) } });
      expectError(r, 400, 2901, 'users');
      assert.equal(await followCount(), 100);
      assert.deepEqual(await totals(h, bob), { following: 0, followers: 0 });
    });

    it('users already followed, repeated entries and custom slugs follow once; a form body takes a comma list', async () => {
      const json = { users: [`/users/${crowd[0].id}`, `/users/${crowd[100].id}`, `/users/${crowd[100].id}`, '/users/bob_films'] };
      assert.equal((await h.call('POST', '/me/following', { token: alice.token, json })).status, 204);
      assert.deepEqual(await totals(h, alice), { following: 102, followers: 0 });
      assert.deepEqual(await totals(h, bob), { following: 0, followers: 1 });
      const form = { users: `/users/${alice.user.id}, /users/${crowd[5].id}` };
      assert.equal((await h.call('POST', `/users/${bob.user.id}/following`, { token: bob.token, form })).status, 204);
      assert.deepEqual(await totals(h, bob), { following: 2, followers: 1 });
      assert.deepEqual(await totals(h, alice), { following: 102, followers: 1 });
    });

    it('answers 400/2205 to an empty body, a users value that is not a list of user URIs, and changes nothing', async () => {
      const before = await followCount();
      const cases: [Parameters<Harness['call']>[2], string | undefined][] = [
        [{}, undefined],
        [{ json: {} }, 'users'],
        [{ json: { users: [] } }, 'users'],
        [{ json: { users: `/users/${crowd[7].id}` } }, 'users'],
        [{ json: { users: { 0: `/users/${crowd[7].id}` } } }, 'users'],
        [{ json: { users: [`/users/${crowd[7].id}`, 'https://example.com/users/1'] } }, 'users.1'],
        [{ json: { users: [`/users/${crowd[7].id}`, `/videos/${crowd[8].id}`] } }, 'users.1'],
        [{ json: { users: [`/users/${crowd[7].id}`, 7] } }, 'users.1'],
        [{ json: { users: [null] } }, 'users.0'],
        [{ json: [`/users/${crowd[7].id}`] }, undefined],
        [{ raw: '{"users": [', headers: { 'content-type': 'application/json' } }, undefined],
        [{ form: { users: '' } }, 'users'],
        [{ form: { users: 'nobody' } }, 'users.0'],
      ];
      for (const [options, field] of cases) {
        expectError(await h.call('POST', '/me/following', { token: alice.token, ...options }), 400, 2205, field);
      }
      assert.equal(await followCount(), before);
    });

    it('a list naming the caller is a 400 and follows nobody', async () => {
      const before = await followCount();
      const r = await h.call('POST', '/me/following', { token: bob.token, json: { users: [`/users/${crowd[9].id}`, `/users/${bob.user.id}`] } });
      expectError(r, 400, 2204, 'users');
      assert.equal(await followCount(), before);
    });

    it('is one transaction: 100 follows written in one, and a failure at the last answers 500/4005 and leaves none', async () => {
      const store = h.service.store;
      const original = store.transaction;
      /** Follows each write transaction inserted, in order; the followers counter of `failOn` fails to move. */
      const written: number[] = [];
      let failOn: string | null = crowd[99].id;
      store.transaction = <R>(fn: (tx: Store) => Promise<R>): Promise<R> =>
        original.call(store, (tx: Store) => {
          const slot = written.push(0) - 1;
          const spy = new Proxy(tx, {
            get(target, key) {
              if (key === 'insert') {
                return (collection: string, doc: Doc) => {
                  if (collection === 'follows') written[slot]++;
                  return target.insert(collection, doc);
                };
              }
              if (key === 'increment') {
                return (collection: string, id: string, field: string, by: number) => {
                  if (id === failOn && field === 'followers_total') throw new Error('the disk is full');
                  return target.increment(collection, id, field, by);
                };
              }
              const value: unknown = Reflect.get(target, key);
              return typeof value === 'function' ? value.bind(target) : value;
            },
          });
          return fn(spy);
        }) as Promise<R>;
      try {
        const carol = await h.user('Carol');
        const json = { users: uris(crowd.slice(0, 100)) };
        const followersBefore = (await totals(h, { user: crowd[0], token: '' })).followers;
        expectError(await h.call('POST', '/me/following', { token: carol.token, json }), 500, 4005);
        assert.equal(written.filter((n) => n > 0).length, 1, 'one transaction wrote the follows');
        assert.equal(await store.count('follows', eq('user_id', carol.user.id)), 0);
        assert.equal(await store.count('follow_log', eq('user_id', carol.user.id)), 0, 'the allowance is not spent');
        assert.deepEqual(await totals(h, carol), { following: 0, followers: 0 });
        assert.equal((await totals(h, { user: crowd[0], token: '' })).followers, followersBefore);

        failOn = null;
        written.length = 0;
        const r = await h.call('POST', '/me/following', { token: carol.token, json });
        assert.equal(r.status, 204, r.text);
        assert.deepEqual(written.filter((n) => n > 0), [100]);
        assert.deepEqual(await totals(h, carol), { following: 100, followers: 0 });
        assert.equal((await totals(h, { user: crowd[0], token: '' })).followers, followersBefore + 1);
      } finally {
        store.transaction = original;
      }
    });

    it('answers 401/8000 without a valid token, 403 for another user, 403 without the interact scope', async () => {
      const json = { users: [`/users/${crowd[9].id}`] };
      expectError(await h.call('POST', '/me/following', { json }), 401, 8000);
      expectError(await h.call('POST', `/users/${alice.user.id}/following`, { json }), 401, 8000);
      expectError(await h.call('POST', '/me/following', { token: 'expired', json }), 401, 8000);
      expectError(await h.call('POST', `/users/${alice.user.id}/following`, { token: bob.token, json }), 403, 3200);
      const noInteract = await h.user('No interact', 'public,private');
      expectError(await h.call('POST', '/me/following', { token: noInteract.token, json }), 403, 3200);
      assert.deepEqual(await totals(h, alice), { following: 102, followers: 1 });
      assert.equal((await totals(h, noInteract)).following, 0);
    });
  });

  describe(`the follow rate limiter: 429/9006 (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let others: UserRecord[];
    const follow = (u: UserRecord) => h.call('PUT', `/me/following/${u.id}`, { token: alice.token });
    before(async () => {
      h = await Harness.start(driver, { followRateLimit: { max: 5, windowSeconds: 60 } });
      alice = await h.user('Alice');
      others = [];
      for (let i = 0; i < 12; i++) others.push(await createUser(h.service.store, h.clock.now(), { name: `Other ${i}` }));
    });
    after(() => h.stop());

    it('counts new follows over a sliding window, answers 429/9006 with Retry-After beyond it, and recovers', async () => {
      // t0: three in one bulk request; t0+10 and t0+20: one each. The allowance is spent.
      const bulk = await h.call('POST', '/me/following', { token: alice.token, json: { users: others.slice(0, 3).map((u) => `/users/${u.id}`) } });
      assert.equal(bulk.status, 204, bulk.text);
      h.clock.advance(10);
      assert.equal((await follow(others[3])).status, 204);
      h.clock.advance(10);
      assert.equal((await follow(others[4])).status, 204);
      // Following someone already followed spends nothing.
      assert.equal((await follow(others[0])).status, 204);

      h.clock.advance(10);
      let r = await follow(others[5]);
      expectError(r, 429, 9006);
      assert.equal(r.headers.get('retry-after'), '30');
      // Four more need the four oldest follows gone: the fourth left at t0+10, so 40 seconds.
      r = await h.call('POST', '/me/following', { token: alice.token, json: { users: others.slice(5, 9).map((u) => `/users/${u.id}`) } });
      expectError(r, 429, 9006);
      assert.equal(r.headers.get('retry-after'), '40');
      assert.deepEqual(await totals(h, alice), { following: 5, followers: 0 });
      assert.equal((await h.call('GET', `/me/following/${others[5].id}`, { token: alice.token })).status, 404);

      // Unfollowing does not give the allowance back.
      assert.equal((await h.call('DELETE', `/me/following/${others[4].id}`, { token: alice.token })).status, 204);
      expectError(await follow(others[4]), 429, 9006);

      // At t0+60 the bulk's three follows leave the window: three fit again, the fourth does not.
      h.clock.advance(30);
      r = await h.call('POST', '/me/following', { token: alice.token, json: { users: others.slice(5, 8).map((u) => `/users/${u.id}`) } });
      assert.equal(r.status, 204, r.text);
      r = await follow(others[8]);
      expectError(r, 429, 9006);
      assert.equal(r.headers.get('retry-after'), '10');
      assert.deepEqual(await totals(h, alice), { following: 7, followers: 0 });

      // A whole window later everything is free again.
      h.clock.advance(60);
      r = await h.call('POST', '/me/following', { token: alice.token, json: { users: others.slice(8, 12).map((u) => `/users/${u.id}`) } });
      assert.equal(r.status, 204, r.text);
      assert.deepEqual(await totals(h, alice), { following: 11, followers: 0 });
    });

    it('a request that alone exceeds the limit answers 429 with a whole window to wait', async () => {
      h.clock.advance(3600);
      const fresh = await h.user('Fresh');
      const r = await h.call('POST', '/me/following', { token: fresh.token, json: { users: others.slice(0, 6).map((u) => `/users/${u.id}`) } });
      expectError(r, 429, 9006);
      assert.equal(r.headers.get('retry-after'), '60');
      assert.deepEqual(await totals(h, fresh), { following: 0, followers: 0 });
    });
  });
}
