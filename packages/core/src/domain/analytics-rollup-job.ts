import { dayOf, saltPrefix, type AnalyticsEventRecord } from './analytics-events';
import { rollupsOf } from './analytics-rollup';
import { isoTime } from '../support/time';
import { and, eq, gte, lt, where } from '../store/filters';
import type { Store } from '../store/store';
import type { JobRecord } from '../jobs/job-records';
import { markDone, stillHeld } from '../jobs/queue';
import type { JobHandler } from '../jobs/worker';

/** Raw events are kept this long; the rollups, which hold no viewer, for good. */
export const eventRetentionDays = 30;

/**
 * Events are re-read from this long before the last fold began: an event whose transaction began
 * before the fold and committed after it (PostgreSQL) is folded by the next one. Folding a
 * video-day again gives the same rows.
 */
const foldOverlapSeconds = 300;

type FoldRecord = { id: string; created_time: string };

const daysBefore = (now: Date, days: number): string => dayOf(new Date(now.getTime() - days * 86400_000));

/**
 * Folds the events since the last fold into rollups: each video-day they touch is summed again
 * from all of its events and its rows replaced, one transaction per video-day. Then drops events
 * past retention and the viewer salts of days gone (a viewer's hash can no longer be matched).
 * Answers how many video-days it folded.
 */
export async function foldAnalytics(store: Store, now: Date): Promise<number> {
  const cursor = await store.get<FoldRecord>('analytics_folds', 'fold');
  const since = cursor ? isoTime(new Date(Date.parse(cursor.created_time) - foldOverlapSeconds * 1000)) : '';
  const touched = await store.countBy('analytics_events', 'video_id', gte('created_time', since));
  let folded = 0;
  for (const videoId of touched.keys()) {
    const days = await store.countBy('analytics_events', 'day', and(eq('video_id', videoId), gte('created_time', since)));
    for (const day of days.keys()) {
      await store.transaction(async (tx) => {
        const { items } = await tx.find<AnalyticsEventRecord>('analytics_events', { where: where({ video_id: videoId, day }) });
        await tx.deleteWhere('analytics_rollups', where({ video_id: videoId, day }));
        if (items.length) await tx.insertMany('analytics_rollups', rollupsOf(videoId, items[0].user_id, day, items));
      });
      folded++;
    }
  }
  await store.transaction(async (tx) => {
    await tx.deleteWhere('analytics_events', lt('day', daysBefore(now, eventRetentionDays)));
    // Yesterday's salt stays for beacons sent just before midnight.
    await tx.deleteWhere('service_keys', and(gte('id', saltPrefix), lt('id', `${saltPrefix}${daysBefore(now, 1)}`)));
    if (cursor) await tx.update<FoldRecord>('analytics_folds', 'fold', { created_time: isoTime(now) });
    else await tx.insert<FoldRecord>('analytics_folds', { id: 'fold', created_time: isoTime(now) });
  });
  return folded;
}

/** The worker's side: a fold, then the job done. */
export function rollupHandler(d: { store: Store; now: () => Date }): JobHandler {
  return {
    async run(job: JobRecord, { worker }) {
      await foldAnalytics(d.store, d.now());
      await d.store.transaction(async (tx) => (await stillHeld(tx, job, worker)) && markDone(tx, job, d.now()));
    },
    // The next fold takes in what this one left.
    async failed() {},
  };
}
