import type { ServiceConfig } from '@reelbase/core';
import type { Env } from './context';
import { UsageError } from './errors';

/**
 * The server's limits from the environment: REELBASE_RATE_LIMIT is `MAX/SECONDS` (requests per
 * caller per window, e.g. `6000/600`) or `off`; REELBASE_MAX_UPLOADS is how many uploads may move
 * bytes at once, or `off`; REELBASE_USER_SEARCH=off turns user search (GET /users) off, answering
 * 503; REELBASE_UPLOAD_QUOTA is the bytes each user may store (upload_quota.space.max). Unset: the
 * service defaults.
 */
export function limitsFromEnv(env: Env): Partial<ServiceConfig> {
  const config: Partial<ServiceConfig> = {};
  const rate = env.REELBASE_RATE_LIMIT?.trim();
  if (rate) {
    const m = /^(\d{1,12})\/(\d{1,9})$/.exec(rate);
    if (rate !== 'off' && !(m && Number(m[1]) > 0 && Number(m[2]) > 0)) {
      throw new UsageError(`REELBASE_RATE_LIMIT: "${rate}" is not MAX/SECONDS (such as 6000/600) or off`);
    }
    config.rateLimit = m ? { max: Number(m[1]), windowSeconds: Number(m[2]) } : null;
  }
  const uploads = env.REELBASE_MAX_UPLOADS?.trim();
  if (uploads) {
    if (uploads !== 'off' && !/^[1-9]\d{0,5}$/.test(uploads)) throw new UsageError(`REELBASE_MAX_UPLOADS: "${uploads}" is not a positive number or off`);
    config.maxConcurrentUploads = uploads === 'off' ? null : Number(uploads);
  }
  // Webhooks to loopback or private addresses: for closed networks (and tests); off by default (SSRF).
  const privateHooks = env.REELBASE_WEBHOOK_ALLOW_PRIVATE?.trim();
  if (privateHooks) {
    if (privateHooks !== '1' && privateHooks !== '0') throw new UsageError(`REELBASE_WEBHOOK_ALLOW_PRIVATE: "${privateHooks}" is not 1 or 0`);
    config.webhookAllowPrivate = privateHooks === '1';
  }
  const userSearch = env.REELBASE_USER_SEARCH?.trim();
  if (userSearch) {
    if (userSearch !== 'on' && userSearch !== 'off') throw new UsageError(`REELBASE_USER_SEARCH: "${userSearch}" is not on or off`);
    config.userSearch = userSearch === 'on';
  }
  const quota = env.REELBASE_UPLOAD_QUOTA?.trim();
  if (quota) {
    if (!/^\d{1,16}$/.test(quota) || !Number.isSafeInteger(Number(quota))) throw new UsageError(`REELBASE_UPLOAD_QUOTA: "${quota}" is not a number of bytes (such as 536870912000)`);
    config.uploadQuotaBytes = Number(quota);
  }
  return config;
}
