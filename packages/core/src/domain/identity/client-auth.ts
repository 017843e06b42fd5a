import { OAuthError } from '../../engine/errors';
import type { Context } from '../../engine/operation';
import { appByClientId, isPublicApp, secretMatches } from './apps';
import type { AppRecord } from './records';

/** 401 invalid_client with the challenge RFC 6749 §5.2 asks for. */
export const invalidClient = (description: string): OAuthError =>
  new OAuthError(401, 'invalid_client', description, { 'WWW-Authenticate': 'Basic realm="reelbase", charset="UTF-8"' });

/** A client id or secret as RFC 6749 §2.3.1 has it inside Basic: form-encoded (clients that skip that send it plain, which decodes the same). */
function formDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function basicCredentials(header: string): { id: string; secret: string } | null {
  const m = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { id: formDecoded(decoded.slice(0, colon)), secret: formDecoded(decoded.slice(colon + 1)) };
}

/**
 * The app calling a grant endpoint: HTTP Basic `client_id:client_secret` (what the official SDKs
 * send), or `client_id` (and `client_secret`) in the body. A public app is identified by its id
 * alone (it proves itself with PKCE instead). A bearer token is not client credentials: the
 * SDKs send one once they hold a token, and the hosted API answers invalid_client; so do we.
 */
export async function authenticateClient(ctx: Context<{ client_id?: string; client_secret?: string }>): Promise<AppRecord> {
  const header = ctx.request.headers.authorization;
  let presented: { id: string; secret: string | undefined };
  if (header !== undefined && header.trim() !== '') {
    if (/^\s*bearer\b/i.test(header)) throw invalidClient('The grant endpoints take the app’s credentials (HTTP Basic client_id:client_secret), not an access token.');
    const basic = basicCredentials(header);
    if (!basic) throw invalidClient('The Authorization header is not HTTP Basic client_id:client_secret.');
    presented = basic;
  } else if (ctx.params.client_id) {
    presented = { id: ctx.params.client_id, secret: ctx.params.client_secret };
  } else {
    throw invalidClient('No client credentials: send HTTP Basic client_id:client_secret.');
  }
  const app = await appByClientId(ctx.store, presented.id);
  const ok = app !== null && (isPublicApp(app) ? !presented.secret : presented.secret !== undefined && secretMatches(app, presented.secret));
  if (!ok) throw invalidClient('Unknown client, or a wrong client secret.');
  return app;
}
