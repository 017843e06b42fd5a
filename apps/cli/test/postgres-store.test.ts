import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scratchDatabase } from '@reelbase/store-postgres';
import { cli, printedToken, startServe, stdoutJson, useTempDir } from './cli-harness';

// Selected by REELBASE_TEST_POSTGRES=postgres://user:pass@host:port/db (scripts/with-postgres.sh sets it).
const server = process.env.REELBASE_TEST_POSTGRES;
const database = server ? scratchDatabase(server) : undefined;
if (database) after(() => database.drop());

/** The URL of a fresh schema, with a password added: the throwaway cluster trusts loopback and ignores it. */
async function storeUrl(): Promise<string> {
  const url = new URL(await database!.freshUrl());
  url.username ||= 'reelbase';
  url.password = 's3cret';
  return url.toString();
}

describe('commands on a postgres:// store', { skip: server ? false : 'not selected: set REELBASE_TEST_POSTGRES=postgres://… (scripts/with-postgres.sh does)' }, () => {
  const temp = useTempDir();

  it('users create, tokens create and api work in-process on the database named by --store or REELBASE_STORE', async () => {
    const store = await storeUrl();
    const created = await cli(['users', 'create', '--name', 'Ada', '--store', store, '--json']);
    assert.equal(created.code, 0, created.stderr);
    const user = stdoutJson(created);
    assert.equal(user.uri, '/users/1');
    const token = await cli(['tokens', 'create', '--user', '1', '--scopes', 'all', '--json'], { env: { REELBASE_STORE: store } });
    assert.equal(token.code, 0, token.stderr);
    const me = await cli(['api', 'GET', '/me', '--token', stdoutJson(token).access_token, '--store', store]);
    assert.equal(me.code, 0, me.stderr);
    assert.deepEqual(stdoutJson(me), user);
  });

  it('serve creates admin on the empty database, names it without the password, and keeps video files in ./data/files', async () => {
    const store = await storeUrl();
    const running = await startServe(['--port', '0', '--store', store], temp.dir);
    try {
      const output = running.output();
      const shown = new URL(store);
      shown.password = '';
      assert.ok(output.startsWith(`reelbase serving ${running.server.url} (store ${shown})`), output);
      assert.ok(!output.includes('s3cret'), output);
      const token = printedToken(output);
      const upload = await cli(['api', 'POST', '/me/videos', '--json-body', '{"name":"Clip","upload":{"approach":"tus","size":4}}', '--base-url', running.server.url, '--token', token]);
      assert.equal(upload.code, 0, upload.stderr);
      const link = stdoutJson(upload).upload.upload_link as string;
      const patch = await fetch(link, {
        method: 'PATCH',
        headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
        body: 'abcd',
      });
      assert.equal(patch.status, 204);
      assert.ok(existsSync(join(temp.dir, 'data', 'files')), 'the files directory is under the working directory');
    } finally {
      assert.equal((await running.stop()).code, 0);
    }
  });

  it('refuses a database URL without a database as a usage error (exit 2)', async () => {
    const outcome = await cli(['users', 'create', '--name', 'x', '--store', 'postgres://127.0.0.1:1']);
    assert.equal(outcome.code, 2);
    assert.match(outcome.stderr, /names no database/);
  });
});
