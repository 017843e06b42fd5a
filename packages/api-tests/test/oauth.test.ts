import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deleteApp } from '@reelbase/core';
import { account, approve, authorizeUrl, basic, drivers, expectError, FormBrowser, Harness, hiddenFields, pkce, registerApp, type Answer, type Fixture, type TestApp } from '../src/index';

/**
 * OAuth 2 as the official SDKs speak it (issue 35), over HTTP on every driver: client credentials,
 * the authorization code with a signed-in approval, PKCE, code reuse, verify and revoke, and each
 * answer's status, content type and shape: the hosted API's `auth`, `auth-error` and `legacy-error`.
 */

const authType = 'application/vnd.reelbase.auth+json;version=3.4';
const password = 'correct horse battery';

/** `auth`: exactly these keys (user for a user's token, expires_on when it expires). */
function expectAuth(r: Answer, o: { scope: string; app: TestApp | null; user?: string; expires?: boolean }): void {
  assert.equal(r.status, 200, r.text);
  assert.equal(r.headers.get('content-type'), authType);
  assert.match(r.headers.get('cache-control') ?? '', /no-store/);
  const keys = ['access_token', 'token_type', 'scope', 'app', ...(o.user ? ['user'] : []), ...(o.expires ? ['expires_on'] : [])];
  assert.deepEqual(Object.keys(r.body).sort(), keys.sort());
  assert.match(r.body.access_token, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(r.body.token_type, 'bearer');
  assert.equal(r.body.scope, o.scope);
  assert.deepEqual(r.body.app, o.app ? { name: o.app.app.name, uri: `/apps/${o.app.app.id}` } : null);
  if (o.user) assert.equal(r.body.user.uri, `/users/${o.user}`);
}

/** `auth-error`: exactly error and error_description, never cached. */
function expectAuthError(r: Answer, status: number, error: string): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.headers.get('content-type'), authType);
  assert.match(r.headers.get('cache-control') ?? '', /no-store/);
  assert.deepEqual(Object.keys(r.body).sort(), ['error', 'error_description']);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.error_description, 'string');
  if (error === 'invalid_client') assert.match(r.headers.get('www-authenticate') ?? '', /^Basic /);
}

/** `legacy-error`: exactly `error`. */
function expectLegacyError(r: Answer, status: number): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.headers.get('content-type'), authType);
  assert.deepEqual(Object.keys(r.body), ['error']);
  assert.equal(typeof r.body.error, 'string');
}

