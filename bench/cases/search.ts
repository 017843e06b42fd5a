import type { PopulationSummary } from '@reelbase/core';
import { record, type Bench } from '../context';
import { measure } from '../load';
import type { ServerProcess } from '../processes';
import { ms } from '../table';

/**
 * The search reads of issue 38 against a seeded store, at one connection (the p99 target) and at
 * the throughput connections: a common word ranked by relevance (a format in most titles and
 * descriptions), a rare one (a video's own number), a user name prefix, and a word within the
 * busiest user's videos. `scale` names the store in the rows.
 */
export async function searchCases(b: Bench, server: ServerProcess, summary: PopulationSummary, scale: string): Promise<void> {
  const { user } = summary.busiest;
  if (!user) throw new Error('the population has no user with videos');
  const reads = [
    { name: 'GET /videos?query=<common word>&sort=relevant', path: '/videos?query=documentary&sort=relevant' },
    { name: 'GET /videos?query=<rare word>', path: `/videos?query=${Math.ceil(summary.videos / 2)}` },
    { name: 'GET /users?query=<prefix>', path: '/users?query=ama' },
    { name: 'GET /users/{busiest}/videos?query=<word>', path: `/users/${user.id}/videos?query=harbour` },
  ];
  let worst = 0;
  for (const read of reads) {
    const res = await fetch(server.url + read.path);
    const body = (await res.json()) as { total?: number };
    if (res.status !== 200) throw new Error(`${read.path} answered ${res.status}`);
    for (const connections of [b.settings.latencyConnections, b.settings.connections]) {
      const m = await measure(server.url + read.path, b.settings, connections);
      if (connections === b.settings.latencyConnections) worst = Math.max(worst, m.p99);
      record(b, { case: `${read.name} (${scale}, ${body.total} found), c=${connections}`, server: 'reelbase sqlite', body: '', rps: m.rps, p50: m.p50, p99: m.p99, note: m.failed ? `${m.failed} failed` : '' });
    }
  }
  b.targets.push({ name: `${scale}: search reads at c=${b.settings.latencyConnections}, worst p99`, ours: `${ms(worst)} ms`, peers: '', ratio: '', wanted: '< 20 ms', met: worst < 20 });
}
