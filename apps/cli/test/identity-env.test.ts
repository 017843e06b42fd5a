import assert from 'node:assert/strict';
import { it } from 'node:test';
import { defaultConfig } from '@reelbase/core';
import { UsageError } from '../src/errors';
import { identityFromEnv } from '../src/identity-env';
import { cli } from './cli-harness';

it('REELBASE_TOKEN_TTL sets the lifetime of apps’ tokens, REELBASE_SIGNUP opens sign-up and REELBASE_SIGNUP_PER_HOUR caps accounts per address; unset keeps the defaults', () => {
  assert.deepEqual(identityFromEnv({}), {});
  assert.deepEqual(identityFromEnv({ REELBASE_TOKEN_TTL: '3600', REELBASE_SIGNUP: 'open' }), { tokenTtlSeconds: 3600, signUp: true });
  assert.deepEqual(identityFromEnv({ REELBASE_TOKEN_TTL: '90m' }), { tokenTtlSeconds: 5400 });
  assert.deepEqual(identityFromEnv({ REELBASE_TOKEN_TTL: '30d', REELBASE_SIGNUP: 'closed' }), { tokenTtlSeconds: 2592000, signUp: false });
  assert.deepEqual(identityFromEnv({ REELBASE_TOKEN_TTL: 'off' }), { tokenTtlSeconds: null });
  assert.deepEqual(identityFromEnv({ REELBASE_SIGNUP_PER_HOUR: '12' }), { signUpLimit: { ...defaultConfig.signUpLimit, accountsPerAddress: 12 } });
  for (const bad of [{ REELBASE_TOKEN_TTL: '0' }, { REELBASE_TOKEN_TTL: '1w' }, { REELBASE_TOKEN_TTL: 'soon' }, { REELBASE_SIGNUP: 'yes' }, { REELBASE_SIGNUP_PER_HOUR: '0' }, { REELBASE_SIGNUP_PER_HOUR: 'lots' }]) {
    assert.throws(() => identityFromEnv(bad), UsageError, JSON.stringify(bad));
  }
});

it('a malformed value is a usage error (exit 2) naming the variable', async () => {
  const outcome = await cli(['api', 'GET', '/', '--store', 'json:memory'], { env: { REELBASE_SIGNUP: 'maybe' } });
  assert.equal(outcome.code, 2);
  assert.match(outcome.stderr, /REELBASE_SIGNUP: "maybe" is not open or closed/);
});
