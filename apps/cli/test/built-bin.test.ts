import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { useTempDir } from './cli-harness';
import { servedUrl, startCli, stopCli } from './worker-processes';

/**
 * Every other test runs the CLI from source; this one runs what `npm install` builds and
 * `npm start` runs (bin/reelbase.js over dist/), so a dependency the bundle cannot carry (a CommonJS
 * module's dynamic require inlined into ESM) fails here instead of at an operator's first start.
 */
describe('the built command', () => {
  const temp = useTempDir();

  it('serves from the build: health, the API root and a player asset answer, and SIGTERM stops it with 0', async () => {
    const env = { REELBASE_STORE: `sqlite:${join(temp.dir, 'reelbase.db')}`, REELBASE_FILES: join(temp.dir, 'files') };
    const server = await startCli(['serve', '--port', '0', '--no-worker'], env, /^Stop with Ctrl-C\.$/, temp.dir, 'built');
    try {
      const base = servedUrl(server);
      const health = await fetch(`${base}/health`);
      assert.deepEqual([health.status, await health.json()], [200, { status: 'ok' }]);
      const root = await fetch(`${base}/`);
      assert.equal(root.status, 200);
      await root.arrayBuffer();
      for (const name of ['player.js', 'protocol.js', 'beacons.js', 'hls.min.js']) {
        const asset = await fetch(`${base}/static/player/${name}`);
        assert.deepEqual([asset.status, asset.headers.get('content-type')], [200, 'text/javascript; charset=utf-8'], name);
        assert.ok((await asset.text()).length > 100, name);
      }
    } finally {
      assert.equal(await stopCli(server), 0);
    }
  });
});
