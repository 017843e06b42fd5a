import type { Store } from '../../store/store';
import { lt } from '../../store/filters';
import { hashToken, newToken, type TokenRecord } from '../../engine/auth';
import type { Reply } from '../../engine/operation';
import { appScopes, isScope, type Scope } from '../../engine/scopes';
import { isoTime } from '../../support/time';
import type { UserRecord } from '../../records';
import type { AppRecord } from './records';

/**
 * The scopes an app asks for: words separated by spaces or `+` (a form-encoded space some clients
 * encode twice), unknown words ignored (vimeo.py sends a scope string letter by letter), none
 * meaning `public`. `public` is always among them; the operator's scopes are never granted to an app.
 */
export function askedScopes(scope: string | undefined): Scope[] {
  const words = (scope ?? '').split(/[\s+,]+/).filter(isScope);
  return appScopes.filter((s) => s === 'public' || words.includes(s));
}

export interface NewGrantToken {
  app: AppRecord;
  user: UserRecord | null;
  scopes: Scope[];
  codeId?: string;
}

/** Issues a token to an app (for a user, or for itself); answered once, stored as its hash. Expired tokens go meanwhile (they have no other owner). */
export async function issueToken(store: Store, now: Date, ttlSeconds: number | null, grant: NewGrantToken): Promise<{ token: string; record: TokenRecord }> {
  await store.deleteWhere('tokens', lt('expires_time', isoTime(now)));
  const token = newToken();
  const record = await store.insert<TokenRecord>('tokens', {
    id: hashToken(token),
    user_id: grant.user?.id ?? null,
    scopes: grant.scopes,
    created_time: isoTime(now),
    app_id: grant.app.id,
    expires_time: ttlSeconds === null ? null : isoTime(new Date(now.getTime() + ttlSeconds * 1000)),
    code_id: grant.codeId ?? null,
  });
  return { token, record };
}

/** 200 with `auth`; never stored by a cache (RFC 6749 §5.1). */
export const authReply = (body: Record<string, unknown>): Reply => ({ status: 200, body, kind: 'auth', headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } });
