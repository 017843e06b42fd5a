import type { Store } from '../store/store';
import { and, eq, isIn } from '../store/filters';
import type { UserRecord, VideoRecord } from '../records';
import { by } from '../engine/list';
import type { ClipPurchases, ClipOndemand, OndemandPageRecord, PageVideoRecord, PurchaseRecord, SeasonRecord } from '../records/ondemand';
import { viewableRows } from './ondemand-page-lists';

/**
 * The On Demand side of a page of Clips: for each video on a page the caller may see (their own,
 * or one out of draft), the page, the video's season, and the page's trailer where the caller may
 * see it. No query for videos that say they are on none (`ondemand_page_id` null), one for the
 * others (the SQLite store remembers it), and three or four more only when some are on pages.
 */
export async function ondemandOfVideos(store: Store, videos: readonly VideoRecord[], viewer: UserRecord | null): Promise<Map<string, ClipOndemand>> {
  const found = new Map<string, ClipOndemand>();
  // A video that says it is on no page is not: only the others are looked up.
  const maybe = videos.filter((v) => v.ondemand_page_id !== null).map((v) => v.id);
  if (maybe.length === 0) return found;
  const rows = (await store.find<PageVideoRecord>('ondemand_videos', { where: isIn('video_id', maybe) })).items;
  if (rows.length === 0) return found;
  const pageIds = [...new Set(rows.map((r) => r.page_id))];
  const seasonIds = rows.flatMap((r) => (r.season_id ? [r.season_id] : []));
  const [pages, seasons] = await Promise.all([
    store.find<OndemandPageRecord>('ondemand_pages', { where: isIn('id', pageIds) }),
    seasonIds.length ? store.find<SeasonRecord>('ondemand_seasons', { where: isIn('id', seasonIds) }) : null,
  ]);
  const seen = pages.items.filter((p) => p.status !== 'draft' || p.user_id === viewer?.id);
  const own = seen.filter((p) => p.user_id === viewer?.id).map((p) => p.id);
  const others = seen.filter((p) => p.user_id !== viewer?.id).map((p) => p.id);
  const trailersOf = (ids: string[]) => and(isIn('page_id', ids), eq('type', 'trailer'));
  const [ownTrailers, otherTrailers] = await Promise.all([
    own.length ? store.find<PageVideoRecord>('ondemand_videos', { where: trailersOf(own), orderBy: by('position', 'asc') }) : null,
    // Everybody else's Clip is shared by every other viewer: it names a trailer anybody may watch.
    others.length ? store.find<PageVideoRecord>('ondemand_videos', { where: viewableRows(null, trailersOf(others)), orderBy: by('position', 'asc') }) : null,
  ]);
  const pageById = new Map(seen.map((p) => [p.id, p]));
  const seasonById = new Map(seasons?.items.map((s) => [s.id, s]));
  const trailers = [...(ownTrailers?.items ?? []), ...(otherTrailers?.items ?? [])];
  for (const row of rows) {
    const page = pageById.get(row.page_id);
    if (!page) continue;
    const trailer = trailers.find((t) => t.page_id === page.id) ?? null;
    found.set(row.video_id, { page, row, season: (row.season_id && seasonById.get(row.season_id)) || null, trailer });
  }
  return found;
}

/** The viewer's purchases of these pages, by page and kind: the latest of each kind (for Clips and pages alike). */
export async function purchasesOf(store: Store, pageIds: string[], viewer: UserRecord): Promise<Map<string, ClipPurchases>> {
  const latest = new Map<string, ClipPurchases>();
  if (pageIds.length === 0) return latest;
  const { items } = await store.find<PurchaseRecord>('ondemand_purchases', { where: and(eq('user_id', viewer.id), isIn('page_id', pageIds)), orderBy: by('purchase_time', 'asc') });
  // Ascending time: the last one written per kind is the latest.
  for (const p of items) latest.set(p.page_id, { ...latest.get(p.page_id), [p.type]: p });
  return latest;
}
