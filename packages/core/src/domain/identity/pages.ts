import type { Reply } from '../../engine/operation';
import type { Scope } from '../../engine/scopes';
import { escapeHtml } from '../../support/html';
import { inlineSource, pageHeaders } from '../../support/page-security';
import { authorizeParamNames, authorizeQuery, type AuthorizeParams } from './authorize-request';

/**
 * The sign-in, sign-up and consent pages: plain server-rendered forms that work without script,
 * under a CSP that allows their one inline style and nothing else (no script at all), and that
 * nobody may frame (a framed consent button invites clickjacking).
 */
const style =
  'body{font:16px system-ui,sans-serif;max-width:30rem;margin:3rem auto;padding:0 1rem;color:#222}form{display:grid;gap:.75rem;margin:1rem 0}' +
  'label{display:grid;gap:.25rem}input{font:inherit;padding:.4rem}button{font:inherit;padding:.5rem 1rem}.error{color:#a00}.row{display:flex;gap:1rem}';

/** What each scope lets an app do, in words a person reads on the consent page. */
const scopeWords: Record<Scope, string> = {
  public: 'see what anybody may see, and nothing more of yours',
  private:
    'see what you see: your private, unlisted and password-protected videos, albums, channels, groups and folders, what others share with you, your feed, watch history and watch later',
  create: 'create channels, groups, albums and projects as you',
  edit: 'change your videos, albums, channels and the rest',
  delete: 'delete your videos, albums, channels and the rest',
  interact: 'follow, like, comment, subscribe and join as you',
  upload: 'upload videos, pictures and text tracks as you',
  purchased: 'see your On Demand purchases',
  promo_codes: 'manage your On Demand promotions',
  video_files: 'download the source files of your videos, whatever their privacy',
  stats: 'see your videos’ statistics',
  email: 'see your email address',
  webhooks: 'register webhooks that receive your videos’ events, and read their signing secrets',
  admin: 'administer this server’s background jobs (never asked by an app)',
};

function page(title: string, body: string, formAction: string[], status = 200, extra: Record<string, string> = {}): Reply {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${style}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>
`;
  const headers = pageHeaders({ 'style-src': [inlineSource(style)], 'form-action': formAction, 'frame-ancestors': ["'none'"] });
  return { status, html, headers: { 'Cache-Control': 'private, no-store', ...headers, ...extra } };
}

const hidden = (name: string, value: string): string => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

const carried = (params: AuthorizeParams): string =>
  authorizeParamNames
    .filter((n) => params[n] !== undefined)
    .map((n) => hidden(n, params[n]!))
    .join('');

const problem = (message: string | undefined): string => (message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : '');

export interface SignInPage {
  params: AuthorizeParams;
  csrf: string;
  appName: string;
  error?: string;
  signUp: boolean;
  email?: string;
}

export function signInPage(p: SignInPage, status = 200, extra: Record<string, string> = {}): Reply {
  const signUp = p.signUp ? `<p>No account? <a href="/oauth/sign_up?${escapeHtml(authorizeQuery(p.params))}">Sign up</a></p>` : '';
  return page(
    'Sign in',
    `<p>Sign in to continue to ${escapeHtml(p.appName)}.</p>${problem(p.error)}
<form method="post" action="/oauth/sign_in">${hidden('csrf_token', p.csrf)}${carried(p.params)}
<label>Email <input type="email" name="email" autocomplete="username" required value="${escapeHtml(p.email ?? '')}"></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form>${signUp}`,
    ["'self'"],
    status,
    extra,
  );
}

export function signUpPage(p: SignInPage, status = 200, extra: Record<string, string> = {}): Reply {
  return page(
    'Sign up',
    `<p>Make an account to continue to ${escapeHtml(p.appName)}.</p>${problem(p.error)}
<form method="post" action="/oauth/sign_up">${hidden('csrf_token', p.csrf)}${carried(p.params)}
<label>Name <input name="name" autocomplete="name" required maxlength="256"></label>
<label>Email <input type="email" name="email" autocomplete="username" required value="${escapeHtml(p.email ?? '')}"></label>
<label>Password <input type="password" name="password" autocomplete="new-password" required minlength="8"></label>
<button type="submit">Sign up</button></form>`,
    ["'self'"],
    status,
    extra,
  );
}

export interface ConsentPage {
  params: AuthorizeParams;
  csrf: string;
  appName: string;
  ownerName: string;
  userName: string;
  scopes: readonly Scope[];
  /** Where the decision's answer redirects: the form may lead there. */
  redirectSource: string[];
}

export function consentPage(p: ConsentPage, extra: Record<string, string> = {}): Reply {
  const asks = p.scopes.map((s) => `<li><strong>${s}</strong>: ${escapeHtml(scopeWords[s])}</li>`).join('');
  return page(
    `Allow ${p.appName}?`,
    `<p><strong>${escapeHtml(p.appName)}</strong>, an app of ${escapeHtml(p.ownerName)}, asks to act as you, ${escapeHtml(p.userName)}. It could:</p>
<ul>${asks}</ul>
<form method="post" action="/oauth/authorize">${hidden('csrf_token', p.csrf)}${carried(p.params)}
<div class="row"><button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny">Deny</button></div></form>
<form method="post" action="/oauth/sign_out">${hidden('csrf_token', p.csrf)}${carried(p.params)}<p>Not ${escapeHtml(p.userName)}? <button type="submit">Sign out</button></p></form>`,
    ["'self'", ...p.redirectSource],
    200,
    extra,
  );
}

/** A request that cannot go on and must not be sent anywhere: said on a page, with no Location. */
export const errorPage = (message: string, status: number): Reply => page('This link does not work', `<p class="error" role="alert">${escapeHtml(message)}</p>`, ["'none'"], status);
