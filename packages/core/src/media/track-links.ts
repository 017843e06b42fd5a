import type { LinkSigner } from './link-signer';

/**
 * Text-track links expire, as the hosted API's do (`link_expires_time`), but not on every read:
 * the expiry is the end of the next UTC day, so a link is the same for a day (caches keep it)
 * and lives 24 to 48 hours.
 */
export const trackLinkExpiry = (now: Date): number => (Math.floor(now.getTime() / 86_400_000) + 2) * 86_400;

export const trackSubject = (id: string, version: number, expires: number): string => `texttracks/${id}/v${version}/${expires}`;

/** `v<version>-<expires>-<signature>`: the file's version, when the link stops working, and the signature over both. */
export const trackToken = (signer: LinkSigner, id: string, version: number, expires: number): string =>
  `v${version}-${expires}-${signer.sign(trackSubject(id, version, expires))}`;

export interface TrackToken {
  version: number;
  expires: number;
  signature: string;
  /** `vtt` (the track) or `m3u8` (its HLS subtitle playlist). */
  format: 'vtt' | 'm3u8';
}

export function parseTrackFile(file: string): TrackToken | null {
  const m = /^v(\d{1,9})-(\d{1,12})-([0-9a-f]{32})\.(vtt|m3u8)$/.exec(file);
  return m ? { version: Number(m[1]), expires: Number(m[2]), signature: m[3], format: m[4] as 'vtt' | 'm3u8' } : null;
}
