import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { cli, startServe, stdoutJson, tempDir } from './cli-harness';

/**
 * `reelbase apps create|list|delete`, `users create --email --password-stdin` and `users
 * set-password` (issue 35), on the SQLite file a running server uses: what the CLI registers
 * works on the server at once, and deleting an app revokes its tokens there.
 */
describe('apps and accounts from the command line', () => {
  let dir: string;
  let cleanup: () => void;
  let store: string;
  let running: Awaited<ReturnType<typeof startServe>>;
  before(async () => {
    ({ dir, cleanup } = tempDir());
    store = `sqlite:${join(dir, 'reelbase.db')}`;
    running = await startServe(['--port', '0', '--store', store], dir);
  });
  after(async () => {
    await running.stop();
    cleanup();
  });

  const stdin = (text: string) => Object.assign(Readable.from([Buffer.from(text)]), { isTTY: false });
  const clientToken = (id: string, secret: string) =>
    fetch(`${running.server.url}/oauth/authorize/client`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });

  it('apps create prints client_id and a secret shown once; the server takes them; apps delete revokes its tokens', async () => {
    const made = await cli(['apps', 'create', '--name', 'Site', '--redirect-uri', 'https://site.example/cb', '--redirect-uri', 'http://localhost:3000/cb', '--store', store, '--json']);
    assert.equal(made.code, 0, made.stderr);
    const app = stdoutJson(made);
    assert.deepEqual(Object.keys(app).sort(), ['client_id', 'client_secret', 'created_time', 'name', 'public', 'redirect_uris', 'uri', 'user']);
    assert.equal(app.public, false);
    assert.deepEqual(app.redirect_uris, ['https://site.example/cb', 'http://localhost:3000/cb']);
    const answer = await clientToken(app.client_id, app.client_secret);
    assert.equal(answer.status, 200);
    const { access_token } = (await answer.json()) as { access_token: string };

    const listed = stdoutJson(await cli(['apps', 'list', '--store', store, '--json']));
    assert.equal(listed.length, 1);
    assert.equal(listed[0].client_id, app.client_id);
    assert.equal('client_secret' in listed[0], false);

    const id = app.uri.split('/').pop();
    assert.deepEqual(stdoutJson(await cli(['apps', 'delete', id, '--store', store, '--json'])), { deleted: app.uri, revoked: 1 });
    assert.equal((await fetch(`${running.server.url}/channels`, { headers: { authorization: `Bearer ${access_token}` } })).status, 401);
    assert.equal((await clientToken(app.client_id, app.client_secret)).status, 401);
    const again = await cli(['apps', 'delete', id, '--store', store]);
    assert.equal(again.code, 1);
  });

  it('a public app has no secret; a bad redirect URI is a usage error', async () => {
    const app = stdoutJson(await cli(['apps', 'create', '--name', 'Phone', '--redirect-uri', 'com.example.phone:/cb', '--public', '--store', store, '--json']));
    assert.equal(app.public, true);
    assert.equal(app.client_secret, null);
    const bad = await cli(['apps', 'create', '--name', 'Bad', '--redirect-uri', 'http://evil.example/cb', '--store', store]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /use https/);
  });

  it('users create --email --password-stdin and set-password: the password comes from stdin only', async () => {
    const made = await cli(['users', 'create', '--name', 'Ada', '--email', 'Ada@Example.com', '--password-stdin', '--store', store, '--json'], { stdin: stdin('first password\n') });
    assert.equal(made.code, 0, made.stderr);
    const id = stdoutJson(made).uri.split('/').pop();
    const taken = await cli(['users', 'create', '--name', 'Eve', '--email', 'ada@example.com', '--password-stdin', '--store', store], { stdin: stdin('another one\n') });
    assert.equal(taken.code, 2);
    assert.match(taken.stderr, /already has an account/);
    const short = await cli(['users', 'set-password', id, '--password-stdin', '--store', store], { stdin: stdin('short\n') });
    assert.equal(short.code, 2);
    const set = await cli(['users', 'set-password', id, '--password-stdin', '--store', store, '--json'], { stdin: stdin('second password\n') });
    assert.deepEqual(stdoutJson(set), { user: `/users/${id}`, email: 'ada@example.com' });
    const lone = await cli(['users', 'create', '--name', 'Lone', '--email', 'x@example.com', '--store', store]);
    assert.equal(lone.code, 2);
    const noEmail = await cli(['users', 'set-password', '1', '--password-stdin', '--store', store], { stdin: stdin('a fine password\n') });
    assert.equal(noEmail.code, 2);
    assert.match(noEmail.stderr, /no email yet/);
  });
});
