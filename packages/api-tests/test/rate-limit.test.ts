import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createService, memoryRateLimiter, schema, type RateLimit, type RateLimiter } from '@reelbase/core';
import { createClient, serve, type RunningServer } from '@reelbase/http';
import { openJsonStore } from '@reelbase/store-json';
import { drivers, expectError, Harness, TestClock, type Answer, type Fixture } from '../src/index';

/**
 * General rate limiting (ServiceConfig.rateLimit): every answer carries X-RateLimit-Limit,
 * -Remaining and -Reset (ISO 8601); beyond the limit 429/9000 with Retry-After and nothing done.
 * A valid token spends its own allowance; anonymous callers, and refused tokens, spend their
 * address's. Windows are fixed and aligned on the clock, which the tests move instead of sleeping.
 */
const allowance = (r: Answer) => [r.headers.get('x-ratelimit-limit'), r.headers.get('x-ratelimit-remaining'), r.headers.get('x-ratelimit-reset')];

for (const driver of drivers) {
  describe(`rate limiting per token and per address (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    // The clock starts at 03:04:05; a window of 60 s ends at the next whole minute.
    let reset = '2026-01-02T03:05:00+00:00';
    /** Moves the clock to the start of the next window, so each test starts with whole allowances. */
    const nextWindow = () => {
      h.clock.advance((Date.parse(reset) - h.clock.time) / 1000);
      reset = new Date(Date.parse(reset) + 60_000).toISOString().replace('.000Z', '+00:00');
    };
    before(async () => {
      h = await Harness.start(driver, { rateLimit: { max: 5, windowSeconds: 60 }, followRateLimit: { max: 1, windowSeconds: 3600 } });
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    it('counts down on every answer; the request beyond the limit is 429/9000 with Retry-After and writes nothing', async () => {
      for (let i = 4; i >= 0; i--) {
        const r = await h.call('GET', '/me', { token: alice.token });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(allowance(r), ['5', String(i), reset]);
      }
      const videos = await h.service.store.count('videos');
      const refused = await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'One too many' } });
      expectError(refused, 429, 9000);
      assert.deepEqual(allowance(refused), ['5', '0', reset]);
      assert.equal(refused.headers.get('retry-after'), '55');
      assert.equal(refused.headers.get('cache-control'), 'private, no-store, no-cache');
      assert.match(refused.body.developer_message, /At most 5 requests .* Retry in 55 seconds\./);
      assert.equal(await h.service.store.count('videos'), videos, 'the refused request wrote nothing');
      // Still refused until the window ends, with a Retry-After that shrinks with the clock.
      h.clock.advance(40);
      const again = await h.call('GET', '/me', { token: alice.token });
      expectError(again, 429, 9000);
      assert.equal(again.headers.get('retry-after'), '15');
    });

    it('is whole again when the window resets', async () => {
      nextWindow();
      const r = await h.call('GET', '/me', { token: alice.token });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(allowance(r), ['5', '4', reset]);
    });

    it('gives each token its own allowance, and anonymous callers their address’s', async () => {
      nextWindow();
      for (let i = 0; i < 5; i++) assert.equal((await h.call('GET', '/me', { token: alice.token })).status, 200);
      expectError(await h.call('GET', '/me', { token: alice.token }), 429, 9000);
      const asBob = await h.call('GET', '/me', { token: bob.token });
      assert.equal(asBob.status, 200);
      assert.deepEqual(allowance(asBob), ['5', '4', reset]);
      const anonymous = await h.call('GET', `/users/${alice.user.id}`);
      assert.equal(anonymous.status, 200);
      assert.deepEqual(allowance(anonymous), ['5', '4', reset]);
    });

    it('charges a refused token to the address, so inventing tokens buys no requests', async () => {
      nextWindow();
      for (let i = 0; i < 3; i++) {
        const r = await h.call('GET', `/users/${alice.user.id}`, { token: `made-up-${i}` });
        expectError(r, 401, 8003);
        assert.deepEqual(allowance(r), ['5', String(4 - i), reset]);
      }
      assert.deepEqual(allowance(await h.call('GET', `/users/${alice.user.id}`)), ['5', '1', reset]);
      assert.equal((await h.call('GET', `/users/${alice.user.id}`)).headers.get('x-ratelimit-remaining'), '0');
      expectError(await h.call('GET', `/users/${alice.user.id}`, { token: 'made-up-again' }), 429, 9000);
      // A valid token is not the address: Alice still has her own allowance.
      assert.equal((await h.call('GET', '/me', { token: alice.token })).status, 200);
    });

    it('carries the allowance on errors too: 404, 405, 400 and a malformed body are counted', async () => {
      nextWindow();
      const answers = [
        await h.call('GET', '/videos/999999', { token: alice.token }),
        await h.call('DELETE', '/', { token: alice.token }),
        await h.call('GET', '/me/videos?per_page=1000', { token: alice.token }),
        await h.call('POST', '/me/videos', { token: alice.token, raw: '{"name":', headers: { 'content-type': 'application/json' } }),
      ];
      assert.deepEqual(
        answers.map((r) => [r.status, ...allowance(r)]),
        [
          [404, '5', '4', reset],
          [405, '5', '3', reset],
          [400, '5', '2', reset],
          [400, '5', '1', reset],
        ],
      );
    });

    it('answers the in-process client with the same headers, from the same allowance as HTTP', async () => {
      nextWindow();
      assert.equal((await h.call('GET', '/me', { token: alice.token })).status, 200);
      const client = createClient({ service: h.service, token: alice.token });
      const r = await client.request('GET', '/me');
      assert.equal(r.status, 200);
      assert.deepEqual([r.headers['x-ratelimit-limit'], r.headers['x-ratelimit-remaining'], r.headers['x-ratelimit-reset']], ['5', '3', reset]);
      // Anonymous in-process callers have no address: they share one allowance of their own.
      const anonymous = await createClient({ service: h.service }).request('GET', `/users/${alice.user.id}`);
      assert.equal(anonymous.headers['x-ratelimit-remaining'], '4');
    });

    it('leaves the follow limiter as it was: 429/9006 within the general allowance', async () => {
      nextWindow();
      const carol = await h.user('Carol');
      const follow = (who: Fixture) => h.call('POST', '/me/following', { token: bob.token, json: { users: [`/users/${who.user.id}`] } });
      assert.equal((await follow(alice)).status, 204);
      const limited = await follow(carol);
      expectError(limited, 429, 9006);
      assert.equal(limited.headers.get('x-ratelimit-remaining'), '3');
    });
  });
}

describe('rate limiting: configuration and client addresses', () => {
  it('sends no X-RateLimit headers when switched off (rateLimit: null)', async () => {
    const h = await Harness.start(drivers[0]);
    try {
      const r = await h.call('GET', '/');
      assert.equal(r.status, 200);
      assert.deepEqual(allowance(r), [null, null, null]);
    } finally {
      await h.stop();
    }
  });

  it("counts with the store's shared limiter when it offers one (several servers on one database); a rateLimiter option wins", async () => {
    const limit = { max: 3, windowSeconds: 60 };
    const asked: string[] = [];
    const store = Object.assign(await openJsonStore({ schema }), {
      sharedRateLimiter: (given: RateLimit): RateLimiter => ({
        take: (key) => {
          assert.deepEqual(given, limit);
          asked.push(key);
          return { limit: 3, remaining: 0, reset: new Date('2026-01-02T03:05:00Z'), allowed: false };
        },
      }),
    });
    const clock = new TestClock().now;
    const shared = createService({ store, clock, config: { rateLimit: limit } });
    const refused = await shared.handle(null, { method: 'GET', url: '/' });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['X-RateLimit-Reset'], '2026-01-02T03:05:00+00:00');
    assert.deepEqual(asked, ['address:local']);
    const own = createService({ store, clock, config: { rateLimit: limit }, rateLimiter: memoryRateLimiter(limit) });
    assert.equal((await own.handle(null, { method: 'GET', url: '/' })).headers['X-RateLimit-Remaining'], '2');
    const off = createService({ store, clock, config: { rateLimit: null } });
    assert.equal((await off.handle(null, { method: 'GET', url: '/' })).status, 200);
    assert.deepEqual(asked, ['address:local'], 'neither the option nor a switched-off limit asks the store');
  });

  describe('behind a trusted proxy', () => {
    let server: RunningServer;
    before(async () => {
      const service = createService({ store: await openJsonStore({ schema }), clock: new TestClock().now, config: { rateLimit: { max: 2, windowSeconds: 60 } } });
      server = await serve(service, { port: 0, host: '127.0.0.1', trustProxy: true });
    });
    after(() => server.close());
    const from = (forwardedFor: string) => fetch(`${server.url}/`, { headers: { 'x-forwarded-for': forwardedFor } });

    it('keys anonymous callers by the address the proxy appended, not by what the client claims', async () => {
      assert.equal((await from('203.0.113.7')).headers.get('x-ratelimit-remaining'), '1');
      // A client cannot reset its allowance by sending its own X-Forwarded-For: the proxy appends the real address last.
      assert.equal((await from('10.9.9.9, 203.0.113.7')).headers.get('x-ratelimit-remaining'), '0');
      assert.equal((await from('203.0.113.7')).status, 429);
      assert.equal((await from('198.51.100.1')).headers.get('x-ratelimit-remaining'), '1');
    });

    it('counts an IPv6 /64 as one address', async () => {
      assert.equal((await from('2001:db8:1:2::a')).headers.get('x-ratelimit-remaining'), '1');
      assert.equal((await from('2001:db8:1:2:ffff::b')).headers.get('x-ratelimit-remaining'), '0');
      assert.equal((await from('2001:db8:1:3::a')).headers.get('x-ratelimit-remaining'), '1');
    });
  });
});
