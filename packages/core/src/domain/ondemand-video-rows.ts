import type { Store } from '../store/store';
import { eq, where } from '../store/filters';
import type { VideoRecord } from '../records';
import type { OndemandPageRecord, PageVideoRecord, SeasonRecord } from '../records/ondemand';

/**
 * The rows that put videos on On Demand pages, with the counters of pages and seasons kept
 * exact. It depends on no other domain file, so deleting a video (domain/videos.ts) can call it.
 */

const typeCounter = { main: 'main_total', extra: 'extra_total', trailer: 'trailer_total' } as const;

/** Counts a video row in (+1) or out (-1) of its page and season; a season left without videos goes. */
export async function countOnPage(store: Store, row: Pick<PageVideoRecord, 'page_id' | 'type' | 'season_id'>, sign: 1 | -1): Promise<void> {
  await store.increment<OndemandPageRecord>('ondemand_pages', row.page_id, typeCounter[row.type], sign);
  await store.increment<OndemandPageRecord>('ondemand_pages', row.page_id, 'videos_total', sign);
  if (!row.season_id) return;
  const season = await store.increment<SeasonRecord>('ondemand_seasons', row.season_id, 'videos_total', sign);
  if (season && season.videos_total <= 0) {
    await store.delete('ondemand_seasons', season.id);
    await store.increment<OndemandPageRecord>('ondemand_pages', row.page_id, 'seasons_total', -1);
  }
}

/** The season of a series page with this number, created (empty) when it has none yet. */
export async function seasonFor(store: Store, pageId: string, number: number, now: string): Promise<SeasonRecord> {
  const found = await store.findOne<SeasonRecord>('ondemand_seasons', where({ page_id: pageId, number }));
  if (found) return found;
  await store.increment<OndemandPageRecord>('ondemand_pages', pageId, 'seasons_total', 1);
  return store.insert<SeasonRecord>('ondemand_seasons', { page_id: pageId, number, videos_total: 0, created_time: now });
}

export async function removePageVideo(store: Store, row: PageVideoRecord): Promise<void> {
  await store.delete('ondemand_videos', row.id);
  await store.update<VideoRecord>('videos', row.video_id, { ondemand_page_id: null });
  await countOnPage(store, row, -1);
}

/** Takes a video off its On Demand page, if it is on one, before the video is deleted. */
export async function leaveOndemandPage(store: Store, videoId: string): Promise<void> {
  const row = await store.findOne<PageVideoRecord>('ondemand_videos', eq('video_id', videoId));
  if (row) await removePageVideo(store, row);
}
