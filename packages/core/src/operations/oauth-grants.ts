import { object, optional, string } from 'superstruct';
import { OAuthError } from '../engine/errors';
import { operation, type Context, type Reply } from '../engine/operation';
import { hashToken } from '../engine/auth';
import { authenticateClient } from '../domain/identity/client-auth';
import { authReply, issueToken } from '../domain/identity/grants';
import { authBody } from './auth-body';
import { isPublicApp } from '../domain/identity/apps';
import { verifierMatches } from '../domain/identity/pkce';
import type { CodeRecord } from '../domain/identity/records';
import type { UserRecord } from '../records';
import { eq } from '../store/filters';

/**
 * The OAuth 2 token endpoints as the hosted API has them and its SDKs call them (issue 35):
 * extensions, since SPEC.md does not say how tokens are obtained. The app authenticates with HTTP
 * Basic; every answer, errors included, is JSON (RFC 6749 §5).
 */

const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);
const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description);

function grantTypeIs(given: string | undefined, expected: string): void {
  if (given === undefined || given === '') throw invalidRequest(`grant_type is missing: this endpoint takes "${expected}".`);
  if (given !== expected) throw new OAuthError(400, 'unsupported_grant_type', `This endpoint takes grant_type "${expected}", not "${given}".`);
}

const clientParams = { client_id: optional(string()), client_secret: optional(string()) };

export const clientCredentials = operation({
  id: 'oauth.client',
  summary:
    'Extension (SPEC.md does not say how tokens are obtained; the hosted API has it): an app’s own token (client credentials, HTTP Basic client_id:client_secret); it holds `public` only and reads as an anonymous viewer',
  method: 'POST',
  paths: ['/oauth/authorize/client'],
  credentials: 'client',
  errorShape: 'oauth',
  secretBody: true,
  params: object({ grant_type: optional(string()), scope: optional(string()), ...clientParams }),
  async handle(ctx) {
    const app = await authenticateClient(ctx);
    grantTypeIs(ctx.params.grant_type, 'client_credentials');
    if (isPublicApp(app)) throw new OAuthError(400, 'unauthorized_client', 'A public app has no secret to prove itself with: it gets tokens through a person (authorization_code with PKCE).');
    // No person granted anything: whatever was asked, the token reads only what anybody may.
    const { token, record } = await issueToken(ctx.store, ctx.now(), ctx.config.tokenTtlSeconds, { app, user: null, scopes: ['public'] });
    return authReply(await authBody(ctx, token, record, app, null));
  },
});

type ExchangeParams = { grant_type?: string; code?: string; redirect_uri?: string; code_verifier?: string; client_id?: string; client_secret?: string };

export const exchangeCode = operation({
  id: 'oauth.access_token',
  summary:
    'Extension (SPEC.md does not say how tokens are obtained; the hosted API has it): exchange an authorization code for a user’s token (HTTP Basic client credentials; a public app sends client_id and its PKCE code_verifier). A code works once, for 10 minutes; a second use, or one with another app’s credentials, another redirect_uri or a wrong PKCE verifier, spends it and revokes what any use gave',
  method: 'POST',
  paths: ['/oauth/access_token'],
  credentials: 'client',
  errorShape: 'oauth',
  secretBody: true,
  params: object({ grant_type: optional(string()), code: optional(string()), redirect_uri: optional(string()), code_verifier: optional(string()), ...clientParams }),
  async handle(ctx) {
    const app = await authenticateClient(ctx);
    const p = ctx.params;
    grantTypeIs(p.grant_type, 'authorization_code');
    if (!p.code) throw invalidRequest('code is missing.');
    const code = await ctx.store.get<CodeRecord>('oauth_codes', hashToken(p.code));
    if (!code) throw invalidGrant('The authorization code is unknown, expired or used.');
    if (code.used_time !== null) return burn(ctx, code, 'The authorization code is unknown, expired or used.');
    if (Date.parse(code.expires_time) <= ctx.now().getTime()) throw invalidGrant('The authorization code is unknown, expired or used.');
    const refusal = exchangeRefusal(code, app.id, p);
    if (refusal) return burn(ctx, code, refusal);
    const user = await ctx.store.get<UserRecord>('users', code.user_id);
    if (!user) throw invalidGrant('The user who granted this code no longer exists.');
    await ctx.store.update<CodeRecord>('oauth_codes', code.id, { used_time: ctx.now().toISOString() });
    const { token, record } = await issueToken(ctx.store, ctx.now(), ctx.config.tokenTtlSeconds, { app, user, scopes: code.scopes, codeId: code.id });
    return authReply(await authBody(ctx, token, record, app, user));
  },
});

/** Why this exchange of a live, unused code is refused (the code is another app's, or the request is not the one it answers), or null. */
function exchangeRefusal(code: CodeRecord, appId: string, p: ExchangeParams): string | null {
  if (code.app_id !== appId) return 'The authorization code was issued to another app.';
  if (p.redirect_uri !== undefined ? p.redirect_uri !== code.redirect_uri : code.redirect_uri_sent) return 'redirect_uri differs from the one in the authorization request.';
  if (code.code_challenge !== null) {
    if (!p.code_verifier) return 'code_verifier is missing: the authorization request sent a PKCE challenge.';
    if (!verifierMatches(p.code_verifier, code.code_challenge)) return 'code_verifier does not match the PKCE challenge.';
  } else if (p.code_verifier !== undefined) return 'code_verifier was sent, but the authorization request sent no PKCE challenge.';
  return null;
}

/**
 * A code used again, or presented by the wrong app or without its verifier: somebody else may
 * hold it, so it is spent and what a first use gave is revoked (RFC 6749 §4.1.2); a failed
 * check leaves no code for another guess. Answered, not thrown, so the burning commits with the
 * refusal.
 */
async function burn(ctx: Context<ExchangeParams>, code: CodeRecord, description: string): Promise<Reply> {
  if (code.used_time === null) await ctx.store.update<CodeRecord>('oauth_codes', code.id, { used_time: ctx.now().toISOString() });
  await ctx.store.deleteWhere('tokens', eq('code_id', code.id));
  return {
    status: 400,
    kind: 'auth',
    headers: { 'Cache-Control': 'private, no-store, no-cache' },
    body: { error: 'invalid_grant', error_description: description },
  };
}

export const grantOperations = [clientCredentials, exchangeCode];
