import assert from 'node:assert/strict';
import { it } from 'node:test';
import { UsageError } from '../src/errors';
import { limitsFromEnv } from '../src/service-limits';
import { cli } from './cli-harness';

it('REELBASE_RATE_LIMIT and REELBASE_MAX_UPLOADS set the limits, `off` switches them off, unset keeps the defaults', () => {
  assert.deepEqual(limitsFromEnv({}), {});
  assert.deepEqual(limitsFromEnv({ REELBASE_RATE_LIMIT: '600/60', REELBASE_MAX_UPLOADS: '4' }), { rateLimit: { max: 600, windowSeconds: 60 }, maxConcurrentUploads: 4 });
  assert.deepEqual(limitsFromEnv({ REELBASE_RATE_LIMIT: 'off', REELBASE_MAX_UPLOADS: 'off' }), { rateLimit: null, maxConcurrentUploads: null });
  for (const bad of [{ REELBASE_RATE_LIMIT: '600' }, { REELBASE_RATE_LIMIT: '0/60' }, { REELBASE_RATE_LIMIT: '10/0' }, { REELBASE_MAX_UPLOADS: '0' }, { REELBASE_MAX_UPLOADS: 'many' }]) {
    assert.throws(() => limitsFromEnv(bad), UsageError, JSON.stringify(bad));
  }
});

it('REELBASE_USER_SEARCH=off turns user search off (GET /users answers 503), `on` keeps it; anything else is a usage error', async () => {
  assert.deepEqual(limitsFromEnv({ REELBASE_USER_SEARCH: 'off' }), { userSearch: false });
  assert.deepEqual(limitsFromEnv({ REELBASE_USER_SEARCH: 'on' }), { userSearch: true });
  assert.throws(() => limitsFromEnv({ REELBASE_USER_SEARCH: 'no' }), UsageError);
  const off = await cli(['api', 'GET', '/users?query=a', '--store', 'json:memory'], { env: { REELBASE_USER_SEARCH: 'off' } });
  assert.match(off.stdout + off.stderr, /"developer_message": "User search is disabled on this server."/);
});

it('REELBASE_UPLOAD_QUOTA sets the bytes each user may store; anything but a number of bytes is a usage error', async () => {
  assert.deepEqual(limitsFromEnv({ REELBASE_UPLOAD_QUOTA: '1073741824' }), { uploadQuotaBytes: 1073741824 });
  assert.deepEqual(limitsFromEnv({ REELBASE_UPLOAD_QUOTA: '0' }), { uploadQuotaBytes: 0 });
  for (const bad of ['1G', '-5', '1.5', '99999999999999999']) assert.throws(() => limitsFromEnv({ REELBASE_UPLOAD_QUOTA: bad }), UsageError, bad);
  const made = await cli(['users', 'create', '--name', 'Quota', '--store', 'json:memory', '--json'], { env: { REELBASE_UPLOAD_QUOTA: '5000' } });
  assert.equal(made.code, 0, made.stderr);
  assert.deepEqual(JSON.parse(made.stdout).upload_quota.space, { free: 5000, max: 5000, used: 0, showing: 'lifetime' });
  const bad = await cli(['api', 'GET', '/', '--store', 'json:memory'], { env: { REELBASE_UPLOAD_QUOTA: 'lots' } });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /REELBASE_UPLOAD_QUOTA: "lots" is not a number of bytes/);
});

it('a malformed limit is a usage error (exit 2) naming the variable', async () => {
  const outcome = await cli(['api', 'GET', '/', '--store', 'json:memory'], { env: { REELBASE_RATE_LIMIT: 'lots' } });
  assert.equal(outcome.code, 2);
  assert.match(outcome.stderr, /REELBASE_RATE_LIMIT: "lots" is not MAX\/SECONDS \(such as 6000\/600\) or off/);
});

it('REELBASE_TEST_CLOCK (tests only) stops the service clock at an instant; a malformed one is a usage error', async () => {
  const created = await cli(['users', 'create', '--name', 'Then', '--store', 'json:memory', '--json'], { env: { REELBASE_TEST_CLOCK: '2030-01-01T00:10:00Z' } });
  assert.equal(created.code, 0, created.stderr);
  assert.equal(JSON.parse(created.stdout).created_time, '2030-01-01T00:10:00+00:00');
  for (const bad of ['tomorrow', '2030-13-01T00:00:00Z', '1893456000']) {
    const outcome = await cli(['users', 'create', '--name', 'x', '--store', 'json:memory'], { env: { REELBASE_TEST_CLOCK: bad } });
    assert.equal(outcome.code, 2, bad);
    assert.match(outcome.stderr, new RegExp(`REELBASE_TEST_CLOCK: "${bad}" is not an ISO 8601 time`));
  }
});
