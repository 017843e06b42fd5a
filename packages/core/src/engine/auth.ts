import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/store';
import type { UserRecord } from '../records';
import { unauthorized } from './errors';
import type { Scope } from './scopes';

/** Who is calling: a user with the scopes of their token, or an anonymous viewer with `public`. */
export interface Principal {
  user: UserRecord | null;
  scopes: ReadonlySet<Scope>;
}

export type TokenRecord = {
  /** SHA-256 of the token: the token itself is never stored. */
  id: string;
  user_id: string;
  scopes: Scope[];
  created_time: string;
};

export const anonymous: Principal = { user: null, scopes: new Set<Scope>(['public']) };

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export const newToken = (): string => randomBytes(32).toString('base64url');

/** `Bearer abc` (scheme case-insensitive) → `abc`; undefined when no header; '' when malformed. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
  return m ? m[1] : '';
}

/** Resolves a presented token; a token that is malformed, unknown or whose user is gone → 401. */
export async function authenticate(store: Store, token: string | undefined, invalidCode: number): Promise<Principal> {
  if (token === undefined) return anonymous;
  const hash = hashToken(token);
  const record = token ? await store.get<TokenRecord>('tokens', hash) : null;
  // The lookup is by hash; compare again in constant time so equality never leaks through timing.
  if (!record || !timingSafeEqual(Buffer.from(record.id), Buffer.from(hash))) {
    throw unauthorized(invalidCode, 'The access token is missing, malformed, unknown or revoked.');
  }
  const user = await store.get<UserRecord>('users', record.user_id);
  if (!user) throw unauthorized(invalidCode, 'The user of this access token no longer exists.');
  return { user, scopes: new Set(record.scopes) };
}
