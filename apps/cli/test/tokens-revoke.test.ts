import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, printedToken, startServe, stdoutJson, tempDir } from './cli-harness';

/**
 * `reelbase tokens revoke` takes effect at once: `reelbase serve` runs on a SQLite file, the CLI
 * revokes on the same file, and the server refuses the token on its very next request.
 */
describe('tokens revoke against a running server on the same SQLite file', () => {
  let dir: string;
  let cleanup: () => void;
  let store: string;
  let running: Awaited<ReturnType<typeof startServe>>;
  let admin: string;
  before(async () => {
    ({ dir, cleanup } = tempDir());
    store = `sqlite:${join(dir, 'reelbase.db')}`;
    running = await startServe(['--port', '0', '--store', store], dir);
    admin = printedToken(running.output());
  });
  after(async () => {
    await running.stop();
    cleanup();
  });

  const me = (token: string) => fetch(`${running.server.url}/me`, { headers: { authorization: `Bearer ${token}` } });
  const issue = async (user: string) => stdoutJson(await cli(['tokens', 'create', '--user', user, '--scopes', 'public,private', '--store', store, '--json'])).access_token as string;

  it('revokes one token by its value: the server answers 401 on the next request, other tokens still work', async () => {
    const token = await issue('1');
    assert.equal((await me(token)).status, 200);
    const revoked = await cli(['tokens', 'revoke', token, '--store', store, '--json']);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.deepEqual(stdoutJson(revoked), { revoked: 1, user: '/users/1' });
    const refused = await me(token);
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
    assert.equal(((await refused.json()) as { error_code: number }).error_code, 8003);
    assert.equal((await me(admin)).status, 200, 'the other token of the user is untouched');
  });

  it('says so when the token is unknown or already revoked (exit 1)', async () => {
    const token = await issue('1');
    assert.deepEqual(await cli(['tokens', 'revoke', token, '--store', store]), { code: 0, stdout: 'Revoked the access token of user 1.\n', stderr: '' });
    const again = await cli(['tokens', 'revoke', token, '--store', store]);
    assert.equal(again.code, 1);
    assert.equal(again.stdout, '');
    assert.match(again.stderr, /no such access token in this store \(it may be revoked already\)/);
  });

  it('--user ID --all revokes every token of that user at once, and no other user’s', async () => {
    const bob = stdoutJson(await cli(['users', 'create', '--name', 'Bob', '--store', store, '--json'])).uri.split('/').pop();
    const bobTokens = [await issue(bob), await issue(bob)];
    const adminToken = await issue('1');
    for (const t of [...bobTokens, adminToken]) assert.equal((await me(t)).status, 200);
    const all = await cli(['tokens', 'revoke', '--user', bob, '--all', '--store', store, '--json']);
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(stdoutJson(all), { revoked: 2, user: `/users/${bob}` });
    assert.deepEqual(await Promise.all(bobTokens.map(async (t) => (await me(t)).status)), [401, 401]);
    assert.equal((await me(adminToken)).status, 200);
    assert.deepEqual(await cli(['tokens', 'revoke', '--user', bob, '--all', '--store', store]), { code: 0, stdout: `Revoked 0 access tokens of user ${bob}.\n`, stderr: '' });
    // The user's own admin token too: revoking every token of user 1 locks the admin out at once.
    const adminAll = await cli(['tokens', 'revoke', '--user', '1', '--all', '--store', store]);
    assert.match(adminAll.stdout, /^Revoked \d+ access tokens of user 1\.\n$/);
    assert.deepEqual([(await me(admin)).status, (await me(adminToken)).status], [401, 401]);
  });

  it('usage errors exit 2: neither a token nor --user --all, both, --user without --all; an unknown user exits 1', async () => {
    for (const argv of [[], ['sometoken', '--user', '1', '--all'], ['--user', '1'], ['--all']]) {
      const outcome = await cli(['tokens', 'revoke', ...argv, '--store', store]);
      assert.equal(outcome.code, 2, `${argv.join(' ')}: ${outcome.stderr}`);
      assert.match(outcome.stderr, /give (the token to revoke|either a token)/);
    }
    const unknown = await cli(['tokens', 'revoke', '--user', '999', '--all', '--store', store]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no user "999" in this store/);
  });
});
