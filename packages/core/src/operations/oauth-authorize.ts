import { object, optional, string } from 'superstruct';
import { operation, type Context, type Reply } from '../engine/operation';
import { originSource } from '../domain/page-security';
import {
  authorizeQuery,
  checkAuthorize,
  redirectWith,
  type AuthorizeParams,
  type AuthorizeRequest,
  type CheckedAuthorize,
} from '../domain/identity/authorize-request';
import { createCode } from '../domain/identity/codes';
import { consentPage, errorPage, signInPage, signUpPage } from '../domain/identity/pages';
import { csrfToken, csrfValid, endSession, newBrowserValue, readSessionCookie, sessionCookie, signedInUser, startSession } from '../domain/identity/sessions';
import { accountByEmail, AccountInputError, createAccountUser } from '../domain/identity/accounts';
import { decoyHash, verifyPassword } from '../domain/identity/passwords';
import { signInCounts, signUpCounts, tryAgainIn } from '../domain/identity/sign-in-limit';
import { deviceCookie, deviceOf } from '../domain/identity/device-cookies';
import type { AccountRecord } from '../domain/identity/records';
import { releaseAttempts, reserveAttempt } from '../domain/attempt-limit';
import type { UserRecord } from '../records';

/**
 * The authorization endpoint and its pages (issue 35; extensions, since SPEC.md does not say how
 * tokens are obtained): a person signs in, sees what the app asks, and allows or denies. Every
 * form carries a CSRF token bound to the browser's cookie; a post without it is 403.
 */

const authorizeFields = {
  response_type: optional(string()),
  client_id: optional(string()),
  redirect_uri: optional(string()),
  scope: optional(string()),
  state: optional(string()),
  code_challenge: optional(string()),
  code_challenge_method: optional(string()),
};
const formFields = { ...authorizeFields, csrf_token: optional(string()) };

/** The browser's cookie, and the Set-Cookie that gives it one when it has none yet. */
function browser(ctx: Context<unknown>): { cookie: string; setCookie: Record<string, string> } {
  const known = readSessionCookie(ctx.request.headers.cookie);
  if (known) return { cookie: known, setCookie: {} };
  const cookie = newBrowserValue();
  return { cookie, setCookie: { 'Set-Cookie': sessionCookie(cookie, ctx.baseUrl) } };
}

const redirect = (status: 302 | 303, location: string, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { Location: location, 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer', ...headers },
});

const backToAuthorize = (params: AuthorizeParams, headers: Record<string, string> = {}): Reply => redirect(303, `/oauth/authorize?${authorizeQuery(params)}`, headers);

/** What an unusable request answers: a page when it cannot be trusted, a redirect carrying the error when the app should hear it. */
function unusable(checked: Exclude<CheckedAuthorize, { request: AuthorizeRequest }>): Reply {
  if ('refused' in checked) return errorPage(checked.refused, 400);
  const { uri, error, description, state } = checked.redirectError;
  return redirect(302, redirectWith(uri, { error, error_description: description, state }));
}

/** 403 for a form post whose CSRF token is missing or not this browser's. */
const forgedForm = (): Reply => errorPage('This form is out of date or did not come from this site. Go back, reload the page and try again.', 403);

/** Where the consent form's answer may send the browser (CSP form-action covers the redirect). */
function redirectSource(uri: string): string[] {
  const origin = originSource(uri);
  return origin.length ? origin : [`${new URL(uri).protocol}`];
}

async function consent(ctx: Context<unknown>, request: AuthorizeRequest, user: UserRecord, cookie: string, setCookie: Record<string, string>): Promise<Reply> {
  const owner = await ctx.store.get<UserRecord>('users', request.app.user_id);
  return consentPage(
    {
      params: request.params,
      csrf: csrfToken(ctx.links, cookie),
      appName: request.app.name,
      ownerName: owner?.name ?? 'a former user',
      userName: user.name,
      scopes: request.scopes,
      redirectSource: redirectSource(request.redirectUri),
    },
    setCookie,
  );
}

export const authorizePage = operation({
  id: 'oauth.authorize',
  summary:
    'Extension (the hosted API’s authorization URL): the sign-in page (HTML), then the consent page naming the app, its owner and each scope asked; an unknown app or unregistered redirect_uri shows an error page and never redirects',
  method: 'GET',
  paths: ['/oauth/authorize'],
  params: object(authorizeFields),
  async handle(ctx) {
    const checked = await checkAuthorize(ctx.store, ctx.params);
    if (!('request' in checked)) return unusable(checked);
    const { cookie, setCookie } = browser(ctx);
    const user = await signedInUser(ctx.store, cookie, ctx.now());
    if (user) return consent(ctx, checked.request, user, cookie, { ...setCookie, ...(await deviceCookieFor(ctx, user)) });
    return signInPage({ params: ctx.params, csrf: csrfToken(ctx.links, cookie), appName: checked.request.app.name, signUp: ctx.config.signUp }, 200, setCookie);
  },
});

