import type { Store } from '../../store/store';
import { lt } from '../../store/filters';
import { hashToken, newToken } from '../../engine/auth';
import type { LinkSigner } from '../../media/link-signer';
import { isoTime } from '../../support/time';
import type { UserRecord } from '../../records';
import type { SessionRecord } from './records';

/**
 * A browser on the sign-in pages carries one cookie, HttpOnly and SameSite=Lax, on /oauth only:
 * a random value, which is a signed-in session when the store holds a row for its hash (so every
 * server on one database honours it). Before sign-in it only anchors the forms' CSRF token; sign-in
 * replaces it (no session fixation) and sign-out deletes the row.
 */
export const sessionCookieName = 'reelbase_session';
const sessionSeconds = 14 * 24 * 3600;

/** The value of cookie `name` in a Cookie header, when it has a plausible one (url-safe characters and dots, 20 to 100). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eqAt = part.indexOf('=');
    if (eqAt > 0 && part.slice(0, eqAt).trim() === name) {
      const value = part.slice(eqAt + 1).trim();
      if (/^[A-Za-z0-9_.-]{20,100}$/.test(value)) return value;
    }
  }
  return undefined;
}

/** The session cookie's value from a Cookie header, when it has a plausible one. */
export const readSessionCookie = (header: string | undefined): string | undefined => {
  const value = cookieValue(header, sessionCookieName);
  return value && !value.includes('.') ? value : undefined;
};

/** Set-Cookie for `value` (Secure when the page is served over https); a session cookie when `maxAge` is undefined; 0 clears it. */
export function sessionCookie(value: string, baseUrl: string, maxAge?: number): string {
  const secure = baseUrl.startsWith('https:') ? '; Secure' : '';
  const age = maxAge === undefined ? '' : `; Max-Age=${maxAge}`;
  return `${sessionCookieName}=${value}; Path=/oauth; HttpOnly; SameSite=Lax${secure}${age}`;
}

export const newBrowserValue = newToken;

/** The CSRF token of the forms shown to the browser holding `cookie`: bound to it, checkable by any server on the store. */
export const csrfToken = (links: LinkSigner, cookie: string): string => links.sign(`oauth-csrf\u0000${cookie}`);

export const csrfValid = (links: LinkSigner, cookie: string | undefined, given: unknown): boolean =>
  cookie !== undefined && typeof given === 'string' && links.verify(`oauth-csrf\u0000${cookie}`, given);

/** The user signed in with `cookie`, or null (no row, expired, or the user is gone). */
export async function signedInUser(store: Store, cookie: string | undefined, now: Date): Promise<UserRecord | null> {
  if (!cookie) return null;
  const session = await store.get<SessionRecord>('sessions', hashToken(cookie));
  if (!session || Date.parse(session.expires_time) <= now.getTime()) return null;
  return store.get<UserRecord>('users', session.user_id);
}

/** Signs `userId` in: a new cookie value and its row; expired rows go at the same time (they have no other owner). */
export async function startSession(store: Store, now: Date, userId: string): Promise<{ cookie: string; maxAge: number }> {
  const cookie = newToken();
  await store.deleteWhere('sessions', lt('expires_time', isoTime(now)));
  await store.insert<SessionRecord>('sessions', {
    id: hashToken(cookie),
    user_id: userId,
    created_time: isoTime(now),
    expires_time: isoTime(new Date(now.getTime() + sessionSeconds * 1000)),
  });
  return { cookie, maxAge: sessionSeconds };
}

export const endSession = (store: Store, cookie: string): Promise<boolean> => store.delete('sessions', hashToken(cookie));
