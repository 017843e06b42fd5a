import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createService, kdfRuns } from '@reelbase/core';
import { serve, type RunningServer } from '@reelbase/http';
import { account, approve, authorizeUrl, drivers, FormBrowser, Harness, hiddenFields, registerApp, until, type TestApp } from '../src/index';

/**
 * Limits that count before they work (issue 46 §2, §5, §6): a sign-in attempt is reserved in the
 * transaction that checks the limit, before the password hash, so a concurrent burst on two servers
 * of one database runs no more hashes than the limit; a browser that signed in before holds a device
 * cookie that failures from elsewhere do not lock out; addresses count IPv6 by /64; sign-up counts
 * every submission (an email already taken too) and the accounts made per address.
 */

const limit = { perAccount: 5, perAddress: 6, windowSeconds: 900 };
const signUpLimit = { attemptsPerAddress: 4, accountsPerAddress: 2, windowSeconds: 3600 };
const person = { email: 'ada@example.com', password: 'the right password' };

for (const driver of drivers) {
  describe(`sign-in and sign-up limits under load (${driver.name})`, () => {
    let h: Harness;
    let app: TestApp;
    /** Another server on the same database where the driver allows one, else null. */
    let second: RunningServer | null = null;
    /** This service behind a trusted proxy: requests say their address in X-Forwarded-For. */
    let proxied: RunningServer;

    before(async () => {
      h = await Harness.start(driver, { signInLimit: limit, signUp: true, signUpLimit });
      app = await registerApp(h, (await h.user('Owner')).user);
      await account(h, 'Ada', person.email, person.password);
      if (h.reopen) {
        const service = createService({ store: await h.reopen(), clock: h.clock.now, config: { rateLimit: null, signInLimit: limit } });
        second = await serve(service, { port: 0, host: '127.0.0.1', filesDir: h.filesDir, worker: false });
      }
      proxied = await serve(h.service, { port: 0, host: '127.0.0.1', filesDir: h.filesDir, worker: false, trustProxy: true });
    });
    after(async () => {
      await proxied?.close();
      await second?.close();
      await h?.stop();
    });

    /** Posts the sign-in form of `browser` (fetched there first) to `base`, as a copy of that browser. */
    const signIn = async (browser: FormBrowser, email: string, password: string, base = browser.base) => {
      const page = await browser.get(authorizeUrl(app));
      return new FormBrowser(base, browser.headers).post('/oauth/sign_in', { ...hiddenFields(page.text, '/oauth/sign_in'), email, password }, browser.cookies);
    };

    it('15 concurrent sign-ins (14 wrong, then the right one) run 5 hashes; the rest and the right password are 429, unless the device cookie is presented', async () => {
      const owner = new FormBrowser(h.server.url);
      await approve(owner, authorizeUrl(app), person);
      const device = owner.cookies.get('reelbase_device');
      assert.match(device ?? '', /^[\w-]+\.[0-9a-f]{32}$/, 'the consent page gives a signed-in browser its device cookie');

      const attacker = new FormBrowser(h.server.url);
      const form = { ...hiddenFields((await attacker.get(authorizeUrl(app))).text, '/oauth/sign_in'), email: person.email };
      const servers = [h.server.url, second?.url ?? h.server.url];
      const hashesBefore = kdfRuns();
      const post = (password: string, i: number) => new FormBrowser(servers[i % 2]).post('/oauth/sign_in', { ...form, password }, attacker.cookies);
      const wrongAnswers = Promise.all(Array.from({ length: 14 }, (_, i) => post('a wrong password', i)));
      // "Then the right one": while the wrong ones are still arriving, once the limit's hashes have
      // started (each after its reservation). Sent with the others, it could reach the store first on
      // PostgreSQL, whose transactions are not taken in arrival order, and rightly sign in.
      await until(() => kdfRuns() - hashesBefore >= limit.perAccount, 'the first hashes of the burst');
      const [wrongs, rightAnswer] = await Promise.all([wrongAnswers, post(person.password, 14)]);
      const answers = [...wrongs, rightAnswer];
      assert.equal(kdfRuns() - hashesBefore, limit.perAccount);
      const wrong = answers.slice(0, 14).map((a) => a.status);
      assert.deepEqual([wrong.filter((s) => s === 400).length, wrong.filter((s) => s === 429).length], [5, 9], String(wrong));
      const right = answers[14];
      assert.equal(right.status, 429);
      assert.equal(right.headers.get('retry-after'), String(limit.windowSeconds));
      assert.match(right.text, /Too many failed sign-ins/);

      assert.equal((await signIn(new FormBrowser(h.server.url), person.email, person.password)).status, 429, 'a browser without the cookie stays out');
      const returning = new FormBrowser(second?.url ?? h.server.url);
      returning.cookies.set('reelbase_device', device!);
      assert.equal((await signIn(returning, person.email, person.password)).status, 303, 'the device cookie holder signs in');
      h.clock.advance(limit.windowSeconds);
    });

    it("a device cookie is limited on its own count, and means nothing for another account's email", async () => {
      const owner = new FormBrowser(h.server.url);
      await approve(owner, authorizeUrl(app), person);
      const device = owner.cookies.get('reelbase_device')!;
      const holder = () => {
        const b = new FormBrowser(h.server.url);
        b.cookies.set('reelbase_device', device);
        return b;
      };
      for (let i = 0; i < limit.perAccount; i++) assert.equal((await signIn(holder(), person.email, 'a wrong password')).status, 400);
      assert.equal((await signIn(holder(), person.email, person.password)).status, 429, 'its own failures lock the device');
      // The account's own count was not touched: another browser still signs in.
      assert.equal((await signIn(new FormBrowser(h.server.url), person.email, person.password)).status, 303);
      h.clock.advance(limit.windowSeconds);
      await account(h, 'Bea', 'bea@example.com', 'bea has a password');
      for (let i = 0; i < limit.perAccount; i++) assert.equal((await signIn(new FormBrowser(h.server.url), 'bea@example.com', 'a wrong password')).status, 400);
      assert.equal((await signIn(holder(), 'bea@example.com', 'bea has a password')).status, 429, "Ada's device cookie does not open Bea's account");
      h.clock.advance(limit.windowSeconds);
    });

    it('per-address limits count an IPv6 /64 as one address', async () => {
      const from = (address: string) => new FormBrowser(proxied.url, { 'x-forwarded-for': address });
      for (let i = 1; i <= limit.perAddress; i++) {
        assert.equal((await signIn(from(`2001:db8:46:1::${i}`), `nobody${i}@example.com`, 'a wrong password')).status, 400);
      }
      const refused = await signIn(from('2001:db8:46:1:ffff:ffff:ffff:fffe'), person.email, person.password);
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('retry-after'), String(limit.windowSeconds));
      assert.equal((await signIn(from('2001:db8:46:2::1'), person.email, person.password)).status, 303, 'the next /64 is another address');
      h.clock.advance(limit.windowSeconds);
    });

    const signUpPath = () => authorizeUrl(app).replace('/oauth/authorize', '/oauth/sign_up');
    const signUp = async (address: string, email: string) => {
      const browser = new FormBrowser(proxied.url, { 'x-forwarded-for': address });
      return browser.submit(await browser.get(signUpPath()), '/oauth/sign_up', { name: 'New', email, password: 'a good long password' });
    };

    it(`sign-up makes at most ${signUpLimit.accountsPerAddress} accounts per address and window, then 429 with Retry-After`, async () => {
      assert.equal((await signUp('203.0.113.46', 'first@example.com')).status, 303);
      assert.equal((await signUp('203.0.113.46', 'second@example.com')).status, 303);
      const third = await signUp('203.0.113.46', 'third@example.com');
      assert.equal(third.status, 429);
      assert.equal(third.headers.get('retry-after'), String(signUpLimit.windowSeconds));
      assert.match(third.text, /Too many sign-ups/);
      assert.equal((await signUp('2001:db8:46:9::1', 'third@example.com')).status, 303, 'another address may');
    });

    it('"already has an account" costs an attempt like any other: the answer stops after the limit, and comes back after the window', async () => {
      for (let i = 0; i < signUpLimit.attemptsPerAddress; i++) {
        const taken = await signUp('198.51.100.46', person.email);
        assert.equal(taken.status, 400);
        assert.match(taken.text, /already has an account/);
      }
      const refused = await signUp('198.51.100.46', person.email);
      assert.equal(refused.status, 429);
      assert.doesNotMatch(refused.text, /already has an account/);
      assert.equal((await signUp('198.51.100.46', 'fresh@example.com')).status, 429, 'an unknown email is refused alike');
      h.clock.advance(signUpLimit.windowSeconds);
      assert.equal((await signUp('198.51.100.46', 'fresh@example.com')).status, 303);
    });
  });
}
