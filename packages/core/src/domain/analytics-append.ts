import type { Store } from '../store/store';
import type { AnalyticsEventRecord } from './analytics-events';

/** The events waiting for a store's next write, and that write's outcome. */
interface Batch {
  events: Omit<AnalyticsEventRecord, 'id'>[];
  written: Promise<void>;
}

const pending = new WeakMap<Store, Batch>();

/**
 * Appends an event durably, answering once it is committed. Beacons arriving together (those this
 * process reads in one turn of its event loop) are written by one insertMany: one commit, one
 * fsync on SQLite, for all of them, where a commit each bounded the ingest by the disk's syncs.
 */
export function appendEvent(store: Store, event: Omit<AnalyticsEventRecord, 'id'>): Promise<void> {
  let batch = pending.get(store);
  if (!batch) {
    const events: Batch['events'] = [];
    const written = new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        pending.delete(store);
        store.insertMany('analytics_events', events).then(() => resolve(), reject);
      });
    });
    pending.set(store, (batch = { events, written }));
  }
  batch.events.push(event);
  return batch.written;
}
