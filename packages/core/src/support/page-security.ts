import { createHash } from 'node:crypto';

/** Content-Security-Policy directives and their sources, beyond the `'none'` every page starts from. */
export type CspDirectives = Record<string, readonly string[]>;

/**
 * The headers of an HTML page the service serves (the player, the upload form): a CSP that allows
 * nothing the page does not list (no script unless it lists `script-src`), no MIME sniffing, and
 * no Referer, because these pages' URLs can carry a video password or an upload capability.
 */
export function pageHeaders(directives: CspDirectives): Record<string, string> {
  const all: CspDirectives = { 'default-src': ["'none'"], 'base-uri': ["'none'"], 'form-action': ["'none'"], ...directives };
  return {
    'Content-Security-Policy': Object.entries(all)
      .map(([name, sources]) => `${name} ${sources.join(' ')}`)
      .join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}

/** The CSP source that allows exactly this inline `<style>` (or script) text. */
export const inlineSource = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
