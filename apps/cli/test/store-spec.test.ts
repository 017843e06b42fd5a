import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeStore, parseStoreSpec, UsageError } from '../src/index';

describe('store spec', () => {
  it('reads file and memory forms of both drivers', () => {
    assert.deepEqual(parseStoreSpec('sqlite:./data/reelbase.db', '/srv'), { driver: 'sqlite', path: '/srv/data/reelbase.db' });
    assert.deepEqual(parseStoreSpec('sqlite:/var/lib/r.db', '/srv'), { driver: 'sqlite', path: '/var/lib/r.db' });
    assert.deepEqual(parseStoreSpec('sqlite::memory:', '/srv'), { driver: 'sqlite', path: null });
    assert.deepEqual(parseStoreSpec('json:./data/reelbase.json', '/srv'), { driver: 'json', path: '/srv/data/reelbase.json' });
    assert.deepEqual(parseStoreSpec('json:memory', '/srv'), { driver: 'json', path: null });
  });

  it('names stores back in the same syntax', () => {
    assert.equal(describeStore(parseStoreSpec('sqlite::memory:', '/')), 'sqlite::memory:');
    assert.equal(describeStore(parseStoreSpec('json:memory', '/')), 'json:memory');
    assert.equal(describeStore(parseStoreSpec('json:x.json', '/srv')), 'json:/srv/x.json');
  });

  it('reads PostgreSQL URLs, and names them without their password', () => {
    for (const url of ['postgres://reelbase:s3cret@db.example.com:5432/reelbase', 'postgresql://reelbase:s3cret@10.0.0.7/videos?sslmode=require']) {
      assert.deepEqual(parseStoreSpec(url, '/srv'), { driver: 'postgres', path: null, url });
    }
    assert.equal(describeStore(parseStoreSpec('postgres://reelbase:s3cret@db.example.com:5432/reelbase', '/')), 'postgres://reelbase@db.example.com:5432/reelbase');
    assert.equal(describeStore(parseStoreSpec('postgres://app@localhost/videos', '/')), 'postgres://app@localhost/videos');
    assert.equal(describeStore(parseStoreSpec('postgres:///videos?host=/run/postgresql', '/')), 'postgres:///videos?host=/run/postgresql');
  });

  it('refuses an unknown scheme, no scheme, an empty path and a database URL without host or database as usage errors', () => {
    for (const spec of ['postgres:db/x', 'postgres://db.example.com', 'postgres://db.example.com/', 'postgres:///videos', 'postgres://[bad/x', 'mongodb:x', './data/reelbase.db', 'sqlite:', 'json:', '']) {
      assert.throws(() => parseStoreSpec(spec, '/srv'), UsageError, spec);
    }
  });
});
