import type { Store } from '../../store/store';
import type { Scope } from '../../engine/scopes';
import { appByClientId, isPublicApp, redirectUriRegistered } from './apps';
import { askedScopes } from './grants';
import { challengeForm } from './pkce';
import type { AppRecord } from './records';

/** The parameters of an authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3), as the query or the forms carry them. */
export interface AuthorizeParams {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

export const authorizeParamNames = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

export interface AuthorizeRequest {
  app: AppRecord;
  redirectUri: string;
  redirectUriSent: boolean;
  scopes: Scope[];
  state: string | undefined;
  codeChallenge: string | null;
  params: AuthorizeParams;
}

/**
 * An authorization request checked: `refused` when the app or its redirect URI cannot be trusted
 * (shown on a page, never redirected to: no open redirect), `redirectError` when the redirect URI
 * is the app's own but the request is wrong (the app hears it there), `request` otherwise.
 */
export type CheckedAuthorize =
  | { refused: string }
  | { redirectError: { uri: string; error: string; description: string; state: string | undefined } }
  | { request: AuthorizeRequest };

export async function checkAuthorize(store: Store, params: AuthorizeParams): Promise<CheckedAuthorize> {
  const app = params.client_id ? await appByClientId(store, params.client_id) : null;
  if (!app) return { refused: 'This sign-in link names no app this server knows.' };
  const sent = params.redirect_uri !== undefined && params.redirect_uri !== '';
  const redirectUri = sent ? params.redirect_uri! : app.redirect_uris[0];
  if (!redirectUriRegistered(app.redirect_uris, redirectUri)) return { refused: `The app "${app.name}" has not registered the address this link would send you back to.` };
  const state = params.state;
  const fail = (error: string, description: string): CheckedAuthorize => ({ redirectError: { uri: redirectUri, error, description, state } });
  if (params.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be "code".');
  const challenge = params.code_challenge || null;
  if (challenge !== null) {
    if ((params.code_challenge_method ?? 'plain') !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256 (plain is refused).');
    if (!challengeForm.test(challenge)) return fail('invalid_request', 'code_challenge is not a base64url SHA-256.');
  } else if (isPublicApp(app)) return fail('invalid_request', 'A public app must send a PKCE code_challenge (S256).');
  return { request: { app, redirectUri, redirectUriSent: sent, scopes: askedScopes(params.scope), state, codeChallenge: challenge, params } };
}

/** The redirect URI with the answer's parameters added (RFC 6749 §4.1.2). */
export function redirectWith(uri: string, answer: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(answer)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** The query string that reproduces the request (after sign-in, the browser is sent back to it). */
export function authorizeQuery(params: AuthorizeParams): string {
  const q = new URLSearchParams();
  for (const name of authorizeParamNames) if (params[name] !== undefined) q.set(name, params[name]!);
  return q.toString();
}
