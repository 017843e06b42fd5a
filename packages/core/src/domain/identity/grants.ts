import type { Store } from '../../store/store';
import { lt } from '../../store/filters';
import { hashToken, newToken, type TokenRecord } from '../../engine/auth';
import type { Context, Reply } from '../../engine/operation';
import { appScopes, isScope, type Scope } from '../../engine/scopes';
import { isoTime } from '../../support/time';
import type { UserRecord } from '../../records';
import { representUsers } from '../users';
import { representApp } from './apps';
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

/**
 * The hosted API's `auth` shape: the token, `bearer`, its scopes space-separated, its app (null
 * for a personal token, which has none), the User for a user's token (as the token reads them:
 * as that user sees themselves with `private`, as anybody does without), and `expires_on` (Unix seconds, as the published schema has it) when it expires.
 */
export async function authBody(ctx: Context<unknown>, token: string, record: TokenRecord, app: AppRecord | null, user: UserRecord | null): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {
    access_token: token,
    token_type: 'bearer',
    scope: record.scopes.join(' '),
    app: app ? representApp(app) : null,
  };
  if (user) body.user = (await representUsers({ ...ctx, principal: { user: record.scopes.includes('private') ? user : null, self: user, scopes: new Set(record.scopes) } }, [user]))[0];
  if (record.expires_time) body.expires_on = String(Math.floor(Date.parse(record.expires_time) / 1000));
  return body;
}

/** 200 with `auth`; never stored by a cache (RFC 6749 §5.1). */
export const authReply = (body: Record<string, unknown>): Reply => ({ status: 200, body, kind: 'auth', headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } });
