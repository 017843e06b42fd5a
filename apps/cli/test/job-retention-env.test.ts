import assert from 'node:assert/strict';
import { it } from 'node:test';
import { UsageError } from '../src/errors';
import { jobRetentionFromEnv } from '../src/job-retention-env';
import { serviceConfig } from '../src/context';
import { cli } from './cli-harness';

it('REELBASE_KEEP_DONE_JOBS and REELBASE_KEEP_FAILED_JOBS set how long finished jobs are kept; one alone keeps the other default', () => {
  assert.deepEqual(jobRetentionFromEnv({}), {});
  assert.deepEqual(jobRetentionFromEnv({ REELBASE_KEEP_DONE_JOBS: '12h' }), { jobRetention: { doneSeconds: 43200, failedSeconds: 30 * 86400 } });
  assert.deepEqual(jobRetentionFromEnv({ REELBASE_KEEP_FAILED_JOBS: '90d' }), { jobRetention: { doneSeconds: 7 * 86400, failedSeconds: 90 * 86400 } });
  assert.deepEqual(serviceConfig({ REELBASE_KEEP_DONE_JOBS: '3600', REELBASE_KEEP_FAILED_JOBS: '90m' }).jobRetention, { doneSeconds: 3600, failedSeconds: 5400 });
  for (const bad of [{ REELBASE_KEEP_DONE_JOBS: '0' }, { REELBASE_KEEP_DONE_JOBS: '1w' }, { REELBASE_KEEP_FAILED_JOBS: 'off' }]) {
    assert.throws(() => jobRetentionFromEnv(bad), UsageError, JSON.stringify(bad));
  }
});

it('a malformed retention is a usage error (exit 2) naming the variable', async () => {
  const outcome = await cli(['api', 'GET', '/', '--store', 'json:memory'], { env: { REELBASE_KEEP_FAILED_JOBS: 'forever' } });
  assert.equal(outcome.code, 2);
  assert.match(outcome.stderr, /REELBASE_KEEP_FAILED_JOBS: "forever" is not a duration/);
});
