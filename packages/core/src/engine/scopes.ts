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
] as const;

export type Scope = (typeof scopes)[number];

export const isScope = (s: string): s is Scope => (scopes as readonly string[]).includes(s);

/** `all` → every scope; `public,edit` → those; `public` is always granted. Throws on an unknown word. */
export function parseScopes(spec: string | readonly string[]): Scope[] {
  const words = (typeof spec === 'string' ? spec.split(/[\s,]+/) : [...spec]).filter(Boolean);
  if (words.includes('all')) return [...scopes];
  const unknown = words.filter((w) => !isScope(w));
  if (unknown.length) throw new Error(`unknown scope(s): ${unknown.join(', ')}; known: all, ${scopes.join(', ')}`);
  return [...new Set<Scope>(['public', ...(words as Scope[])])];
}
