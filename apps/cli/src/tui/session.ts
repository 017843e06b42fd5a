import type { Client } from '@reelbase/http';
import { describeApiError } from '../render/api-error';
import type { Session } from './state';

/**
 * Who the client acts as (`users.get` on /me) and the API version the answer came in, read
 * from its typed Content-Type (`…+json;version=3.4`). Throws when the token is refused, before
 * the screen is taken over.
 */
export async function loadSession(client: Client, requestedVersion?: string): Promise<Session> {
  const answer = await client.call('users.get', { fields: 'uri,name' });
  if (answer.status < 200 || answer.status >= 300) {
    if (answer.status === 401) throw new Error(`not signed in (the TUI needs a token: --token, REELBASE_TOKEN or a profile saved by \`reelbase login\`): ${describeApiError(answer)}`);
    throw new Error(`cannot read /me: ${describeApiError(answer)}`);
  }
  const me = answer.body as { uri: string; name: string };
  // Before 3.2 answers carry plain application/json: then the version asked for is the one in use.
  const version = /;\s*version=([\d.]+)/.exec(answer.headers['content-type'] ?? '')?.[1] ?? requestedVersion ?? 'unknown';
  return { user: me.name, userUri: me.uri, apiVersion: version, target: client.target };
}
