import { dayOf, saltPrefix, type AnalyticsEventRecord } from './analytics-events';
import { monthEnd, monthRollupsOf, periodsOf, rollupsOf, type RollupRecord } from './analytics-rollup';
import { foldEveryUserPeriod, foldUserPeriod, type UserPeriod } from './analytics-user-rollup';
import { isoTime } from '../support/time';
import { and, eq, gte, lt, lte, where } from '../store/filters';
import { StoreConflictError, type Store } from '../store/store';
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
 * Sums a video's month again from its day rollups and replaces its month rows
 * (`analytics_month_rollups`): like a day's, folding it again gives the same rows.
 */
async function foldMonth(store: Store, videoId: string, month: string): Promise<void> {
  await store.transaction(async (tx) => {
    const { items } = await tx.find<RollupRecord>('analytics_rollups', { where: and(eq('video_id', videoId), gte('day', month), lte('day', monthEnd(month))) });
    await tx.deleteWhere('analytics_month_rollups', where({ video_id: videoId, month }));
    if (items.length) await tx.insertMany('analytics_month_rollups', monthRollupsOf(videoId, month, items));
  });
}

/**
 * Runs `backfill` once per store: the `mark` row of `analytics_folds` says it was done. Two folds may
 * race here (several workers); both backfilled the same rows, and the second mark is a conflict.
 */
async function once(store: Store, mark: string, now: Date, backfill: () => Promise<void>): Promise<void> {
  if (await store.get<FoldRecord>('analytics_folds', mark)) return;
  await backfill();
  await store.insert<FoldRecord>('analytics_folds', { id: mark, created_time: isoTime(now) }).catch((e: unknown) => {
    if (!(e instanceof StoreConflictError)) throw e;
  });
}

/** Day rollups folded before month rollups existed get their months once (the `months` mark). */
const foldEveryMonth = (store: Store, now: Date): Promise<void> =>
  once(store, 'months', now, async () => {
    for (const videoId of (await store.countBy('analytics_rollups', 'video_id')).keys()) {
      for (const month of (await store.countBy('analytics_rollups', 'month', eq('video_id', videoId))).keys()) await foldMonth(store, videoId, month);
    }
  });

/**
 * Video rollups folded before user rollups existed (or bulk-loaded: the analytics bench) get them
 * once; the `users` mark says it was done, and reports read user rollups only once it is there.
 */
export const foldEveryUser = (store: Store, now: Date): Promise<void> =>
  once(store, 'users', now, async () => {
    for (const userId of (await store.countBy('analytics_rollups', 'user_id')).keys()) {
      await foldEveryUserPeriod(store, userId, 'day');
      await foldEveryUserPeriod(store, userId, 'month');
    }
  });

/**
 * Folds the events since the last fold into rollups: each video-day they touch is summed again
 * from all of its events and its rows replaced, one transaction per video-day, then each month
 * those days fall in is summed again from its days; then each user's days and months they touched
 * are summed again from the video rows (analytics-user-rollup.ts). Then drops events
 * past retention and the viewer salts of days gone (a viewer's hash can no longer be matched).
 * Answers how many video-days it folded.
 */
export async function foldAnalytics(store: Store, now: Date): Promise<number> {
  const cursor = await store.get<FoldRecord>('analytics_folds', 'fold');
  const since = cursor ? isoTime(new Date(Date.parse(cursor.created_time) - foldOverlapSeconds * 1000)) : '';
  await foldEveryMonth(store, now);
  await foldEveryUser(store, now);
  const touched = await store.countBy('analytics_events', 'video_id', gte('created_time', since));
  // Each user's periods are summed once, after all of their videos'.
  const userPeriods = new Map<string, [string, UserPeriod, string]>();
  const touch = (...key: [string, UserPeriod, string]) => userPeriods.set(key.join(' '), key);
  let folded = 0;
  for (const videoId of touched.keys()) {
    const days = await store.countBy('analytics_events', 'day', and(eq('video_id', videoId), gte('created_time', since)));
    const months = new Set<string>();
    for (const day of days.keys()) {
      months.add(periodsOf(day).month);
      await store.transaction(async (tx) => {
        const { items } = await tx.find<AnalyticsEventRecord>('analytics_events', { where: where({ video_id: videoId, day }) });
        await tx.deleteWhere('analytics_rollups', where({ video_id: videoId, day }));
        if (!items.length) return;
        await tx.insertMany('analytics_rollups', rollupsOf(videoId, items[0].user_id, day, items));
        touch(items[0].user_id, 'day', day);
        touch(items[0].user_id, 'month', periodsOf(day).month);
      });
      folded++;
    }
    for (const month of months) await foldMonth(store, videoId, month);
  }
  for (const [userId, period, start] of userPeriods.values()) await foldUserPeriod(store, userId, period, start);
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
