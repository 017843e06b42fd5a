import type { LinkSigner } from './link-signer';

/**
 * Text-track links expire, as the hosted API's do (`link_expires_time`), but not on every read:
 * the expiry is the end of the next UTC day, so a link is the same for a day (caches keep it)
 * and lives 24 to 48 hours.
 */
export const trackLinkExpiry = (now: Date): number => (Math.floor(now.getTime() / 86_400_000) + 2) * 86_400;

/** The file's version and its video's access version (media/link-access.ts; none written for 0, as links were before it). */
const versionPart = (version: number, access: number): string => `v${version}${access ? `a${access}` : ''}`;

export const trackSubject = (id: string, version: number, access: number, expires: number): string => `texttracks/${id}/${versionPart(version, access)}/${expires}`;

/** `v<version>[a<access>]-<expires>-<signature>`: the file's version, its video's access version, when the link stops working, and the signature over them. */
export const trackToken = (signer: LinkSigner, id: string, version: number, access: number, expires: number): string =>
  `${versionPart(version, access)}-${expires}-${signer.sign(trackSubject(id, version, access, expires))}`;

export interface TrackToken {
  version: number;
  access: number;
  expires: number;
  signature: string;
  /** `vtt` (the track) or `m3u8` (its HLS subtitle playlist). */
  format: 'vtt' | 'm3u8';
}

export function parseTrackFile(file: string): TrackToken | null {
  const m = /^v(\d{1,9})(?:a(\d{1,9}))?-(\d{1,12})-([0-9a-f]{32})\.(vtt|m3u8)$/.exec(file);
  return m ? { version: Number(m[1]), access: Number(m[2] ?? 0), expires: Number(m[3]), signature: m[4], format: m[5] as 'vtt' | 'm3u8' } : null;
}
