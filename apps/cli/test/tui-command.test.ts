import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { createService, createToken, createUser, parseScopes, schema } from '@reelbase/core';
import { createClient } from '@reelbase/http';
import { openJsonStore } from '@reelbase/store-json';
import { loadSession } from '../src/tui/session';
import { fromSource } from '@reelbase/api-tests/from-source';
import { hangGuardMs } from '@reelbase/api-tests/hang-guard';
import { cli } from './cli-harness';

const source = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

describe('reelbase tui, the command', () => {
  it('loads React only for the TUI: `operations --json` and a refused `tui` never do', () => {
    // A fresh process: React is CommonJS, so whatever loaded it is in require.cache.
    const script = `
      import { createRequire } from 'node:module';
      const cache = createRequire(import.meta.url).cache;
      const loaded = () => Object.keys(cache).filter((k) => /node_modules[\\\\/](react|ink)[\\\\/]/.test(k)).length;
      const { run } = await import(${JSON.stringify(source('index.ts'))});
      let out = '';
      const io = { env: {}, stdout: (t) => void (out += t), stderr: () => {} };
      const operations = await run(['operations', '--json'], io);
      const afterOperations = loaded();
      const tui = await run(['tui', '--store', 'json:memory'], io);
      const afterTui = loaded();
      await import(${JSON.stringify(source('tui/run.tsx'))});
      console.log(JSON.stringify({ operations, count: JSON.parse(out).length, afterOperations, tui, afterTui, afterImport: loaded() }));
    `;
    const child = spawnSync(process.execPath, [...fromSource, '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
      timeout: hangGuardMs,
    });
    assert.equal(child.status, 0, child.stderr);
    const seen = JSON.parse(child.stdout);
    assert.equal(seen.operations, 0);
    assert.ok(seen.count > 100);
    assert.equal(seen.afterOperations, 0, 'operations --json loaded React');
    assert.equal(seen.tui, 2);
    assert.equal(seen.afterTui, 0, 'a tui without a terminal loaded React');
    assert.ok(seen.afterImport > 0, 'importing the TUI shows up in require.cache (the check works)');
  });

  it('needs a terminal: without one it is a usage error (exit 2)', async () => {
    const outcome = await cli(['tui', '--store', 'json:memory', '--token', 'x']);
    assert.equal(outcome.code, 2);
    assert.equal(outcome.stdout, '');
    assert.match(outcome.stderr, /^error: reelbase tui needs an interactive terminal; for scripts use `reelbase call` or `reelbase api`\n/);
  });

  it('documents its keys in --help', async () => {
    const help = await cli(['tui', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: reelbase tui \[options\]/);
    assert.match(help.stdout, /On a video: e edit · l like · w watch later · t\/T add\/remove tag · a album · c channel · d delete\./);
    assert.match(help.stdout, /--base-url <url>/);
  });

  it('reads who and which API version from /me before taking the screen, and refuses an anonymous client', async () => {
    const service = createService({ store: await openJsonStore({ schema }) });
    const user = await service.store.transaction((tx) => createUser(tx, service.now(), { name: 'Ada' }));
    const { token } = await createToken(service.store, service.now(), user.id, parseScopes('all'));
    assert.deepEqual(await loadSession(createClient({ service, token })), { user: 'Ada', userUri: '/users/1', apiVersion: '3.4', target: 'in-process' });
    assert.equal((await loadSession(createClient({ service, token, apiVersion: '3.2' }))).apiVersion, '3.2');
    // 3.1 answers plain application/json: the version asked for is the one shown.
    assert.equal((await loadSession(createClient({ service, token, apiVersion: '3.1' }), '3.1')).apiVersion, '3.1');
    await assert.rejects(loadSession(createClient({ service })), /^Error: not signed in \(the TUI needs a token: .*\): error 8003 \(HTTP 401\): /);
  });
});
