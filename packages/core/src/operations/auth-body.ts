import type { TokenRecord } from '../engine/auth';
import type { Context } from '../engine/operation';
import type { UserRecord } from '../records';
import { representApp } from '../domain/identity/apps';
import type { AppRecord } from '../domain/identity/records';
import { representUsers } from './represent-users';

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