for (const driver of drivers) {
  describe(`OAuth (${driver.name})`, () => {
    let h: Harness;
    let owner: Fixture;
    let app: TestApp;
    let other: TestApp;
    let publicApp: TestApp;
    let browser: FormBrowser;
    const person = { email: 'ada@example.com', password };
    let personId: string;

    const clientCall = (path: string, form: Record<string, string>, auth: string | null = basic(app.clientId, app.secret!), headers: Record<string, string> = {}) =>
      h.call('POST', path, { form, headers: { ...(auth ? { authorization: auth } : {}), accept: 'application/vnd.vimeo.*+json;version=3.4', ...headers } });
    const exchange = (code: string, o: { app?: TestApp; redirectUri?: string; verifier?: string } = {}) => {
      const a = o.app ?? app;
      const form: Record<string, string> = { grant_type: 'authorization_code', code, redirect_uri: o.redirectUri ?? a.redirectUri };
      if (o.verifier) form.code_verifier = o.verifier;
      if (a.secret === null) form.client_id = a.clientId;
      return clientCall('/oauth/access_token', form, a.secret === null ? null : basic(a.clientId, a.secret));
    };
    const codeFor = async (o: Parameters<typeof authorizeUrl>[1] = {}, a: TestApp = app) => {
      const at = await approve(browser, authorizeUrl(a, o), browser.cookies.size ? null : person);
      assert.equal(at.searchParams.get('state'), o.state ?? 'xyz');
      return at.searchParams.get('code')!;
    };

    before(async () => {
      h = await Harness.start(driver);
      owner = await h.user('Owner');
      app = await registerApp(h, owner.user, { name: 'Example App' });
      other = await registerApp(h, owner.user, { name: 'Other App', redirectUris: ['https://other.example/cb'] });
      publicApp = await registerApp(h, owner.user, { name: 'Phone App', public: true, redirectUris: ['com.example.phone:/cb', 'http://127.0.0.1:5000/cb', 'http://[::1]/cb'] });
      personId = (await account(h, 'Ada', person.email, person.password)).id;
      browser = new FormBrowser(h.server.url);
    });
    after(() => h?.stop());

    describe('client credentials', () => {
      it('answers an app token holding public only, whatever was asked; it reads as anonymous plus its app', async () => {
        const r = await clientCall('/oauth/authorize/client', { grant_type: 'client_credentials', scope: 'public private edit' });
        expectAuth(r, { scope: 'public', app });
        const me = await h.call('GET', '/me', { token: r.body.access_token });
        expectError(me, 401, 8003);
        assert.equal((await h.call('GET', '/channels', { token: r.body.access_token })).status, 200);
        const verified = await h.call('GET', '/oauth/verify', { token: r.body.access_token });
        expectAuth(verified, { scope: 'public', app });
        assert.equal(verified.body.access_token, r.body.access_token);
      });

      it('takes no scope (vimeo.py), a scope spelt letter by letter, JSON bodies, and each Accept the SDKs send', async () => {
        for (const accept of ['application/vnd.vimeo.*+json;version=3.4', 'application/vnd.vimeo.*;version=3.4', 'application/vnd.vimeo.*+json; version=3.4']) {
          const r = await clientCall('/oauth/authorize/client', { grant_type: 'client_credentials' }, undefined, { accept });
          expectAuth(r, { scope: 'public', app });
        }
        const spelt = await h.call('POST', '/oauth/authorize/client', {
          raw: 'grant_type=client_credentials&scope=p+u+b+l+i+c',
          headers: { authorization: basic(app.clientId, app.secret!), 'content-type': 'application/x-www-form-urlencoded' },
        });
        expectAuth(spelt, { scope: 'public', app });
        const json = await h.call('POST', '/oauth/authorize/client', { json: { grant_type: 'client_credentials', scope: 'public' }, headers: { authorization: basic(app.clientId, app.secret!) } });
        expectAuth(json, { scope: 'public', app });
      });

      it('refuses a wrong secret, an unknown client, no credentials and a bearer token with 401 invalid_client', async () => {
        expectAuthError(await clientCall('/oauth/authorize/client', { grant_type: 'client_credentials' }, basic(app.clientId, 'wrong')), 401, 'invalid_client');
        expectAuthError(await clientCall('/oauth/authorize/client', { grant_type: 'client_credentials' }, basic('nobody', 'x')), 401, 'invalid_client');
        expectAuthError(await clientCall('/oauth/authorize/client', { grant_type: 'client_credentials' }, null), 401, 'invalid_client');
        expectAuthError(await clientCall('/oauth/authorize/client', { grant_type: 'client_credentials' }, `Bearer ${owner.token}`), 401, 'invalid_client');
        expectAuthError(await clientCall('/oauth/access_token', { grant_type: 'authorization_code', code: 'x' }, `Bearer ${owner.token}`), 401, 'invalid_client');
      });

      it('refuses another grant type, a missing one, and a public app', async () => {
        expectAuthError(await clientCall('/oauth/authorize/client', { grant_type: 'password' }), 400, 'unsupported_grant_type');
        expectAuthError(await clientCall('/oauth/authorize/client', {}), 400, 'invalid_request');
        const pub = await clientCall('/oauth/authorize/client', { grant_type: 'client_credentials', client_id: publicApp.clientId }, null);
        expectAuthError(pub, 400, 'unauthorized_client');
      });
    });

    describe('authorization code', () => {
      it('signs in, allows, and exchanges the code for a token of that user with the scopes granted', async () => {
        const page = await browser.get(authorizeUrl(app));
        assert.equal(page.status, 200);
        assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
        assert.doesNotMatch(page.headers.get('content-security-policy') ?? '', /script-src/);
        const cookie = page.headers.get('set-cookie') ?? '';
        assert.match(cookie, /^reelbase_session=[^;]+; Path=\/oauth; HttpOnly; SameSite=Lax$/);
        assert.match(page.text, /name="email"/);
        assert.match(page.text, /name="password"/);
        assert.equal(page.text.match(/type="submit"/g)?.length, 1);

        const signedIn = await browser.submit(page, '/oauth/sign_in', person);
        assert.equal(signedIn.status, 303);
        const consent = await browser.get(signedIn.headers.get('location')!);
        assert.equal(consent.status, 200);
        assert.match(consent.text, /Example App/);
        assert.match(consent.text, /Owner/);
        assert.match(consent.text, /<strong>private<\/strong>/);
        assert.match(consent.text, /name="decision" value="allow"/);
        assert.match(consent.text, /name="decision" value="deny"/);
        const allowed = await browser.submit(consent, '/oauth/authorize', { decision: 'allow' });
        assert.equal(allowed.status, 302);
        const at = new URL(allowed.headers.get('location')!);
        assert.equal(`${at.origin}${at.pathname}`, app.redirectUri);
        assert.equal(at.searchParams.get('state'), 'xyz');

        const r = await exchange(at.searchParams.get('code')!);
        expectAuth(r, { scope: 'public private', app, user: personId });
        const me = await h.call('GET', '/me', { token: r.body.access_token });
        assert.equal(me.status, 200);
        assert.equal(me.body.uri, `/users/${personId}`);
        expectAuth(await h.call('GET', '/oauth/verify', { token: r.body.access_token }), { scope: 'public private', app, user: personId });
        // app.uri answers.
        const appPage = await h.call('GET', r.body.app.uri);
        assert.equal(appPage.status, 200);
        assert.deepEqual(appPage.body, r.body.app);
      });

      it('asks again every time (no remembered grant), and deny redirects with access_denied and state', async () => {
        const at = await approve(browser, authorizeUrl(app, { state: 's2' }), null, 'deny');
        assert.equal(at.searchParams.get('error'), 'access_denied');
        assert.equal(at.searchParams.get('state'), 's2');
        assert.equal(at.searchParams.get('code'), null);
      });

      it('with no redirect_uri uses the registered one, and unknown scope words are dropped', async () => {
        const code = await codeFor({ redirectUri: null, scope: 'public nonsense edit' });
        const r = await clientCall('/oauth/access_token', { grant_type: 'authorization_code', code });
        expectAuth(r, { scope: 'public edit', app, user: personId });
      });

      it('an unregistered redirect URI or an unknown app: an error page and never a Location', async () => {
        for (const url of [authorizeUrl(app, { redirectUri: 'https://evil.example/cb' }), authorizeUrl(app, { redirectUri: `${app.redirectUri}/more` }), authorizeUrl({ ...app, clientId: 'nobody' })]) {
          const page = await browser.get(url);
          assert.equal(page.status, 400);
          assert.equal(page.headers.get('location'), null);
          assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
        }
      });

      it('response_type other than code goes back to the app as unsupported_response_type', async () => {
        const page = await browser.get(authorizeUrl(app).replace('response_type=code', 'response_type=token'));
        assert.equal(page.status, 302);
        assert.equal(new URL(page.headers.get('location')!).searchParams.get('error'), 'unsupported_response_type');
      });

      it('a code works once: a second use is invalid_grant and revokes the token of the first', async () => {
        const code = await codeFor();
        const first = await exchange(code);
        expectAuth(first, { scope: 'public private', app, user: personId });
        expectAuthError(await exchange(code), 400, 'invalid_grant');
        expectError(await h.call('GET', '/me', { token: first.body.access_token }), 401, 8003);
      });

      it('a code is the app’s own: another app’s credentials get invalid_grant and spend it', async () => {
        const code = await codeFor();
        expectAuthError(await exchange(code, { app: other, redirectUri: app.redirectUri }), 400, 'invalid_grant');
        expectAuthError(await exchange(code), 400, 'invalid_grant');
      });

      it('a code is bound to its redirect URI (a wrong one spends it) and lives 10 minutes', async () => {
        const code = await codeFor();
        expectAuthError(await exchange(code, { redirectUri: 'https://app.example/other' }), 400, 'invalid_grant');
        expectAuthError(await exchange(code), 400, 'invalid_grant');
        const late = await codeFor();
        h.clock.advance(601);
        expectAuthError(await exchange(late), 400, 'invalid_grant');
        expectAuthError(await exchange('not-a-code'), 400, 'invalid_grant');
        expectAuthError(await clientCall('/oauth/access_token', { grant_type: 'authorization_code' }), 400, 'invalid_request');
        expectAuthError(await clientCall('/oauth/access_token', { grant_type: 'client_credentials', code: 'x' }), 400, 'unsupported_grant_type');
      });
    });

    describe('PKCE', () => {
      it('a public app must send an S256 challenge: none and plain go back as invalid_request', async () => {
        for (const o of [{}, { challenge: pkce().verifier, method: 'plain' }]) {
          const page = await browser.get(authorizeUrl(publicApp, o));
          assert.equal(page.status, 302);
          const at = new URL(page.headers.get('location')!);
          assert.equal(at.searchParams.get('error'), 'invalid_request');
          assert.equal(at.searchParams.get('state'), 'xyz');
        }
      });

      it('the right verifier gets the token; a wrong or missing one is invalid_grant and spends the code', async () => {
        for (const wrong of [pkce().verifier, undefined]) {
          const { verifier, challenge } = pkce();
          const code = await codeFor({ challenge }, publicApp);
          expectAuthError(await exchange(code, { app: publicApp, verifier: wrong }), 400, 'invalid_grant');
          expectAuthError(await exchange(code, { app: publicApp, verifier }), 400, 'invalid_grant');
        }
        const { verifier, challenge } = pkce();
        const code = await codeFor({ challenge }, publicApp);
        const token = await exchange(code, { app: publicApp, verifier });
        expectAuth(token, { scope: 'public private', app: publicApp, user: personId });
        // A later failed exchange of a used code revokes what it gave, as a replay does.
        expectAuthError(await exchange(code, { app: publicApp, verifier: pkce().verifier }), 400, 'invalid_grant');
        expectError(await h.call('GET', '/me', { token: token.body.access_token }), 401, 8003);
      });

      it('a loopback redirect URI may name any port (RFC 8252 §7.3), and nothing else may differ', async () => {
        for (const redirectUri of ['http://127.0.0.1:49152/cb', 'http://127.0.0.1/cb', 'http://[::1]:8123/cb']) {
          const { verifier, challenge } = pkce();
          const code = await codeFor({ challenge, redirectUri }, publicApp);
          expectAuth(await exchange(code, { app: publicApp, verifier, redirectUri }), { scope: 'public private', app: publicApp, user: personId });
        }
        for (const redirectUri of ['http://localhost:49152/cb', 'http://127.0.0.1:49152/cb/more', 'http://127.0.0.1:49152/cb?x=1', 'https://127.0.0.1:49152/cb', 'http://u@127.0.0.1:49152/cb']) {
          const page = await browser.get(authorizeUrl(publicApp, { challenge: pkce().challenge, redirectUri }));
          assert.equal(page.status, 400, redirectUri);
          assert.equal(page.headers.get('location'), null);
        }
      });

      it('a confidential app may use it too', async () => {
        const { verifier, challenge } = pkce();
        expectAuth(await exchange(await codeFor({ challenge }), { verifier }), { scope: 'public private', app, user: personId });
      });
    });

    describe('verify and revoke', () => {
      it('a personal token (reelbase tokens create) verifies with no app', async () => {
        expectAuth(await h.call('GET', '/oauth/verify', { token: owner.token }), { scope: 'public private create edit delete interact upload purchased promo_codes video_files stats email webhooks', app: null, user: owner.user.id });
      });

      it('no token, a wrong one: 401 legacy-error', async () => {
        expectLegacyError(await h.call('GET', '/oauth/verify'), 401);
        expectLegacyError(await h.call('GET', '/oauth/verify', { token: 'nope' }), 401);
        expectLegacyError(await h.call('DELETE', '/tokens'), 401);
      });

      it('DELETE /tokens revokes the presented token: 204, then 401 (8003)', async () => {
        const token = (await exchange(await codeFor())).body.access_token;
        const r = await h.call('DELETE', '/tokens', { token });
        assert.equal(r.status, 204);
        expectError(await h.call('GET', '/me', { token }), 401, 8003);
        expectLegacyError(await h.call('GET', '/oauth/verify', { token }), 401);
      });

      it('deleting an app revokes its tokens', async () => {
        const doomed = await registerApp(h, owner.user, { name: 'Doomed' });
        const r = await clientCall('/oauth/authorize/client', { grant_type: 'client_credentials' }, basic(doomed.clientId, doomed.secret!));
        expectAuth(r, { scope: 'public', app: doomed });
        assert.equal(await deleteApp(h.service.store, doomed.app.id), 1);
        expectError(await h.call('GET', '/channels', { token: r.body.access_token }), 401, 8003);
        assert.equal((await h.call('GET', `/apps/${doomed.app.id}`)).status, 404);
      });
    });

    describe('the forms', () => {
      it('a post without its CSRF token, or with another browser’s, is 403', async () => {
        const fresh = new FormBrowser(h.server.url);
        const page = await fresh.get(authorizeUrl(app));
        const fields = { email: person.email, password };
        const withoutCsrf: Record<string, string> = { ...hiddenFields(page.text, '/oauth/sign_in'), ...fields };
        delete withoutCsrf.csrf_token;
        assert.equal((await fresh.post('/oauth/sign_in', withoutCsrf)).status, 403);
        const stranger = new FormBrowser(h.server.url);
        await stranger.get(authorizeUrl(app));
        assert.equal((await stranger.submit(page, '/oauth/sign_in', fields)).status, 403);
        assert.equal((await browser.post('/oauth/authorize', { decision: 'allow' })).status, 403);
      });

      it('a wrong password and an unknown email get the same page and status', async () => {
        const fresh = new FormBrowser(h.server.url);
        const page = await fresh.get(authorizeUrl(app));
        const wrong = await fresh.submit(page, '/oauth/sign_in', { email: person.email, password: 'not it at all' });
        const unknown = await fresh.submit(page, '/oauth/sign_in', { email: 'nobody@example.com', password: 'not it at all' });
        assert.equal(wrong.status, 400);
        assert.equal(unknown.status, 400);
        const message = (t: string) => /role="alert">([^<]*)</.exec(t)?.[1];
        assert.equal(message(wrong.text), 'Wrong email or password.');
        assert.equal(message(unknown.text), message(wrong.text));
      });

      it('sign-out ends the session: the next authorization asks to sign in again', async () => {
        const fresh = new FormBrowser(h.server.url);
        await approve(fresh, authorizeUrl(app), person, 'deny');
        const consent = await fresh.get(authorizeUrl(app));
        assert.match(consent.text, /name="decision"/);
        const out = await fresh.submit(consent, '/oauth/sign_out', {});
        assert.equal(out.status, 303);
        assert.match((await fresh.get(out.headers.get('location')!)).text, /name="password"/);
      });
    });
  });
}
