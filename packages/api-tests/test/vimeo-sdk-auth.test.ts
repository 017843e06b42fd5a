import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { account, approve, drivers, FormBrowser, Harness, registerApp, wire, type Received, type TestApp } from '../src/index';

/**
 * The official SDKs' auth calls against this server (issue 35). The Node SDK (@vimeo/vimeo from
 * npm) runs unmodified: generateClientCredentials, then buildAuthorizationEndpoint, a signed-in
 * approval in a form browser, and accessToken. vimeo.py 1.1 (vimeo/auth/*.py through requests)
 * and vimeo.php 4.0 (src/Vimeo/Vimeo.php through curl) are replayed request by request: their
 * method, path, headers and body byte for byte, checking only what they check (vimeo.py: exactly
 * 200, then JSON `access_token`, `user`, `scope`).
 */

type Callback = (err: unknown, body: Record<string, any>, status: number) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
interface VimeoClient {
  generateClientCredentials(scope: string | string[] | undefined, cb: Callback): void;
  buildAuthorizationEndpoint(redirectUri: string, scope: string | string[], state: string): string;
  accessToken(code: string, redirectUri: string, cb: Callback): void;
  setAccessToken(token: string): void;
  request(options: { method: string; path: string }, cb: Callback): void;
}
interface VimeoModule {
  Vimeo: new (clientId: string, clientSecret: string, token?: string) => VimeoClient;
  vimeo_module: { request_defaults: { protocol: string; hostname: string; port: number } };
}
const pkg = createRequire(import.meta.url)('@vimeo/vimeo') as VimeoModule;
const defaults = pkg.vimeo_module.request_defaults;

const called = (run: (cb: Callback) => void): Promise<{ err: unknown; body: Record<string, any>; status: number }> => // eslint-disable-line @typescript-eslint/no-explicit-any
  new Promise((resolve) => run((err, body, status) => resolve({ err, body, status })));

