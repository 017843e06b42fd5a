import { randomBytes } from 'node:crypto';
import type { LinkSigner } from '../../media/link-signer';
import { normaliseEmail } from './accounts';
import { cookieValue } from './sessions';

/**
 * OWASP's "device cookies": a browser where a person has signed in holds a cookie naming their
 * account, signed with the store's key (any server on the database checks it). Sign-ins from that
 * browser are limited on their own count, not the account's, so failures from elsewhere cannot
 * lock its owner out; its own failures lock only it. The cookie is given where a signed-in browser
 * lands (the consent page), so the sign-in answer keeps its single Set-Cookie.
 */
export const deviceCookieName = 'reelbase_device';
const deviceSeconds = 180 * 24 * 3600;

const subject = (email: string, nonce: string) => `device-cookie\u0000${normaliseEmail(email)}\u0000${nonce}`;

/** The device's id when the Cookie header holds a valid device cookie for `email`, or null. */
export function deviceOf(links: LinkSigner, header: string | undefined, email: string): string | null {
  const [nonce, signature] = (cookieValue(header, deviceCookieName) ?? '').split('.');
  return nonce && signature && links.verify(subject(email, nonce), signature) ? nonce : null;
}

/** Set-Cookie for a new device cookie of `email` (Secure when the page is served over https). */
export function deviceCookie(links: LinkSigner, email: string, baseUrl: string): string {
  const nonce = randomBytes(16).toString('base64url');
  const secure = baseUrl.startsWith('https:') ? '; Secure' : '';
  return `${deviceCookieName}=${nonce}.${links.sign(subject(email, nonce))}; Path=/oauth; HttpOnly; SameSite=Lax${secure}; Max-Age=${deviceSeconds}`;
}
