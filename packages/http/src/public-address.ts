import { lookup } from 'node:dns/promises';
import { isPrivateAddress } from '@reelbase/core';

/** Why reelbase will not fetch or post to a URL it was given (SSRF), or null when it may. */
export async function refusedUrl(url: URL, allowPrivate: boolean): Promise<string | null> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs are allowed';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = await lookup(host, { all: true }).catch(() => null);
  if (!addresses) return `cannot resolve ${host}`;
  if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) return `${host} is a loopback or private address`;
  return null;
}
