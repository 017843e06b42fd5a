import type { Scope } from '../../engine/scopes';

/** An OAuth client (issue 35). Confidential apps hold a secret (only its SHA-256 is kept); public apps (native, single-page) have none and must use PKCE. */
export type AppRecord = {
  id: string;
  /** What the app presents (random, url-safe); the numeric id is its uri's. */
  client_id: string;
  /** SHA-256 (hex) of the client secret; null for a public app. */
  secret_hash: string | null;
  name: string;
  /** The user who registered it. */
  user_id: string;
  /** Exact-match redirect URIs; the first is used when an authorization request names none. */
  redirect_uris: string[];
  created_time: string;
};

/** A password as stored: the KDF's parameters and salt beside the hash, so they can be raised later. */
export type PasswordHash = {
  algorithm: 'scrypt';
  /** scrypt cost (N), block size (r), parallelism (p). */
  N: number;
  r: number;
  p: number;
  /** base64 */
  salt: string;
  /** base64 */
  hash: string;
};

/** A user's sign-in: their email (lower-cased, unique) and password; `id` is the user's id. */
export type AccountRecord = {
  id: string;
  email: string;
  password: PasswordHash;
  created_time: string;
  modified_time: string;
};

/** A signed-in browser: `id` is the SHA-256 of its cookie. */
export type SessionRecord = {
  id: string;
  user_id: string;
  created_time: string;
  expires_time: string;
};

/** An authorization code: `id` is its SHA-256. Bound to everything the exchange must match. */
export type CodeRecord = {
  id: string;
  app_id: string;
  user_id: string;
  redirect_uri: string;
  /** Whether the authorization request named `redirect_uri`: then the exchange must name it too (RFC 6749 §4.1.3). */
  redirect_uri_sent: boolean;
  scopes: Scope[];
  /** PKCE S256 challenge, or null when the (confidential) app sent none. */
  code_challenge: string | null;
  created_time: string;
  expires_time: string;
  /** Set by its first exchange; a second is refused and revokes what the first gave. */
  used_time: string | null;
};

/**
 * One attempt counted by a limit (attempt-limit.ts): a failed or in-flight sign-in (`account:<email>`,
 * `device:<id>`, `address:<ip or /64>`), a sign-up (`sign-up:<ip>`, `account-made:<ip>`) or a
 * video or album password guess (`password:video:<id>:<ip>`).
 */
export type SignInFailureRecord = {
  id: string;
  key: string;
  created_time: string;
};
