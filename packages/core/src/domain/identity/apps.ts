import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../../store/store';
import { eq } from '../../store/filters';
import { hashToken, newToken } from '../../engine/auth';
import { isoTime } from '../../support/time';
import type { AppRecord } from './records';

export interface NewApp {
  name: string;
  userId: string;
  redirectUris: readonly string[];
  /** A native or single-page app: no secret, PKCE required. */
  public?: boolean;
}

export class AppInputError extends Error {}

/** Hosts of a native app's loopback redirect (RFC 8252 §7.3), as URL spells them. */
const loopbackHosts = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Why a redirect URI cannot be registered, or null: absolute, no fragment (RFC 6749 §3.1.2), and
 * https except on loopback or for a native app's own scheme (RFC 8252 §7.1).
 */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URI.`;
  }
  if (url.hash || uri.includes('#')) return `"${uri}" has a fragment, which a redirect URI may not have.`;
  if (url.protocol === 'http:' && !loopbackHosts.includes(url.hostname)) return `"${uri}" is http on a public host: use https.`;
  if (/^(javascript|data|vbscript|file):$/.test(url.protocol)) return `"${uri}" has a scheme a browser must not be sent to.`;
  return null;
}

/**
 * Whether `uri` is one of the app's registered redirect URIs: exactly (RFC 9700 §2.1: no
 * prefixes, no wildcards), except that a loopback URI may name any port, since a native app
 * listens on whichever one the system gives it (RFC 8252 §7.3). Everything but the port must match.
 */
export function redirectUriRegistered(registered: readonly string[], uri: string): boolean {
  if (registered.includes(uri)) return true;
  const given = parsed(uri);
  if (!given || given.protocol !== 'http:' || !loopbackHosts.includes(given.hostname) || given.username || given.password) return false;
  const anyPort = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  return registered.some((r) => {
    const url = parsed(r);
    return !!url && url.protocol === 'http:' && loopbackHosts.includes(url.hostname) && anyPort(url) === anyPort(given);
  });
}

const parsed = (uri: string): URL | null => {
  try {
    return new URL(uri);
  } catch {
    return null;
  }
};

/** Registers an app; the secret (null for a public app) is answered this once and only its hash kept. */
export async function createApp(store: Store, now: Date, input: NewApp): Promise<{ app: AppRecord; secret: string | null }> {
  const name = input.name.trim();
  if (!name || name.length > 256) throw new AppInputError('An app name is 1 to 256 characters.');
  if (!input.redirectUris.length) throw new AppInputError('An app needs at least one redirect URI.');
  for (const uri of input.redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new AppInputError(problem);
  }
  const secret = input.public ? null : newToken();
  const app = await store.insert<AppRecord>('apps', {
    client_id: randomBytes(20).toString('hex'),
    secret_hash: secret === null ? null : hashToken(secret),
    name,
    user_id: input.userId,
    redirect_uris: [...new Set(input.redirectUris)],
    created_time: isoTime(now),
  });
  return { app, secret };
}

/** Deletes an app with every token and code issued to it; answers how many tokens were revoked, or null when there was no such app. */
export const deleteApp = (store: Store, id: string): Promise<number | null> =>
  store.transaction(async (tx) => {
    if (!(await tx.delete('apps', id))) return null;
    await tx.deleteWhere('oauth_codes', eq('app_id', id));
    return tx.deleteWhere('tokens', eq('app_id', id));
  });

export const appByClientId = (store: Store, clientId: string): Promise<AppRecord | null> =>
  clientId.length > 0 && clientId.length <= 100 ? store.findOne<AppRecord>('apps', eq('client_id', clientId)) : Promise.resolve(null);

/** True when `secret` is the app's, compared in constant time over the hashes. */
export function secretMatches(app: AppRecord, secret: string): boolean {
  if (app.secret_hash === null) return false;
  return timingSafeEqual(Buffer.from(hashToken(secret)), Buffer.from(app.secret_hash));
}

export const isPublicApp = (app: AppRecord): boolean => app.secret_hash === null;

/** The hosted API's api-app shape, as the `auth` answer embeds it. */
export const representApp = (app: AppRecord): { name: string; uri: string } => ({ name: app.name, uri: `/apps/${app.id}` });
