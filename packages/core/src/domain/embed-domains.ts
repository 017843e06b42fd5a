import type { Store } from '../store/store';
import { where } from '../store/filters';
import type { VideoDomainRecord, VideoRecord } from '../records';
import { invalidField } from '../engine/errors';
import { isoTime } from '../support/time';

/** A host name: dot-separated labels of letters, digits and inner hyphens, ending in a label that starts with a letter. */
const domainName = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A whitelist domain as stored (lower case); 400 naming `field` for anything but a domain name. */
export function readDomain(raw: string, field: string): string {
  const domain = raw.trim().toLowerCase();
  if (!domainName.test(domain)) throw invalidField(field, 'must be a domain name such as example.com');
  return domain;
}

/** The whitelist entry of `domain` on the video, or null. */
export const findDomain = (store: Store, video: VideoRecord, domain: string): Promise<VideoDomainRecord | null> =>
  store.findOne<VideoDomainRecord>('video_domains', where({ video_id: video.id, domain }));

/**
 * Puts a domain on the video's embed whitelist once; on a domain already there only a given
 * `allowHd` changes. Answers the entry as stored.
 */
export async function allowDomain(store: Store, video: VideoRecord, domain: string, allowHd: boolean | undefined, now: Date): Promise<VideoDomainRecord> {
  const existing = await findDomain(store, video, domain);
  if (!existing) return store.insert<VideoDomainRecord>('video_domains', { video_id: video.id, domain, allow_hd: allowHd ?? false, created_time: isoTime(now) });
  if (allowHd === undefined || allowHd === existing.allow_hd) return existing;
  return (await store.update<VideoDomainRecord>('video_domains', existing.id, { allow_hd: allowHd }))!;
}
