import { createToken, createUser, foldEveryUser, monthRollupsOf, parseScopes, periodsOf, rollupsOf, type AnalyticsEventRecord, type Doc, type RollupRecord, type Store } from '@reelbase/core';
import { newVideo } from '@reelbase/core/seeding';
import { Batches, Random } from '@reelbase/seed';

/** One creator's year of plays, as the analytics report case reads it. */
export interface AnalyticsPopulation {
  userId: string;
  /** A token with every scope (`stats` among them) for the creator. */
  token: string;
  /** The first few videos' ids, for beacons. */
  someVideos: string[];
  videos: number;
  events: number;
  dayRows: number;
  monthRows: number;
  milliseconds: number;
}

/** The seeded year: reports ask for it whole (`from`/`to`) or across its month bounds. */
export const analyticsYear = '2025';

/** When the population is made: the day after the year. */
const seededAt = new Date(`${Number(analyticsYear) + 1}-01-02T00:00:00Z`);

/** Days of the year each video was watched on: a long tail of plays is not every video every day. */
const activeDays = 30;
const batchSize = 10_000;

const dayOfYear = (n: number): string => new Date(Date.UTC(Number(analyticsYear), 0, 1 + n)).toISOString().slice(0, 10);

/**
 * One creator with `videos` videos and `events` recorded events over `analyticsYear`, each video
 * watched on `activeDays` days of it. The events are made in memory only and folded with the
 * rollup job's own pure folds (`rollupsOf` a video-day, `monthRollupsOf` a video-month); what is
 * written is what the job would have written, through the store's bulk insert (then
 * `foldSeededUser` once the store is open for reads). Raw events are not written: the job keeps them 30 days, and a report never reads them.
 */
export async function seedAnalytics(store: Store, videos: number, events: number): Promise<AnalyticsPopulation> {
  const started = performance.now();
  const now = seededAt;
  const user = await createUser(store, now, { name: 'Analytics creator' });
  const { token } = await createToken(store, now, user.id, parseScopes('all'));
  const ids: string[] = [];
  const videoBatches = new Batches(store, 'videos');
  for (let i = 0; i < videos; i += batchSize) {
    const batch = Array.from({ length: Math.min(batchSize, videos - i) }, (_, j) => ({ ...newVideo(user, now), name: `Analytics video ${i + j + 1}` }));
    await videoBatches.send(batch, (written) => ids.push(...written));
  }
  await videoBatches.flush();

  // Seeded: the same population every run.
  const r = new Random(49);
  const days = rowsOut(store, 'analytics_rollups');
  const months = rowsOut(store, 'analytics_month_rollups');
  let made = 0;
  const videoDays = videos * activeDays;
  for (const [v, videoId] of ids.entries()) {
    const chosen = new Set<number>();
    while (chosen.size < activeDays) chosen.add(r.int(365));
    const byMonth = new Map<string, Omit<RollupRecord, 'id'>[]>();
    for (const [d, n] of [...chosen].sort((a, b) => a - b).entries()) {
      const day = dayOfYear(n);
      // Spread `events` over the video-days exactly.
      const index = v * activeDays + d;
      const count = Math.floor(((index + 1) * events) / videoDays) - Math.floor((index * events) / videoDays);
      const happened: AnalyticsEventRecord[] = Array.from({ length: count }, (_, e) => ({
        id: '',
        video_id: videoId,
        user_id: user.id,
        type: r.pick(['impression', 'impression', 'view', 'view', 'progress', 'progress', 'progress', 'finish'] as const),
        viewer: `viewer-${e % 20}`,
        day,
        embed_domain: r.pick(['blog.example', null]),
        device_type: r.pick(['desktop', 'mobile'] as const),
        country: r.pick(['FR', 'US']),
        seconds: 10,
        duration: 120,
        created_time: `${day}T12:00:00+00:00`,
      }));
      made += count;
      const rows = rollupsOf(videoId, user.id, day, happened);
      await days.add(rows);
      const month = periodsOf(day).month;
      (byMonth.get(month) ?? byMonth.set(month, []).get(month)!).push(...rows);
    }
    for (const [month, rows] of byMonth) await months.add(monthRollupsOf(videoId, month, rows));
  }
  const [dayRows, monthRows] = [await days.end(), await months.end()];
  return { userId: user.id, token, someVideos: ids.slice(0, 10), videos, events: made, dayRows, monthRows, milliseconds: performance.now() - started };
}

/**
 * The creator's days and months summed from the video rows seeded, by the rollup job's own
 * backfill (`foldEveryUser`, which marks them folded, so reports read them): on a store opened
 * for reads (a bulk-loading SQLite store has no indexes yet).
 */
export async function foldSeededUser(store: Store): Promise<void> {
  await foldEveryUser(store, seededAt);
}

/** Rows of one collection written in batches as they are made; `end` writes the rest and answers how many in all. */
function rowsOut(store: Store, collection: string) {
  const batches = new Batches(store, collection);
  const buffer: Omit<Doc, 'id'>[] = [];
  let written = 0;
  const send = async () => {
    written += buffer.length;
    await batches.send(buffer.splice(0), () => undefined);
  };
  return {
    async add(rows: readonly Omit<Doc, 'id'>[]) {
      buffer.push(...rows);
      if (buffer.length >= batchSize) await send();
    },
    async end() {
      if (buffer.length) await send();
      await batches.flush();
      return written;
    },
  };
}
