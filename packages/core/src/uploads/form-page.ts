import { originSource } from '../domain/page-security';
import { inlineSource, pageHeaders } from '../support/page-security';
import { type OpenUpload } from './uploads';
import { postForm } from '../media/upload-links';

const style = 'body{font:16px system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}form{display:grid;gap:1rem}';

/**
 * The page a post upload link shows to a browser (GET): the upload's form on its own, for someone
 * handed the link rather than a site embedding `upload.form`. The form may post to this server
 * only, and the browser may follow the answer's redirect to `upload.redirect_url`; nobody may frame
 * the page (a framed upload form invites clickjacking).
 */
export function uploadFormPage(open: OpenUpload, link: string): { html: string; headers: Record<string, string> } {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Upload a video</title><style>${style}</style></head>
<body><h1>Upload a video</h1>
${postForm(link)}
</body></html>
`;
  const headers = pageHeaders({
    'style-src': [inlineSource(style)],
    'form-action': ["'self'", ...originSource(link), ...originSource(open.redirectUrl)],
    'frame-ancestors': ["'none'"],
  });
  return { html, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'private, no-store', ...headers } };
}
