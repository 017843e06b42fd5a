import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { UsageError } from '../src/errors';
import { geoipFromEnv } from '../src/geoip-env';

it('REELBASE_GEOIP_DB unset: no country lookup; a file that is no MaxMind database is a usage error naming the variable', () => {
  assert.deepEqual(geoipFromEnv({}), {});
  const dir = mkdtempSync(join(tmpdir(), 'reelbase-geoip-'));
  try {
    const file = join(dir, 'not.mmdb');
    writeFileSync(file, 'not a database');
    for (const path of [file, join(dir, 'missing.mmdb')]) {
      assert.throws(() => geoipFromEnv({ REELBASE_GEOIP_DB: path }), (e: unknown) => e instanceof UsageError && e.message.startsWith(`REELBASE_GEOIP_DB: ${path} is not a MaxMind database`));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
