import type { BlobAccess } from '../blobs/blob-store';
import type { Store } from '../store/store';
import type { JobRecord } from './job-records';

/**
 * The name of an attempt's local files (`scratch`, `materialise`): `<kind>-<job id>-a<attempt>`,
 * and `<that>-<part>` for several. Attempts never share a directory (issue 48): a dying attempt's
 * last writes cannot land in the next attempt's outputs, and the next one never has to empty a
 * directory something may still be writing to.
 */
export const attemptScratch = (job: Pick<JobRecord, 'kind' | 'id' | 'attempts'>, part?: string): string =>
  `${job.kind}-${job.id}-a${job.attempts}${part === undefined ? '' : `-${part}`}`;

const attemptOf = (name: string): { kind: string; id: string; attempt: number } | null => {
  const m = /^([a-z-]+?)-(\d+)-a(\d+)(?:-[\w-]+)?$/.exec(name);
  return m ? { kind: m[1], id: m[2], attempt: Number(m[3]) } : null;
};

/**
 * Removes what the earlier attempts of `job` left here. Called when an attempt starts, after its
 * claim: the processes of the earlier attempts are dead by then (their tools die with them, see
 * packages/media/src/watched-child.ts) or have lost the lease and are killing theirs, so the
 * removal retries while their last writes land. One that still fails is told on stderr and left to
 * the sweep: it never fails the attempt.
 */
export async function dropEarlierAttempts(blobs: BlobAccess, job: JobRecord): Promise<void> {
  const earlier = (await blobs.scratchNames()).filter((name) => {
    const a = attemptOf(name);
    return !!a && a.kind === job.kind && a.id === job.id && a.attempt < job.attempts;
  });
  await Promise.all(earlier.map((name) => blobs.dropScratch(name).catch((e: unknown) => console.error('reelbase worker:', e))));
}

/**
 * The scratch directories and job copies here that no running attempt owns: that of an attempt
 * whose job has moved on (finished, queued again, claimed again) or is gone, and any not named
 * for an attempt (left by an earlier version). What `blobs check` reports and the start-up sweep
 * removes. A directory is made only after its attempt's claim commits, so listing first and
 * reading the jobs after never takes a starting attempt's directory for a dead one.
 */
export async function deadScratch(store: Store, blobs: BlobAccess): Promise<string[]> {
  const dead: string[] = [];
  for (const name of await blobs.scratchNames()) {
    const a = attemptOf(name);
    const job = a && (await store.get<JobRecord>('jobs', a.id));
    if (!job || job.kind !== a!.kind || job.state !== 'running' || job.attempts !== a!.attempt) dead.push(name);
  }
  return dead.sort();
}

/** The start-up sweep: removes the dead attempts' directories (see deadScratch); answers how many. */
export async function sweepScratch(store: Store, blobs: BlobAccess): Promise<number> {
  const dead = await deadScratch(store, blobs);
  for (const name of dead) await blobs.dropScratch(name);
  return dead.length;
}
