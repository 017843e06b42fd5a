/** Token scopes (SPEC.md, Authentication; CONVENTIONS.md, Tokens and scopes). */
export const scopes = [
  'public',
  'private',
  'create',
  'edit',
  'delete',
  'interact',
  'upload',
  'purchased',
  'promo_codes',
  'video_files',
  'stats',
  'email',
  'webhooks',
  'admin',
] as const;

export type Scope = (typeof scopes)[number];

export const isScope = (s: string): s is Scope => (scopes as readonly string[]).includes(s);

/**
 * Scopes only the operator hands out (`tokens create`, the first-run token): the job console
 * (`admin`). An app cannot ask for them, and `all` does not include them; name them to grant them.
 */
export const operatorScopes: readonly Scope[] = ['admin'];

/** Every scope an app may ask for, and what `all` means. */
export const appScopes: readonly Scope[] = scopes.filter((s) => !operatorScopes.includes(s));

/** `all` → every app scope (`all,admin` adds the operator's); `public,edit` → those; `public` is always granted. Throws on an unknown word. */
export function parseScopes(spec: string | readonly string[]): Scope[] {
  const words = (typeof spec === 'string' ? spec.split(/[\s,]+/) : [...spec]).filter(Boolean);
  if (words.includes('all')) return scopes.filter((s) => appScopes.includes(s) || words.includes(s));
  const unknown = words.filter((w) => !isScope(w));
  if (unknown.length) throw new Error(`unknown scope(s): ${unknown.join(', ')}; known: all, ${scopes.join(', ')}`);
  return [...new Set<Scope>(['public', ...(words as Scope[])])];
}
