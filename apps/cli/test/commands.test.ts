import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, stdoutJson, tempDir, useTempDir } from './cli-harness';

const drivers = [
  { name: 'sqlite', store: (dir: string) => `sqlite:${join(dir, 'nested', 'reelbase.db')}`, file: 'nested/reelbase.db' },
  { name: 'json', store: (dir: string) => `json:${join(dir, 'nested', 'reelbase.json')}`, file: 'nested/reelbase.json' },
];

for (const driver of drivers) {
  describe(`commands in-process on ${driver.name}`, () => {
    let dir: string;
    let cleanup: () => void;
    let store: string;
    let user: any;
    let token: string;

    before(async () => {
      ({ dir, cleanup } = tempDir());
      store = driver.store(dir);
    });
    after(() => cleanup());

    it('users create --json prints the User representation and creates the store file', async () => {
      const outcome = await cli(['users', 'create', '--name', 'Alice', '--account', 'plus', '--store', store, '--json']);
      assert.equal(outcome.code, 0, outcome.stderr);
      assert.equal(outcome.stderr, '');
      user = stdoutJson(outcome);
      assert.match(user.uri, /^\/users\/\d+$/);
      assert.equal(user.name, 'Alice');
      assert.equal(user.account, 'plus');
      assert.equal(user.link, `http://localhost:8080${user.uri}`);
      assert.equal(user.metadata.connections.videos.total, 0);
      assert.ok(user.upload_quota, 'the user sees their own quota');
      assert.ok(existsSync(join(dir, driver.file)));
    });

    it('tokens create --json prints the token, its type, its scopes and the user', async () => {
      const id = user.uri.split('/').pop();
      const outcome = await cli(['tokens', 'create', '--user', id, '--scopes', 'public,private,edit,upload,delete', '--store', store, '--json']);
      assert.equal(outcome.code, 0, outcome.stderr);
      const answer = stdoutJson(outcome);
      assert.deepEqual(Object.keys(answer), ['access_token', 'token_type', 'scope', 'user']);
      assert.match(answer.access_token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(answer.token_type, 'bearer');
      // private: the token reads its user's own non-public video and sees them as they see themselves (issue 46 §3).
      assert.equal(answer.scope, 'public private edit upload delete');
      assert.deepEqual(answer.user, user);
      token = answer.access_token;
    });

    it('api GET /me with that token answers the user', async () => {
      const outcome = await cli(['api', 'GET', '/me', '--token', token, '--store', store]);
      assert.equal(outcome.code, 0, outcome.stderr);
      assert.deepEqual(stdoutJson(outcome), user);
    });

    it('api sends -d pairs as a dot-notation form body and as the GET query', async () => {
      const created = await cli(['api', 'POST', '/me/videos', '-d', 'name=Clip', '-d', 'privacy.view=nobody', '--token', token, '--store', store]);
      assert.equal(created.code, 0, created.stderr);
      const video = stdoutJson(created);
      assert.equal(video.name, 'Clip');
      assert.equal(video.privacy.view, 'nobody');
      const read = await cli(['api', 'GET', video.uri, '-d', 'fields=name,privacy.view', '--token', token, '--store', store]);
      assert.equal(read.code, 0, read.stderr);
      assert.deepEqual(stdoutJson(read), { name: 'Clip', privacy: { view: 'nobody' } });
    });

    it('api sends --json-body and the version from --api-version (204 before 3.2 prints nothing)', async () => {
      const list = stdoutJson(await cli(['api', 'GET', '/me/videos', '--token', token, '--store', store]));
      const uri = list.data[0].uri;
      const old = await cli(['api', 'PATCH', uri, '--json-body', '{"description":"old style"}', '--api-version', '3.1', '--token', token, '--store', store]);
      assert.deepEqual(old, { code: 0, stdout: '', stderr: '' });
      const now = await cli(['api', 'PATCH', uri, '--json-body', '{"name":"Renamed"}', '--token', token, '--store', store]);
      assert.equal(now.code, 0, now.stderr);
      assert.equal(stdoutJson(now).name, 'Renamed');
      assert.equal(stdoutJson(now).description, 'old style');
    });

    it('api answers a 404 with exit 1 and the Error representation on stderr', async () => {
      const outcome = await cli(['api', 'GET', '/videos/987654', '--store', store]);
      assert.equal(outcome.code, 1);
      assert.equal(outcome.stdout, '');
      const error = JSON.parse(outcome.stderr);
      assert.equal(error.error_code, 5000);
      assert.equal(typeof error.developer_message, 'string');
    });

    it('api answers a bad token (401) and a missing scope (403) with exit 1', async () => {
      const denied = await cli(['api', 'GET', '/me', '--token', 'not-a-token', '--store', store]);
      assert.equal(denied.code, 1);
      assert.equal(JSON.parse(denied.stderr).error_code, 8003);
      const id = user.uri.split('/').pop();
      const readOnly = stdoutJson(await cli(['tokens', 'create', '--user', id, '--scopes', 'public', '--store', store, '--json']));
      assert.equal(readOnly.scope, 'public');
      const forbidden = await cli(['api', 'PATCH', '/me', '-d', 'name=Mallory', '--token', readOnly.access_token, '--store', store]);
      assert.equal(forbidden.code, 1);
      assert.equal(forbidden.stdout, '');
      const error = JSON.parse(forbidden.stderr);
      assert.equal(error.error_code, 3200);
      assert.match(error.developer_message, /"edit"/);
    });

    it('tokens create for an unknown user exits 1 with a message on stderr', async () => {
      const outcome = await cli(['tokens', 'create', '--user', '424242', '--scopes', 'all', '--store', store]);
      assert.equal(outcome.code, 1);
      assert.equal(outcome.stdout, '');
      assert.match(outcome.stderr, /no user "424242"/);
    });

    it('tokens create with an unknown scope is a usage error (exit 2) and creates nothing', async () => {
      const id = user.uri.split('/').pop();
      const outcome = await cli(['tokens', 'create', '--user', id, '--scopes', 'public,superpowers', '--store', store]);
      assert.equal(outcome.code, 2);
      assert.equal(outcome.stdout, '');
      assert.match(outcome.stderr, /unknown scope\(s\): superpowers/);
    });

    it('prints human-readable text without --json', async () => {
      const created = await cli(['users', 'create', '--name', 'Bob', '--store', store]);
      assert.equal(created.code, 0, created.stderr);
      assert.match(created.stdout, /^Created user \d+ "Bob" \(account pro\)\./);
      const id = /Created user (\d+)/.exec(created.stdout)![1];
      // The store does not know where the server answers: the link says its origin is the default (issue 47)…
      assert.match(created.stdout, new RegExp(`\n  link  http://localhost:8080/users/${id} \\(on http://localhost:8080, the default: set REELBASE_BASE_URL to your server's address\\)\n`));
      // …or uses REELBASE_BASE_URL.
      const elsewhere = await cli(['users', 'create', '--name', 'Cy', '--store', store], { env: { REELBASE_BASE_URL: 'https://videos.example.org/' } });
      assert.match(elsewhere.stdout, /\n  link  https:\/\/videos\.example\.org\/users\/\d+\n/);
      const issued = await cli(['tokens', 'create', '--user', id, '--scopes', 'all', '--store', store]);
      assert.equal(issued.code, 0, issued.stderr);
      assert.match(issued.stdout, /scopes: public private create edit delete interact upload/);
      const shown = /^ {4}(\S+)$/m.exec(issued.stdout)![1];
      const me = await cli(['api', 'GET', '/me', '-d', 'fields=name', '--token', shown, '--store', store]);
      assert.deepEqual(stdoutJson(me), { name: 'Bob' });
    });

    it('reads the store from REELBASE_STORE and the token from REELBASE_TOKEN', async () => {
      const outcome = await cli(['api', 'GET', '/me', '-d', 'fields=uri'], { env: { REELBASE_STORE: store, REELBASE_TOKEN: token } });
      assert.equal(outcome.code, 0, outcome.stderr);
      assert.deepEqual(stdoutJson(outcome), { uri: user.uri });
    });
  });
}

describe('usage errors exit 2 with a message on stderr', () => {
  const temp = useTempDir();

  const cases: [string, string[], RegExp][] = [
    ['no command', [], /Usage: reelbase/],
    ['an unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
    ['an unknown option', ['users', 'create', '--name', 'x', '--colour', 'red'], /unknown option '--colour'/],
    ['a missing required option', ['users', 'create'], /required option '--name <name>' not specified/],
    ['a bad --account', ['users', 'create', '--name', 'x', '--account', 'gold'], /Allowed choices are basic, plus, pro, business, premium/],
    ['a blank --name', ['users', 'create', '--name', '  '], /--name must be 1 to 256 characters/],
    ['an unknown store scheme', ['users', 'create', '--name', 'x', '--store', 'mongodb://db'], /unknown store "mongodb:\/\/db"/],
    ['a database URL without a database', ['users', 'create', '--name', 'x', '--store', 'postgres://db'], /store "postgres:\/\/db" names no database/],
    ['a missing api argument', ['api', 'GET'], /missing required argument 'path'/],
    ['--base-url together with --store', ['api', 'GET', '/me', '--base-url', 'http://127.0.0.1:1', '--store', 'json:memory'], /cannot be used with option '--store/],
    ['a bad base URL', ['api', 'GET', '/me', '--base-url', 'ftp://x'], /must be http or https/],
    ['a bad port', ['serve', '--port', '70000'], /invalid port "70000"/],
    ['a bad CORS origin', ['serve', '--cors', 'example.com/path'], /--cors/],
    ['empty scopes', ['tokens', 'create', '--user', '1', '--scopes', ''], /--scopes needs/],
  ];
  for (const [what, argv, message] of cases) {
    it(what, async () => {
      const outcome = await cli(argv, { cwd: temp.dir });
      assert.equal(outcome.code, 2, `${outcome.stdout}${outcome.stderr}`);
      assert.equal(outcome.stdout, '');
      assert.match(outcome.stderr, message);
    });
  }

  it('opens no default store on a usage error', () => {
    assert.equal(existsSync(join(temp.dir, 'data')), false);
  });

  it('--help and --version exit 0 on stdout', async () => {
    const help = await cli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Exit codes: 0 ok, 1 API or runtime error, 2 usage error/);
    assert.equal(help.stderr, '');
    const apiHelp = await cli(['api', '--help']);
    assert.equal(apiHelp.code, 0);
    assert.match(apiHelp.stdout, /--json-body <json>/);
    const version = await cli(['--version']);
    assert.deepEqual(version, { code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it('a server that is not there is a runtime error (exit 1)', async () => {
    const outcome = await cli(['api', 'GET', '/me', '--base-url', 'http://127.0.0.1:9']);
    assert.equal(outcome.code, 1);
    assert.match(outcome.stderr, /cannot reach http:\/\/127\.0\.0\.1:9/);
  });
});