/** The Set-Cookie giving a signed-in browser its device cookie (device-cookies.ts), unless it holds a valid one for this account. */
async function deviceCookieFor(ctx: Context<unknown>, user: UserRecord): Promise<Record<string, string>> {
  const account = await ctx.store.get<AccountRecord>('accounts', user.id);
  if (!account || deviceOf(ctx.links, ctx.request.headers.cookie, account.email)) return {};
  return { 'Set-Cookie': deviceCookie(ctx.links, account.email, ctx.baseUrl) };
}

export const decide = operation({
  id: 'oauth.authorize.decide',
  summary: 'Extension: the consent form’s answer (decision=allow or deny): 302 to the redirect URI with `code` and `state`, or with `error=access_denied`',
  method: 'POST',
  paths: ['/oauth/authorize'],
  params: object({ ...formFields, decision: optional(string()) }),
  async handle(ctx) {
    const cookie = readSessionCookie(ctx.request.headers.cookie);
    if (!csrfValid(ctx.links, cookie, ctx.params.csrf_token)) return forgedForm();
    const checked = await checkAuthorize(ctx.store, ctx.params);
    if (!('request' in checked)) return unusable(checked);
    const user = await signedInUser(ctx.store, cookie, ctx.now());
    if (!user) return backToAuthorize(ctx.params);
    const { request } = checked;
    if (ctx.params.decision === 'deny') return redirect(302, redirectWith(request.redirectUri, { error: 'access_denied', state: request.state }));
    if (ctx.params.decision !== 'allow') return errorPage('The form was sent without a decision: go back and choose Allow or Deny.', 400);
    const code = await createCode(ctx.store, ctx.now(), request, user.id);
    return redirect(302, redirectWith(request.redirectUri, { code, state: request.state }));
  },
});

export const signIn = operation({
  id: 'oauth.sign_in',
  summary:
    'Extension: the sign-in form’s answer (email, password): 303 back to the authorization page, signed in; attempts are reserved before the password is checked and limited per account (per device for a browser holding the account’s device cookie) and per address, IPv6 by /64 (429 with Retry-After), with one message and one cost whether or not the email has an account',
  method: 'POST',
  paths: ['/oauth/sign_in'],
  params: object({ ...formFields, email: optional(string()), password: optional(string()) }),
  secretBody: true,
  // The password KDF takes tens of milliseconds: it runs outside any transaction.
  ownTransaction: true,
  async handle(ctx) {
    const cookie = readSessionCookie(ctx.request.headers.cookie);
    if (!csrfValid(ctx.links, cookie, ctx.params.csrf_token)) return forgedForm();
    const checked = await checkAuthorize(ctx.store, ctx.params);
    if (!('request' in checked)) return unusable(checked);
    const email = (ctx.params.email ?? '').slice(0, 254);
    const form = { params: pick(ctx.params), csrf: csrfToken(ctx.links, cookie!), appName: checked.request.app.name, signUp: ctx.config.signUp, email };
    const limit = ctx.config.signInLimit;
    const device = deviceOf(ctx.links, ctx.request.headers.cookie, email);
    // Reserved before the hash runs: a burst gets no more password checks than the limit.
    const reserved = await reserveAttempt(ctx.store, ctx.now(), limit.windowSeconds, signInCounts(limit, email, ctx.clientAddress, device));
    if ('retryAfter' in reserved) {
      return signInPage({ ...form, error: `Too many failed sign-ins. ${tryAgainIn(reserved.retryAfter)}` }, 429, { 'Retry-After': String(reserved.retryAfter) });
    }
    const account = email ? await accountByEmail(ctx.store, email) : null;
    // One KDF run whether or not the account exists: the answer's time tells nothing.
    const matches = await verifyPassword((ctx.params.password ?? '').slice(0, 1024), account?.password ?? (await decoyHash()));
    const user = matches && account ? await ctx.store.get<UserRecord>('users', account.id) : null;
    // A failure keeps its reservation: that is what it counts.
    if (!user) return signInPage({ ...form, error: 'Wrong email or password.' }, 400);
    await releaseAttempts(ctx.store, reserved.ids);
    const session = await ctx.store.transaction((tx) => startSession(tx, ctx.now(), user.id));
    return backToAuthorize(pick(ctx.params), { 'Set-Cookie': sessionCookie(session.cookie, ctx.baseUrl, session.maxAge) });
  },
});

