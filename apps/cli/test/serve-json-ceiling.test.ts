import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { jsonStoreCeilingBytes } from '@reelbase/store-json';
import { startServe, useTempDir } from './cli-harness';

describe('serve on a JSON store past the driver ceiling', () => {
  const temp = useTempDir();

  it('warns at start and names the migrate command; a small store gets no warning', async () => {
    mkdirSync(join(temp.dir, 'data'));
    // A store the size of the ceiling plus a little, in a collection the schema does not know (kept as it is).
    const padding = 'x'.repeat(jsonStoreCeilingBytes + 1024);
    writeFileSync(join(temp.dir, 'data', 'big.json'), JSON.stringify({ version: 1, collections: { padding: { seq: 1, rows: [{ id: '1', padding }] } } }));
    const big = await startServe(['--port', '0', '--store', 'json:./data/big.json'], temp.dir);
    const warned = await big.stop();
    assert.equal(warned.code, 0, warned.stderr);
    const path = join(temp.dir, 'data', 'big');
    assert.match(warned.stderr, new RegExp(`^Warning: json:${path}\\.json is \\d+\\.\\d MiB, past the JSON driver's ceiling of \\d+\\.\\d MiB:$`, 'm'));
    assert.ok(warned.stderr.includes(`reelbase migrate --from json:${path}.json --to sqlite:${path}.db`), warned.stderr);

    const small = await startServe(['--port', '0', '--store', 'json:./data/small.json'], temp.dir);
    const quiet = await small.stop();
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.doesNotMatch(quiet.stderr, /Warning|migrate/);
  });
});
