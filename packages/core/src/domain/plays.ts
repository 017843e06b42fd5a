import { createHash, randomBytes } from 'node:crypto';
import type { Context } from '../engine/operation';
import { headerOf } from '../engine/request';
import type { UserVideoRecord, VideoRecord } from '../records';
import type { Store } from '../store/store';
import { isoTime } from '../support/time';
import { and, eq, gt, lte, where } from '../store/filters';

/**
 * Plays are the views the player reports, counted once per viewer per video per half hour, so a
 * viewer replaying a clip does not inflate `stats.plays`. The viewer is the signed-in user, else the
 * player's cookie, else the client address and user agent (a hash of them: the store keeps no
 * address).
 */
export const playWindowSeconds = 30 * 60;

/** The cookie the player page gives a browser, so its plays are told apart from its neighbours' behind one address. */
export const viewerCookieName = 'reelbase_viewer';

type RecentPlayRecord = { id: string; video_id: string; viewer: string; created_time: string };

/** The viewer's cookie from a Cookie header, when it has a plausible one. */
export function readViewerCookie(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, value] = part.split('=').map((s) => s.trim());
    if (name === viewerCookieName && value && /^[A-Za-z0-9_-]{16,64}$/.test(value)) return value;
  }
  return undefined;
}

/** Set-Cookie for a browser that has no viewer cookie yet (none when it has one); it lives one window. */
export function viewerCookie(ctx: Context<unknown>): Record<string, string> {
  if (readViewerCookie(headerOf(ctx.request.headers, 'cookie'))) return {};
  const secure = ctx.baseUrl.startsWith('https:') ? '; Secure' : '';
  return { 'Set-Cookie': `${viewerCookieName}=${randomBytes(16).toString('base64url')}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${playWindowSeconds}${secure}` };
}

/** Who is playing: the signed-in user, else the player's cookie, else a hash of the address and user agent. */
export function viewerKey(ctx: Context<unknown>): string {
  const user = ctx.principal.user;
  if (user) return `user:${user.id}`;
  const cookie = readViewerCookie(headerOf(ctx.request.headers, 'cookie'));
  if (cookie) return `cookie:${cookie}`;
  const agent = headerOf(ctx.request.headers, 'user-agent') ?? '';
  return `client:${createHash('sha256').update(`${ctx.clientAddress ?? 'local'}\u0000${agent}`).digest('base64url')}`;
}

/**
 * A view (the player's beacon when playback starts: domain/analytics-events.ts) counts a play
 * once per viewer per window; true when it counted, in `tx` with whatever records the view.
 */
export async function countView(tx: Store, ctx: Context<unknown>, video: VideoRecord): Promise<boolean> {
  const now = ctx.now();
  const since = isoTime(new Date(now.getTime() - playWindowSeconds * 1000));
  const key = viewerKey(ctx);
  if (await tx.findOne<RecentPlayRecord>('recent_plays', and(eq('video_id', video.id), eq('viewer', key), gt('created_time', since)))) return false;
  // Rows past the window count no more and have no other owner.
  await tx.deleteWhere('recent_plays', lte('created_time', since));
  await tx.insert<RecentPlayRecord>('recent_plays', { video_id: video.id, viewer: key, created_time: isoTime(now) });
  await tx.increment<VideoRecord>('videos', video.id, 'plays', 1);
  return true;
}

/**
 * A signed-in viewer fetching the file from its first byte watched it: their history records it.
 * Plays are not counted here: a fetch is not a view (the player fetches before anybody watches,
 * a download is no play); the views the player reports are (countView).
 */
export async function recordWatched(ctx: Context<unknown>, video: VideoRecord): Promise<void> {
  const range = ctx.request.headers.range;
  const viewer = ctx.principal.user;
  if (!viewer || (range && !/^bytes=0-/.test(range.trim()))) return;
  const time = isoTime(ctx.now());
  await ctx.store.transaction(async (tx) => {
    const row = await tx.findOne<UserVideoRecord>('watched', where({ user_id: viewer.id, video_id: video.id }));
    if (row) await tx.update<UserVideoRecord>('watched', row.id, { created_time: time });
    else {
      await tx.insert<UserVideoRecord>('watched', { user_id: viewer.id, video_id: video.id, created_time: time });
      await tx.increment('users', viewer.id, 'watched_total', 1);
    }
  });
}
