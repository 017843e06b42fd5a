import type { IncomingMessage } from 'node:http';

/**
 * `--allowed-hosts`: the Host header values a server answers (DNS rebinding, and a shared cache
 * in front storing links to a name an attacker chose). An entry is a host name, which allows it on
 * any port, or `host:port`, which allows that port only; compared without case.
 */
export function hostAllowed(req: IncomingMessage, allowed: readonly string[]): boolean {
  const host = (req.headers.host ?? '').trim().toLowerCase();
  // `name:port`, `[v6]:port`, or either without the port.
  const name = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(host)?.[1];
  return host !== '' && allowed.some((entry) => entry === host || entry === name);
}

/** The entries of a comma list, trimmed and lowercased; empty ones dropped. */
export const parseAllowedHosts = (value: string): string[] =>
  value
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
