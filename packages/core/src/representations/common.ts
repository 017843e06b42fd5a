import { createHash } from 'node:crypto';
import { deepFreeze } from '../store/copy-json';
import type { UserRecord } from '../records';
import type { Version } from '../engine/versions';
import type { LinkSigner } from '../media/link-signer';
import { portraitSizes, thumbnailSizes } from '../media/image-links';

/** What every representation function needs besides its record. */
export interface RepresentContext {
  baseUrl: string;
  version: Version;
  /** The caller, to fill interactions (`added`) and owner-only fields. */
  viewer: UserRecord | null;
  /** Signs media links (images, text tracks, playback). */
  links: LinkSigner;
  /** The request's time: expiring links (text tracks, playback) are signed until a day after it. */
  now: Date;
  /** The caller's token holds `video_files`: an owner sees their source files (`files`, every `download`). */
  ownerFiles?: boolean;
  /** Bytes each user may store (config `uploadQuotaBytes`), for the owner's `upload_quota`. */
  uploadQuotaBytes?: number;
}

const resourceKeys = new Map<string, string>();

/** Opaque, stable per resource; remembered, since every representation of a page computes several. */
export function resourceKey(kind: string, id: string): string {
  const name = `${kind}:${id}`;
  let key = resourceKeys.get(name);
  if (key === undefined) {
    key = createHash('sha1').update(name).digest('hex');
    // A bounded memory: forget everything rather than track what is least used.
    if (resourceKeys.size >= 50_000) resourceKeys.clear();
    resourceKeys.set(name, key);
  }
  return key;
}

export interface Connection {
  uri: string;
  options: string[];
  total: number;
}

export const connection = (uri: string, total: number, options: string[] = ['GET']): Connection => ({ uri, options, total });

export const interaction = (uri: string, added: boolean, addedTime: string | null, options: string[] = ['GET', 'PUT', 'DELETE']) => ({
  uri,
  options,
  added,
  added_time: addedTime,
});

/** Reporting, which reelbase has no feature for, in its empty form: nowhere (`uri` null) to do nothing (`options` empty). */
export const notReportable = Object.freeze({ uri: null, options: Object.freeze([]), reason: Object.freeze([]) });

const placeholders = new Map<string, Record<string, unknown>>();

/**
 * The service placeholder picture a user or video shows until one is uploaded. Built once per
 * origin, type and version, frozen and shared: built afresh, its links were a fair share of the
 * cost of serialising a video.
 */
export function placeholderPicture(ctx: RepresentContext, type: 'portrait' | 'thumbnail'): Readonly<Record<string, unknown>> {
  // The `default` field exists in 3.2 only (SPEC.md, Versioning: added 3.2, removed 3.3).
  const withDefault = ctx.version[0] === 3 && ctx.version[1] === 2;
  const key = `${type}${withDefault ? '+default' : ''} ${ctx.baseUrl}`;
  let picture = placeholders.get(key);
  if (!picture) {
    const link = (w: number, h: number) => `${ctx.baseUrl}/static/placeholders/${type}_${w}x${h}.png`;
    const sizes = (type === 'portrait' ? portraitSizes : thumbnailSizes).map(([w, h]) => ({ width: w, height: h, link: link(w, h) }));
    const largest = sizes[sizes.length - 1];
    picture = { uri: null, active: true, type: 'default', link: largest.link, sizes, resource_key: resourceKey('placeholder', type) };
    if (withDefault) picture.default = true;
    // Origins come from Host headers: a bounded memory, forgotten whole rather than tracked.
    if (placeholders.size >= 64) placeholders.clear();
    placeholders.set(key, deepFreeze(picture));
  }
  return picture;
}
