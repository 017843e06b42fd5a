import { defaultConfig, type ServiceConfig } from '@reelbase/core';
import type { Env } from './context';
import { durationSeconds } from './durations';
import { UsageError } from './errors';

/**
 * Sign-in settings from the environment (issue 35): REELBASE_TOKEN_TTL is how long a token an app
 * obtains works (`3600`, `90m`, `12h`, `30d`; `off` or unset: until revoked, as the hosted API);
 * REELBASE_SIGNUP=open lets anybody make an account on the sign-in page (`closed`, the default: only
 * the operator makes accounts); REELBASE_SIGNUP_PER_HOUR is how many accounts one address (IPv6
 * by /64) may make in an hour (default 3).
 */
export function identityFromEnv(env: Env): Partial<ServiceConfig> {
  const config: Partial<ServiceConfig> = {};
  const ttl = env.REELBASE_TOKEN_TTL?.trim();
  if (ttl) {
    const seconds = durationSeconds(ttl);
    if (ttl !== 'off' && seconds === null) throw new UsageError(`REELBASE_TOKEN_TTL: "${ttl}" is not a lifetime (such as 3600, 90m, 12h or 30d) or off`);
    config.tokenTtlSeconds = seconds;
  }
  const signUp = env.REELBASE_SIGNUP?.trim();
  if (signUp) {
    if (signUp !== 'open' && signUp !== 'closed') throw new UsageError(`REELBASE_SIGNUP: "${signUp}" is not open or closed`);
    config.signUp = signUp === 'open';
  }
  const perHour = env.REELBASE_SIGNUP_PER_HOUR?.trim();
  if (perHour) {
    if (!/^[1-9]\d{0,5}$/.test(perHour)) throw new UsageError(`REELBASE_SIGNUP_PER_HOUR: "${perHour}" is not a whole number of accounts from 1`);
    config.signUpLimit = { ...defaultConfig.signUpLimit, accountsPerAddress: Number(perHour) };
  }
  return config;
}
