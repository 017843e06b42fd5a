import { inlineSource, pageHeaders } from '../support/page-security';
import type { Reply } from '../engine/operation';

const style = 'body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{font-size:.9em}';

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * What `GET /` shows a browser (a person opening the server's address): what this server is and
 * where to go next, in place of the operation index a JSON client gets. Like every page of the
 * service it allows nothing but its own inline style: no script, no image, no form, no framing.
 */
export function welcome(baseUrl: string): Reply {
  const base = escape(baseUrl);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>reelbase</title><style>${style}</style></head>
<body><h1>reelbase</h1>
<p>This is a reelbase server: a self-hosted video hosting API. It answers programs (apps, SDKs, <code>curl</code>) with JSON; there is no website to browse here.</p>
<ul>
<li>The operations it answers: <a href="${base}/openapi.json">the OpenAPI document</a>, or <code>curl -H 'Accept: application/json' ${base}/</code> for the index.</li>
<li>The documentation: <code>README.md</code> and <code>docs/</code> in reelbase's sources (getting started, the reference, deployment).</li>
<li>Signing in: an app sends you to this server's <code>${base}/oauth/authorize</code> page with its <code>client_id</code>; for scripts, an operator makes a token with <code>reelbase tokens create</code>.</li>
</ul>
</body></html>
`;
  const headers = pageHeaders({ 'style-src': [inlineSource(style)], 'frame-ancestors': ["'none'"] });
  return { status: 200, html, headers: { 'Cache-Control': 'no-cache', Vary: 'Accept', ...headers } };
}
