import { isoTime } from '../support/time';
import type { Store } from '../store/store';
import { enqueue } from '../jobs/queue';

export const rollupKind = 'analytics.rollup';

/** A fold runs this long after the first event that needs it: one fold takes in a minute of beacons, however many. */
export const foldDelaySeconds = 60;

/** Per store, until when this process has a fold queued: an event asks for one only when none is. */
const queuedUntil = new WeakMap<Store, number>();

/**
 * Asks for a fold (analytics-rollup-job.ts) `foldDelaySeconds` from now unless this process
 * already queued one that is not yet due: the ingest's usual cost stays its one insert. Servers
 * sharing a store may each queue one; folds are idempotent.
 */
export async function requestFold(store: Store, now: Date): Promise<void> {
  if ((queuedUntil.get(store) ?? -Infinity) > now.getTime()) return;
  const due = new Date(now.getTime() + foldDelaySeconds * 1000);
  queuedUntil.set(store, due.getTime());
  await enqueue(store, { kind: rollupKind, subject: 'analytics', payload: {}, run_after: isoTime(due) }, now);
}
