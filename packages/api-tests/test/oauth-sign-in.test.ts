import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createService } from '@reelbase/core';
import { serve, type RunningServer } from '@reelbase/http';
import { account, approve, authorizeUrl, basic, drivers, FormBrowser, Harness, hiddenFields, registerApp, type TestApp } from '../src/index';

/**
 * Sign-in limits, token lifetime and open sign-up (issue 35). Failed sign-ins are counted in the
 * store: the attempt past the limit is 429 with Retry-After on any server of the database, and
 * an unknown email counts and answers as a wrong password does.
 */

const limit = { perAccount: 3, perAddress: 5, windowSeconds: 900 };
const person = { email: 'lin@example.com', password: 'the right password' };

for (const driver of drivers) {
  describe(`sign-in limits (${driver.name})`, () => {
    let h: Harness;
    let app: TestApp;
    let second: RunningServer | null = null;

    before(async () => {
      h = await Harness.start(driver, { signInLimit: limit });
      app = await registerApp(h, (await h.user('Owner')).user);
      await account(h, 'Lin', person.email, person.password);
      // A second server on the same database, as another process would run it (drivers shared by processes).
      if (h.reopen) {
        const service = createService({ store: await h.reopen(), clock: h.clock.now, config: { rateLimit: null, signInLimit: limit } });
        second = await serve(service, { port: 0, host: '127.0.0.1', filesDir: h.filesDir, worker: false });
      }
    });
    after(async () => {
      await second?.close();
      await h?.stop();
    });

    const signIn = async (base: string, email: string, password: string) => {
      const browser = new FormBrowser(h.server.url);
      const page = await browser.get(authorizeUrl(app));
      // The form, filled in on this server, is posted to `base` (the same database: the same cookie and CSRF key).
      return new FormBrowser(base).post('/oauth/sign_in', {
        ...hiddenFields(page.text, '/oauth/sign_in'),
        email,
        password,
      }, browser.cookies);
    };

    it(`after ${limit.perAccount} failures for an account, the next sign-in is 429 with Retry-After${driver.sharedByProcesses ? ' on a second server' : ''}, even with the right password`, async () => {
      for (let i = 0; i < limit.perAccount; i++) assert.equal((await signIn(h.server.url, person.email, 'wrong password')).status, 400);
      const there = second?.url ?? h.server.url;
      const refused = await signIn(there, person.email, person.password);
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('retry-after'), String(limit.windowSeconds));
      assert.match(refused.text, /Too many failed sign-ins/);
      h.clock.advance(limit.windowSeconds);
      assert.equal((await signIn(there, person.email, person.password)).status, 303);
    });

    it('an email with no account is counted and refused alike', async () => {
      for (let i = 0; i < limit.perAccount; i++) assert.equal((await signIn(h.server.url, 'ghost@example.com', 'whatever it is')).status, 400);
      const refused = await signIn(second?.url ?? h.server.url, 'ghost@example.com', 'whatever it is');
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('retry-after'), String(limit.windowSeconds));
      h.clock.advance(limit.windowSeconds);
    });

    it(`after ${limit.perAddress} failures from one address, any account is refused from there`, async () => {
      for (let i = 0; i < limit.perAddress; i++) assert.equal((await signIn(h.server.url, `someone${i}@example.com`, 'wrong password')).status, 400);
      assert.equal((await signIn(second?.url ?? h.server.url, person.email, person.password)).status, 429);
      h.clock.advance(limit.windowSeconds);
    });
  });

  describe(`token lifetime and sign-up (${driver.name})`, () => {
    let h: Harness;
    let app: TestApp;

    before(async () => {
      h = await Harness.start(driver, { tokenTtlSeconds: 3600, signUp: true });
      app = await registerApp(h, (await h.user('Owner')).user);
    });
    after(() => h?.stop());

    it('with a lifetime, grants answer expires_on; the token works until then and is 401 after', async () => {
      const r = await h.call('POST', '/oauth/authorize/client', { form: { grant_type: 'client_credentials' }, headers: { authorization: basic(app.clientId, app.secret!) } });
      assert.equal(r.status, 200);
      assert.equal(r.body.expires_on, String(Math.floor(h.clock.time / 1000) + 3600));
      h.clock.advance(3599);
      assert.equal((await h.call('GET', '/channels', { token: r.body.access_token })).status, 200);
      h.clock.advance(1);
      const expired = await h.call('GET', '/channels', { token: r.body.access_token });
      assert.equal(expired.status, 401);
      assert.equal(expired.body.error_code, 8003);
    });

    it('open sign-up: the sign-in page links a sign-up form; a new account is signed in and can allow', async () => {
      const browser = new FormBrowser(h.server.url);
      const signInPage = await browser.get(authorizeUrl(app));
      const link = /href="(\/oauth\/sign_up\?[^"]+)"/.exec(signInPage.text);
      assert.ok(link, signInPage.text);
      const form = await browser.get(link[1].replace(/&#38;/g, '&'));
      assert.equal(form.status, 200);
      const short = await browser.submit(form, '/oauth/sign_up', { name: 'New', email: 'new@example.com', password: 'short' });
      assert.equal(short.status, 400);
      const made = await browser.submit(form, '/oauth/sign_up', { name: 'New', email: 'new@example.com', password: 'a good long password' });
      assert.equal(made.status, 303);
      const at = await approve(browser, made.headers.get('location')!, null);
      const r = await h.call('POST', '/oauth/access_token', {
        form: { grant_type: 'authorization_code', code: at.searchParams.get('code')!, redirect_uri: app.redirectUri },
        headers: { authorization: basic(app.clientId, app.secret!) },
      });
      assert.equal(r.status, 200);
      assert.equal(r.body.user.name, 'New');
      // Signing up replaced the cookie, so the old form's CSRF token is void; another browser tries the same email.
      assert.equal((await browser.submit(form, '/oauth/sign_up', { name: 'Again', email: 'other@example.com', password: 'a good long password' })).status, 403);
      const stranger = new FormBrowser(h.server.url);
      const again = await stranger.get(link[1].replace(/&#38;/g, '&'));
      const taken = await stranger.submit(again, '/oauth/sign_up', { name: 'Again', email: 'NEW@example.com', password: 'a good long password' });
      assert.equal(taken.status, 400);
      assert.match(taken.text, /already has an account/);
    });
  });

  describe(`sign-up closed (${driver.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await Harness.start(driver);
    });
    after(() => h?.stop());

    it('is the default: no link, and the sign-up page is 404', async () => {
      const app = await registerApp(h, (await h.user('Owner')).user);
      const page = await new FormBrowser(h.server.url).get(authorizeUrl(app));
      assert.doesNotMatch(page.text, /sign_up/);
      assert.equal((await new FormBrowser(h.server.url).get(authorizeUrl(app).replace('/oauth/authorize', '/oauth/sign_up'))).status, 404);
    });
  });
}
