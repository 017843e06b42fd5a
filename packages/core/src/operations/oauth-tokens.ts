import { bearerToken, hashToken, type TokenRecord } from '../engine/auth';
import { ApiError, codes, notFound } from '../engine/errors';
import { noContent, ok, operation, type Context } from '../engine/operation';
import type { AppRecord } from '../domain/identity/records';
import { authReply } from '../domain/identity/grants';
import { authBody } from './auth-body';
import { representApp } from '../domain/identity/apps';
import { findById } from '../domain/lookup';
import type { UserRecord } from '../records';

/** The presented token and its record; the engine has refused an unknown, revoked or expired one already. */
async function presented(ctx: Context<unknown>): Promise<{ token: string; record: TokenRecord }> {
  const token = bearerToken(ctx.request.headers.authorization);
  const record = token ? await ctx.store.get<TokenRecord>('tokens', hashToken(token)) : null;
  if (!token || !record) {
    throw new ApiError(401, codes.invalidCredentials, 'You must provide a valid authenticated access token.', 'This needs the access token it is about.', undefined, {
      'WWW-Authenticate': 'Bearer error="invalid_token"',
    });
  }
  return { token, record };
}

export const verifyToken = operation({
  id: 'oauth.verify',
  summary:
    'Extension (the hosted API has it): the presented access token as the `auth` shape — its scopes, its app (null for a personal token) and its user (none for an app’s own token); 401 `{error}` for a missing, unknown, revoked or expired one',
  method: 'GET',
  paths: ['/oauth/verify'],
  errorShape: 'legacy',
  async handle(ctx) {
    const { token, record } = await presented(ctx);
    const app = record.app_id ? await ctx.store.get<AppRecord>('apps', record.app_id) : null;
    const user = record.user_id ? await ctx.store.get<UserRecord>('users', record.user_id) : null;
    return authReply(await authBody(ctx, token, record, app, user));
  },
});

export const revokePresentedToken = operation({
  id: 'tokens.delete',
  summary: 'Extension (the hosted API has it): revoke the presented access token; its next use is 401 (8003)',
  method: 'DELETE',
  paths: ['/tokens'],
  errorShape: 'legacy',
  async handle(ctx) {
    const { record } = await presented(ctx);
    await ctx.store.delete('tokens', record.id);
    return noContent();
  },
});

export const getApp = operation({
  id: 'apps.get',
  summary: 'Extension (the hosted API’s `auth` answer links its app): an app’s name and uri',
  method: 'GET',
  paths: ['/apps/{app_id}'],
  async handle(ctx) {
    const app = await findById<AppRecord>(ctx.store, 'apps', ctx.path.app_id);
    if (!app) throw notFound('app');
    return ok(representApp(app), null);
  },
});

export const oauthTokenOperations = [verifyToken, revokePresentedToken, getApp];
