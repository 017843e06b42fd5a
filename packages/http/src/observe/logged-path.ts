/** Query parameters whose values are secrets (passwords, tokens, codes, OAuth state, signatures). */
const secretParams = new Set(['password', 'token', 'access_token', 'refresh_token', 'code', 'client_secret', 'state', 'csrf_token', 'signature', 'sig', 'secret']);
/** Path variables (as the operation table names them) that are capabilities: signed media and review links. */
const secretVariables = new Set(['{token}', '{signature}']);
/** Whether a route has a secret variable, by route: asked once a request, and routes are few (the operation table's). */
const routesWithSecrets = new Map<string, boolean>();
const hasSecretVariable = (route: string): boolean => {
  let known = routesWithSecrets.get(route);
  if (known === undefined) routesWithSecrets.set(route, (known = [...secretVariables].some((v) => route.includes(v))));
  return known;
};

const hidden = '[redacted]';

/**
 * The request's path as a log may show it: secret query values replaced, and where the request
 * matched a route, the segments under its secret variables (`/videos/{video_id}/review/{token}`).
 */
export function loggedPath(url: string, route: string | null): string {
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  // Most routes have no secret variable: their path is shown as it came, without splitting it.
  if (route && hasSecretVariable(route)) {
    const template = route.split('/');
    const segments = path.split('/');
    if (template.length === segments.length) path = segments.map((s, i) => (secretVariables.has(template[i]) ? hidden : s)).join('/');
  }
  if (q < 0) return path;
  const query = new URLSearchParams(url.slice(q + 1));
  for (const name of new Set(query.keys())) if (secretParams.has(name.toLowerCase())) query.set(name, hidden);
  const shown = query.toString();
  return shown ? `${path}?${shown.replaceAll('%5Bredacted%5D', hidden)}` : path;
}
