import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/store';
import { isShared } from '../store/copy-json';
import { GenerationMemory } from '../store/generation-memory';
import { keep } from '../support/remembered';
import type { UserRecord } from '../records';
import { unauthorized } from './errors';
import type { Scope } from './scopes';

/**
 * Who is calling: a user with the scopes of their token, or an anonymous viewer with `public`
 * (as is an app's own token, from client credentials: it has no user).
 */
export interface Principal {
  /**
   * Whom the operation reads and acts as. A read whose private answers need scopes the token
   * lacks reads as anybody would: null here, while `self` still names the token's user
   * (engine/read-as.ts).
   */
  user: UserRecord | null;
  /** The token's user, whatever the operation reads as: whose `/me` it is. */
  self: UserRecord | null;
  scopes: ReadonlySet<Scope>;
}

export type TokenRecord = {
  /** SHA-256 of the token: the token itself is never stored. */
  id: string;
  /** Null for an app's own token (client credentials). */
  user_id: string | null;
  scopes: Scope[];
  created_time: string;
  /** The app (its record id) the token was issued to; absent or null for a personal token (`reelbase tokens create`). */
  app_id?: string | null;
  /** When it stops working (REELBASE_TOKEN_TTL); absent or null: never. */
  expires_time?: string | null;
  /** The hash of the authorization code it was exchanged for: a second use of the code revokes it. */
  code_id?: string | null;
};

export const anonymous: Principal = { user: null, self: null, scopes: new Set<Scope>(['public']) };

// The one-shot hash: a Hash object per request cost a token read a few microseconds.
export const hashToken = (token: string): string => hash('sha256', token);

/**
 * The hashes of the tokens presented lately: even one-shot, hashing is a native call costing a
 * read with a token microseconds, and a client presents the same token on every request. A hash
 * never changes, so what this remembers is never stale; revoking deletes the stored record, which
 * is looked up again after every commit (identify). Bounded, oldest out, so memory stays small.
 */
const recentHashes = new Map<string, string>();
const MAX_RECENT_HASHES = 4096;

function presentedHash(token: string): string {
  let known = recentHashes.get(token);
  if (known === undefined) keep(recentHashes, token, (known = hashToken(token)), MAX_RECENT_HASHES);
  return known;
}

/** The principal of a token record and its user, while both are the same shared documents: its scopes are a set made once. */
const principals = new WeakMap<TokenRecord, { user: UserRecord | null; principal: Principal }>();

function principalOfRecord(record: TokenRecord, user: UserRecord | null): Principal {
  const known = principals.get(record);
  if (known && known.user === user) return known.principal;
  const principal: Principal = { user, self: user, scopes: new Set(record.scopes) };
  if (isShared(record) && (user === null || isShared(user))) principals.set(record, { user, principal });
  return principal;
}

/**
 * 256 random bits, base64url. Never with a leading '-': a command line reads such a word as an
 * option (`reelbase tokens revoke -x…` failed for one token in 64); redrawing costs under 0.03 bits.
 */
export function newToken(): string {
  for (;;) {
    const token = randomBytes(32).toString('base64url');
    if (!token.startsWith('-')) return token;
  }
}

/** `Bearer abc` (scheme case-insensitive) → `abc`; undefined when no header; '' when malformed. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
  return m ? m[1] : '';
}

/**
 * A presented token resolved: the caller and the hash of its token (null for an anonymous caller),
 * or why the token was refused. Refusal becomes a 401 only once the operation is known, because
 * the 401 code depends on it.
 */
/** `app`: the app the token was issued to (its record id), for logs; absent for personal tokens and anonymous callers. */
export type Identity = { principal: Principal; tokenHash: string | null; expires?: number; app?: string | null } | { refused: string };

export const anonymousIdentity: Identity = { principal: anonymous, tokenHash: null };

/**
 * Looks a presented token up: malformed, unknown, revoked, or whose user is gone → refused. A store
 * that offers a generation (Store.generation) moves it with every commit, its own or another
 * process's: until it moves, the token's record and its user are what they were, so the identity
 * read at that generation is answered again without reading them, and without a promise: a
 * token read's caller is known in the same microtask.
 */
export function identify(store: Store, token: string | undefined, now: Date): Identity | Promise<Identity> {
  if (token === undefined) return anonymousIdentity;
  const known = identities.known(store, store, token);
  if (known) return unexpired(known, now);
  return identities.get(store, store, token, () => lookUp(store, token)).then((identity) => unexpired(identity, now));
}

// Time moves without a commit: expiry is checked on every request, remembered or not.
const unexpired = (identity: Identity, now: Date): Identity =>
  'expires' in identity && identity.expires !== undefined && identity.expires <= now.getTime() ? expired : identity;

const expired: Identity = { refused: 'The access token has expired.' };

/** Per store, the identities of the tokens presented lately, as many as their hashes. */
const identities = new GenerationMemory<Identity>(MAX_RECENT_HASHES);

async function lookUp(store: Store, token: string): Promise<Identity> {
  const hash = presentedHash(token);
  const record = token ? await store.get<TokenRecord>('tokens', hash) : null;
  // The lookup is by hash; compare again in constant time so equality never leaks through timing
  // (once per shared record: its id cannot change, and it was found by this hash).
  if (!record || (!principals.has(record) && !timingSafeEqual(Buffer.from(record.id), Buffer.from(hash)))) {
    return { refused: 'The access token is missing, malformed, unknown or revoked.' };
  }
  const user = record.user_id === null ? null : await store.get<UserRecord>('users', record.user_id);
  if (record.user_id !== null && !user) return { refused: 'The user of this access token no longer exists.' };
  // Deleting an app deletes its tokens; a token whose app is gone all the same is refused.
  if (record.app_id && !(await store.get('apps', record.app_id))) return { refused: 'The app of this access token no longer exists.' };
  const expires = record.expires_time ? Date.parse(record.expires_time) : undefined;
  return { principal: principalOfRecord(record, user), tokenHash: hash, app: record.app_id ?? null, ...(expires !== undefined ? { expires } : {}) };
}

/** The caller of an identity, or the operation's 401 (`invalidCode`) for a refused token. */
export function principalOf(identity: Identity, invalidCode: number): Principal {
  if ('refused' in identity) throw unauthorized(invalidCode, identity.refused);
  return identity.principal;
}