const json = (r: Received) => JSON.parse(r.text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const length = (body: string) => String(Buffer.byteLength(body));

/** vimeo.py's `call_grant`: requests.post with auth=(key, secret) and a dict as a form. */
const pyGrant = (base: string, app: TestApp) => (path: string, body: string) =>
  wire('POST', base + path, {
    'User-Agent': 'pyvimeo 1.0.11; (http://developer.vimeo.com/api/docs)',
    'Accept-Encoding': 'gzip, deflate',
    Accept: 'application/vnd.vimeo.*;version=3.4',
    Connection: 'keep-alive',
    'Content-Length': length(body),
    'Content-Type': 'application/x-www-form-urlencoded',
    // requests' HTTPBasicAuth: latin-1 bytes of "key:secret", base64.
    Authorization: `Basic ${Buffer.from(`${app.clientId}:${app.secret}`, 'latin1').toString('base64')}`,
  }, Buffer.from(body));

/** vimeo.php's `request()` with `$json_body = false`: http_build_query through curl, Basic without a token, Bearer with one. */
const phpRequest = (base: string, app: TestApp, token?: string) => (path: string, body: string) =>
  wire('POST', base + path, {
    Host: new URL(base).host,
    Accept: 'application/vnd.vimeo.*+json; version=3.4',
    'User-Agent': 'vimeo.php 4.0.1; (http://developer.vimeo.com/api/docs)',
    Authorization: token ? `Bearer ${token}` : `Basic ${Buffer.from(`${app.clientId}:${app.secret}`).toString('base64')}`,
    'Content-Length': length(body),
    'Content-Type': 'application/x-www-form-urlencoded',
  }, Buffer.from(body));

for (const driver of drivers) {
  describe(`the official SDKs' auth calls (${driver.name})`, () => {
    let h: Harness;
    let app: TestApp;
    let userId: string;
    const person = { email: 'grace@example.com', password: 'a long enough password' };
    const saved = { ...defaults };
    const redirect = 'https://app.example/callback';

    before(async () => {
      h = await Harness.start(driver);
      const owner = await h.user('Owner');
      app = await registerApp(h, owner.user, { redirectUris: [redirect] });
      userId = (await account(h, 'Grace', person.email, person.password)).id;
      Object.assign(defaults, { protocol: 'http:', hostname: '127.0.0.1', port: h.server.port });
    });
    after(async () => {
      Object.assign(defaults, saved);
      await h?.stop();
    });

    /** Where the SDK's authorization URL leads on this server: its path and query (the SDK writes the hosted API's host). */
    const onServer = (url: string) => {
      const u = new URL(url);
      return `${u.pathname}${u.search}`;
    };

    it('Node: generateClientCredentials, then a public read with that token; with a token held, the grant is refused', async () => {
      const client = new pkg.Vimeo(app.clientId, app.secret!);
      const got = await called((cb) => client.generateClientCredentials(['public', 'private'], cb));
      assert.equal(got.err, null);
      assert.equal(got.status, 200);
      assert.equal(got.body.scope, 'public');
      client.setAccessToken(got.body.access_token);
      const read = await called((cb) => client.request({ method: 'GET', path: '/channels' }, cb));
      assert.equal(read.status, 200);
      // Holding a token, the SDK sends Bearer to the grant endpoint: invalid_client, as the hosted API.
      const again = await called((cb) => client.generateClientCredentials('public', cb));
      assert.equal(again.status, 401);
    });

    it('Node: buildAuthorizationEndpoint, a signed-in approval, accessToken, then GET /me as that user', async () => {
      const client = new pkg.Vimeo(app.clientId, app.secret!);
      const url = client.buildAuthorizationEndpoint(redirect, ['public', 'private', 'edit'], 'state-1');
      const at = await approve(new FormBrowser(h.server.url), onServer(url), person);
      assert.equal(at.searchParams.get('state'), 'state-1');
      const got = await called((cb) => client.accessToken(at.searchParams.get('code')!, redirect, cb));
      assert.equal(got.err, null);
      assert.equal(got.status, 200);
      assert.equal(got.body.scope, 'public private edit');
      assert.equal(got.body.user.uri, `/users/${userId}`);
      client.setAccessToken(got.body.access_token);
      const me = await called((cb) => client.request({ method: 'GET', path: '/me' }, cb));
      assert.equal(me.status, 200);
      assert.equal(me.body.uri, `/users/${userId}`);
    });

    it('vimeo.py: load_client_credentials() with no scope, and with a scope string joined letter by letter', async () => {
      const grant = pyGrant(h.server.url, app);
      for (const body of [form({ grant_type: 'client_credentials' }), 'grant_type=client_credentials&scope=p+u+b+l+i+c']) {
        const r = await grant('/oauth/authorize/client', body);
        const parsed = json(r); // resp.json() comes first, then `code == 200`
        assert.equal(r.status, 200);
        assert.equal(typeof parsed.access_token, 'string');
        assert.equal(parsed.scope, 'public');
      }
    });

    it('vimeo.py: auth_url, approval, exchange_code: exactly 200 with access_token, user and scope; errors are JSON too', async () => {
      // urlencode(query) in the SDK's key order.
      const url = `http://api.vimeo.example/oauth/authorize?${form({ response_type: 'code', client_id: app.clientId, scope: 'public private', redirect_uri: redirect, state: 'py' })}`;
      const at = await approve(new FormBrowser(h.server.url), onServer(url), person);
      const code = at.searchParams.get('code')!;
      const body = form({ grant_type: 'authorization_code', code, redirect_uri: redirect });
      const r = await pyGrant(h.server.url, app)('/oauth/access_token', body);
      const parsed = json(r);
      assert.equal(r.status, 200);
      const [token, user, scope] = [parsed.access_token, parsed.user, parsed.scope];
      assert.equal(typeof token, 'string');
      assert.equal(user.uri, `/users/${userId}`);
      assert.equal(scope, 'public private');
      const reused = await pyGrant(h.server.url, app)('/oauth/access_token', body);
      assert.equal(json(reused).error, 'invalid_grant');
      assert.equal(reused.status, 400);
    });

    it('vimeo.php: clientCredentials(), buildAuthorizationEndpoint + approval + accessToken(); Bearer to a grant endpoint is invalid_client', async () => {
      const php = phpRequest(h.server.url, app);
      const cc = await php('/oauth/authorize/client', 'grant_type=client_credentials&scope=public');
      assert.equal(cc.status, 200);
      assert.equal(json(cc).scope, 'public');
      // http_build_query (PHP_QUERY_RFC1738: a space is +).
      const url = `https://api.vimeo.com/oauth/authorize?response_type=code&client_id=${app.clientId}&redirect_uri=${encodeURIComponent(redirect)}&scope=public+private&state=php`;
      const at = await approve(new FormBrowser(h.server.url), onServer(url), person);
      const exchanged = await php('/oauth/access_token', `grant_type=authorization_code&code=${at.searchParams.get('code')}&redirect_uri=${encodeURIComponent(redirect)}`);
      assert.equal(exchanged.status, 200);
      const body = json(exchanged);
      assert.equal(body.user.uri, `/users/${userId}`);
      const withToken = await phpRequest(h.server.url, app, body.access_token)('/oauth/authorize/client', 'grant_type=client_credentials&scope=public');
      assert.equal(withToken.status, 401);
      assert.equal(json(withToken).error, 'invalid_client');
    });
  });
}
