import { createHash, randomBytes } from 'node:crypto';
import UAParser from 'ua-parser-js';
import type { Context } from '../engine/operation';
import { headerOf } from '../engine/request';
import type { VideoRecord } from '../records';
import { keep } from '../support/remembered';
import { isoTime } from '../support/time';
import { StoreConflictError, type Store } from '../store/store';
import { appendEvent } from './analytics-append';
import { requestFold } from './analytics-fold-request';
import { countView, viewerKey } from './plays';

/**
 * What the player reports (docs/embedding.md "Analytics"): a load is an `impression`, playback
 * starting a `view`, a heartbeat `progress` (seconds watched since the last one), reaching the end
 * a `finish`; a `download` is a fetch of the file as an attachment. Each is one appended row.
 */
export const beaconTypes = ['impression', 'view', 'progress', 'finish'] as const;
export type EventType = (typeof beaconTypes)[number] | 'download';

export type AnalyticsEventRecord = {
  id: string;
  video_id: string;
  /** The video's owner, whose reports count it. */
  user_id: string;
  type: EventType;
  /** The viewer as a salted hash whose salt is made each day and deleted the day after: a viewer is told apart within a day only. */
  viewer: string;
  /** The UTC day it happened, `YYYY-MM-DD`: the rollup's day. */
  day: string;
  embed_domain: string | null;
  device_type: DeviceType;
  country: string | null;
  /** Seconds watched (`progress`). */
  seconds: number;
  /** The video's duration when it happened, for the share of it watched. */
  duration: number;
  created_time: string;
};

export type DeviceType = 'desktop' | 'mobile' | 'tablet' | 'tv' | 'other';

/** Device types of the user agents seen last: a handful of browsers send most beacons, and parsing one costs more than the rest of a beacon. */
const deviceTypes = new Map<string, DeviceType>();
const deviceTypesKept = 1000;

/** The device type ua-parser-js reads from a user agent; one it names no device for is a desktop browser. */
export function deviceTypeOf(userAgent: string | undefined): DeviceType {
  const ua = userAgent ?? '';
  let type = deviceTypes.get(ua);
  if (type === undefined) keep(deviceTypes, ua, (type = parsedDeviceType(ua)), deviceTypesKept);
  return type;
}

function parsedDeviceType(userAgent: string): DeviceType {
  const type = new UAParser(userAgent).getDevice().type;
  if (type === undefined) return 'desktop';
  if (type === 'mobile' || type === 'tablet') return type;
  if (type === 'smarttv') return 'tv';
  return 'other';
}

/**
 * The viewer asked not to be tracked: `dnt=1` on the player URL (the page a beacon comes from is
 * its Referer), or the browser's `DNT: 1` or `Sec-GPC: 1`. The page sends no beacons then and the
 * ingest drops any that come.
 */
export function doNotTrack(ctx: Context<unknown>, playerUrl?: string): boolean {
  const headers = ctx.request.headers;
  if (headerOf(headers, 'dnt')?.trim() === '1' || headerOf(headers, 'sec-gpc')?.trim() === '1') return true;
  const page = playerUrl ?? headerOf(headers, 'referer');
  if (!page) return false;
  try {
    return ['1', 'true'].includes(new URL(page).searchParams.get('dnt') ?? '');
  } catch {
    return false;
  }
}

/** A host name as beacons and Referers give it: lower case, no port; null for anything else. */
export function hostOf(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`).hostname.toLowerCase();
    return /^[a-z0-9.[\]:-]{1,253}$/.test(host) ? host : null;
  } catch {
    return null;
  }
}

/**
 * The embedding page's host: what the player's script read (its ancestor origin or referrer),
 * else the beacon's Referer when that is another site's page; null for the player opened on its own.
 */
function embedDomain(ctx: Context<unknown>, reported: string | undefined): string | null {
  const own = hostOf(ctx.baseUrl);
  const host = hostOf(reported) ?? hostOf(headerOf(ctx.request.headers, 'referer'));
  return host === own ? null : host;
}

export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

type SaltRecord = { id: string; salt: string; created_time: string };

/** The name of a day's salt in `service_keys`; the fold deletes those of days gone (domain/analytics-rollup-job.ts). */
export const saltPrefix = 'analytics-salt-';

/** Per store, the salts this process has read or made, by day: a day's salt never changes, so a beacon reads none. */
const salts = new WeakMap<Store, Map<string, string>>();

/** The day's salt, from this process's memory, else the store's (`storedSaltOf`). */
async function saltOf(store: Store, day: string, now: Date): Promise<string> {
  let known = salts.get(store);
  if (!known) salts.set(store, (known = new Map()));
  let salt = known.get(day);
  // Two days: yesterday's stays in use for beacons sent just before midnight.
  if (salt === undefined) keep(known, day, (salt = await storedSaltOf(store, day, now)), 2);
  return salt;
}

/** The day's salt, made by the first server that needs it; a server racing another reads the winner's. */
async function storedSaltOf(store: Store, day: string, now: Date): Promise<string> {
  const id = `${saltPrefix}${day}`;
  const existing = await store.get<SaltRecord>('service_keys', id);
  if (existing) return existing.salt;
  try {
    return (await store.insert<SaltRecord>('service_keys', { id, salt: randomBytes(32).toString('base64url'), created_time: isoTime(now) })).salt;
  } catch (e) {
    const winner = e instanceof StoreConflictError ? await store.get<SaltRecord>('service_keys', id) : null;
    if (!winner) throw e;
    return winner.salt;
  }
}

/** The event a beacon (or a download) makes: who (hashed), from where, on what. No address is kept. */
async function analyticsEvent(
  ctx: Context<unknown>,
  video: VideoRecord,
  o: { type: EventType; seconds?: number; embedDomain?: string },
): Promise<Omit<AnalyticsEventRecord, 'id'>> {
  const now = ctx.now();
  const day = dayOf(now);
  const salt = await saltOf(ctx.store, day, now);
  return {
    video_id: video.id,
    user_id: video.user_id,
    type: o.type,
    viewer: createHash('sha256').update(`${salt}\u0000${video.user_id}\u0000${viewerKey(ctx)}`).digest('base64url').slice(0, 22),
    day,
    embed_domain: embedDomain(ctx, o.embedDomain),
    device_type: deviceTypeOf(headerOf(ctx.request.headers, 'user-agent')),
    country: ctx.clientAddress ? ctx.config.countryOf?.(ctx.clientAddress) ?? null : null,
    seconds: o.seconds ?? 0,
    duration: video.duration ?? 0,
    created_time: isoTime(now),
  };
}

/**
 * Records what a viewer did, unless they asked not to be tracked: one append, committed with the
 * beacons that came with it (analytics-append.ts); a view also asks the play window, and counts
 * `stats.plays` when it counts, in a transaction of its own. And a fold asked for.
 */
export async function recordEvent(ctx: Context<unknown>, video: VideoRecord, o: { type: EventType; seconds?: number; embedDomain?: string }): Promise<void> {
  if (doNotTrack(ctx)) return;
  const event = await analyticsEvent(ctx, video, o);
  if (event.type !== 'view') await appendEvent(ctx.store, event);
  // A view counts once per viewer per video per half hour, as stats.plays does.
  else if (!(await ctx.store.transaction(async (tx) => (await countView(tx, ctx, video)) && !!(await tx.insert('analytics_events', event))))) return;
  await requestFold(ctx.store, ctx.now());
}
