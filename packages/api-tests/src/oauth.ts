import { createHash, randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { createAccountUser, createApp, type AppRecord, type UserRecord } from '@reelbase/core';
import type { Harness } from './harness';

/** Helpers for the OAuth tests (issue 35): apps, accounts, and a browser that walks the sign-in pages with plain HTTP. */

export interface TestApp {
  app: AppRecord;
  clientId: string;
  /** null for a public app. */
  secret: string | null;
  redirectUri: string;
}

export async function registerApp(h: Harness, owner: UserRecord, o: { name?: string; public?: boolean; redirectUris?: string[] } = {}): Promise<TestApp> {
  const redirectUris = o.redirectUris ?? ['https://app.example/callback'];
  const { app, secret } = await createApp(h.service.store, h.clock.now(), { name: o.name ?? 'Example App', userId: owner.id, redirectUris, public: o.public });
  return { app, clientId: app.client_id, secret, redirectUri: redirectUris[0] };
}

export const account = (h: Harness, name: string, email: string, password: string): Promise<UserRecord> =>
  createAccountUser(h.service.store, h.clock.now(), { name, email, password });

export const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** A PKCE verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface PageAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * A browser without script: one cookie jar for the server, redirects not followed (tests look at
 * each); `headers` go with every request (X-Forwarded-For, to a server that trusts its proxy);
 * `send` in place of fetch reaches a server fetch cannot (TLS with a test certificate).
 */
export class FormBrowser {
  cookies = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
    private readonly send: typeof fetch = fetch,
  ) {}

  private remember(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }

  private cookieHeader(): Record<string, string> {
    return { ...this.headers, ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}) };
  }

  async get(path: string): Promise<PageAnswer> {
    const res = await this.send(new URL(path, this.base), { redirect: 'manual', headers: this.cookieHeader() });
    this.remember(res);
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  /** Posts a form; `cookies` (another browser's jar) stand in for this one's when given. */
  async post(path: string, form: Record<string, string>, cookies?: Map<string, string>): Promise<PageAnswer> {
    if (cookies) for (const [k, v] of cookies) this.cookies.set(k, v);
    const res = await this.send(new URL(path, this.base), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.cookieHeader() },
      body: new URLSearchParams(form).toString(),
    });
    this.remember(res);
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  /** Submits the form of `page` whose action is `action`, with its hidden fields plus `fields`. */
  submit(page: PageAnswer, action: string, fields: Record<string, string>): Promise<PageAnswer> {
    return this.post(action, { ...hiddenFields(page.text, action), ...fields });
  }
}

/** The hidden inputs of the form posting to `action` in an HTML page. */
export function hiddenFields(html: string, action: string): Record<string, string> {
  const form = new RegExp(`<form method="post" action="${action.replace(/[/]/g, '\\/')}">([\\s\\S]*?)</form>`).exec(html);
  assert.ok(form, `no form posting to ${action} in:\n${html}`);
  const out: Record<string, string> = {};
  for (const m of form[1].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) out[m[1]] = unescape(m[2]);
  return out;
}

const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));

/** The authorization URL of an app, as the SDKs build it. */
export function authorizeUrl(app: TestApp, o: { scope?: string; state?: string; redirectUri?: string | null; challenge?: string; method?: string } = {}): string {
  const q = new URLSearchParams({ response_type: 'code', client_id: app.clientId });
  if (o.redirectUri !== null) q.set('redirect_uri', o.redirectUri ?? app.redirectUri);
  q.set('scope', o.scope ?? 'public private');
  q.set('state', o.state ?? 'xyz');
  if (o.challenge) {
    q.set('code_challenge', o.challenge);
    q.set('code_challenge_method', o.method ?? 'S256');
  }
  return `/oauth/authorize?${q}`;
}

/**
 * Opens an authorization URL, signs in (unless signed in already) and answers the decision:
 * the 302's Location parsed.
 */
export async function approve(browser: FormBrowser, url: string, who: { email: string; password: string } | null, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
  let page = await browser.get(url);
  if (who) {
    assert.equal(page.status, 200, page.text);
    const signedIn = await browser.submit(page, '/oauth/sign_in', { email: who.email, password: who.password });
    assert.equal(signedIn.status, 303, signedIn.text);
    page = await browser.get(signedIn.headers.get('location')!);
  }
  assert.equal(page.status, 200, page.text);
  const answer = await browser.submit(page, '/oauth/authorize', { decision });
  assert.equal(answer.status, 302, answer.text);
  return new URL(answer.headers.get('location')!);
}