export const signOut = operation({
  id: 'oauth.sign_out',
  summary: 'Extension: sign out of the sign-in pages (the session ends on every server); 303 back to the authorization page',
  method: 'POST',
  paths: ['/oauth/sign_out'],
  params: object(formFields),
  async handle(ctx) {
    const cookie = readSessionCookie(ctx.request.headers.cookie);
    if (!csrfValid(ctx.links, cookie, ctx.params.csrf_token)) return forgedForm();
    await endSession(ctx.store, cookie!);
    return backToAuthorize(pick(ctx.params), { 'Set-Cookie': sessionCookie(newBrowserValue(), ctx.baseUrl) });
  },
});

export const signUpForm = operation({
  id: 'oauth.sign_up.page',
  summary: 'Extension: the sign-up page (name, email, password), when the operator opened sign-up (REELBASE_SIGNUP=open); 404 otherwise',
  method: 'GET',
  paths: ['/oauth/sign_up'],
  params: object(authorizeFields),
  async handle(ctx) {
    if (!ctx.config.signUp) return errorPage('This server does not take sign-ups: ask its operator for an account.', 404);
    const checked = await checkAuthorize(ctx.store, ctx.params);
    if (!('request' in checked)) return unusable(checked);
    const { cookie, setCookie } = browser(ctx);
    return signUpPage({ params: ctx.params, csrf: csrfToken(ctx.links, cookie), appName: checked.request.app.name, signUp: true }, 200, setCookie);
  },
});

export const signUp = operation({
  id: 'oauth.sign_up',
  summary:
    'Extension: the sign-up form’s answer: a new user with that email and password, signed in, 303 back to the authorization page; every submission counts against its address (IPv6 by /64), and so does each account made (429 with Retry-After)',
  method: 'POST',
  paths: ['/oauth/sign_up'],
  params: object({ ...formFields, name: optional(string()), email: optional(string()), password: optional(string()) }),
  secretBody: true,
  ownTransaction: true,
  async handle(ctx) {
    if (!ctx.config.signUp) return errorPage('This server does not take sign-ups: ask its operator for an account.', 404);
    const cookie = readSessionCookie(ctx.request.headers.cookie);
    if (!csrfValid(ctx.links, cookie, ctx.params.csrf_token)) return forgedForm();
    const checked = await checkAuthorize(ctx.store, ctx.params);
    if (!('request' in checked)) return unusable(checked);
    const { name = '', email = '', password = '' } = ctx.params;
    const form = { params: pick(ctx.params), csrf: csrfToken(ctx.links, cookie!), appName: checked.request.app.name, signUp: true, email };
    const limit = ctx.config.signUpLimit;
    const reserved = await reserveAttempt(ctx.store, ctx.now(), limit.windowSeconds, signUpCounts(limit, ctx.clientAddress));
    if ('retryAfter' in reserved) {
      return signUpPage({ ...form, error: `Too many sign-ups from this network. ${tryAgainIn(reserved.retryAfter)}` }, 429, { 'Retry-After': String(reserved.retryAfter) });
    }
    // Only an account made counts as one: a refused sign-up gives that reservation back (its attempt stays spent).
    const refused = async (message: string) => {
      await releaseAttempts(ctx.store, reserved.ids.slice(1));
      return signUpPage({ ...form, error: message }, 400);
    };
    if (!name.trim() || name.length > 256) return refused('A name is 1 to 256 characters.');
    let user: UserRecord;
    try {
      user = await createAccountUser(ctx.store, ctx.now(), { name: name.trim(), email, password }, ctx.config.defaultAccount);
    } catch (e) {
      if (e instanceof AccountInputError) return refused(e.message);
      throw e;
    }
    const session = await ctx.store.transaction((tx) => startSession(tx, ctx.now(), user.id));
    return backToAuthorize(pick(ctx.params), { 'Set-Cookie': sessionCookie(session.cookie, ctx.baseUrl, session.maxAge) });
  },
});

/** The authorization request's own parameters out of a form's. */
function pick(params: AuthorizeParams): AuthorizeParams {
  const { response_type, client_id, redirect_uri, scope, state, code_challenge, code_challenge_method } = params;
  return Object.fromEntries(Object.entries({ response_type, client_id, redirect_uri, scope, state, code_challenge, code_challenge_method }).filter(([, v]) => v !== undefined));
}

export const authorizeOperations = [authorizePage, decide, signIn, signOut, signUpForm, signUp];
