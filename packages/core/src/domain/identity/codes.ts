import type { Store } from '../../store/store';
import { lt } from '../../store/filters';
import { hashToken, newToken } from '../../engine/auth';
import { isoTime } from '../../support/time';
import type { AuthorizeRequest } from './authorize-request';
import type { CodeRecord } from './records';

/** How long an authorization code may be exchanged (RFC 6749 §4.1.2 recommends at most 10 minutes). */
export const codeSeconds = 600;

/**
 * A new authorization code for what `userId` allowed: random, stored as its hash, bound to the
 * app, the redirect URI, the user, the scopes and the PKCE challenge. Codes past their time go as
 * new ones are made (they have no other owner).
 */
export async function createCode(store: Store, now: Date, request: AuthorizeRequest, userId: string): Promise<string> {
  const code = newToken();
  await store.deleteWhere('oauth_codes', lt('expires_time', isoTime(now)));
  await store.insert<CodeRecord>('oauth_codes', {
    id: hashToken(code),
    app_id: request.app.id,
    user_id: userId,
    redirect_uri: request.redirectUri,
    redirect_uri_sent: request.redirectUriSent,
    scopes: request.scopes,
    code_challenge: request.codeChallenge,
    created_time: isoTime(now),
    expires_time: isoTime(new Date(now.getTime() + codeSeconds * 1000)),
    used_time: null,
  });
  return code;
}
