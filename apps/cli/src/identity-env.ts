import type { ServiceConfig } from '@reelbase/core';
import type { Env } from './context';
import { UsageError } from './errors';

const units: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/**
 * Sign-in settings from the environment (issue 35): REELBASE_TOKEN_TTL is how long a token an app
 * obtains works (`3600`, `90m`, `12h`, `30d`; `off` or unset: until revoked, as the hosted API);
 * REELBASE_SIGNUP=open lets anybody make an account on the sign-in page (`closed`, the default: only
 * the operator makes accounts).
 */
export function identityFromEnv(env: Env): Partial<ServiceConfig> {
  const config: Partial<ServiceConfig> = {};
  const ttl = env.REELBASE_TOKEN_TTL?.trim();
  if (ttl) {
    const m = /^(\d{1,9})([smhd]?)$/.exec(ttl);
    if (ttl !== 'off' && !(m && Number(m[1]) > 0)) throw new UsageError(`REELBASE_TOKEN_TTL: "${ttl}" is not a lifetime (such as 3600, 90m, 12h or 30d) or off`);
    config.tokenTtlSeconds = m ? Number(m[1]) * units[m[2] || 's'] : null;
  }
  const signUp = env.REELBASE_SIGNUP?.trim();
  if (signUp) {
    if (signUp !== 'open' && signUp !== 'closed') throw new UsageError(`REELBASE_SIGNUP: "${signUp}" is not open or closed`);
    config.signUp = signUp === 'open';
  }
  return config;
}
