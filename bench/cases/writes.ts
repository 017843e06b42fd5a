import { record, type Bench, type QuickWorld } from '../context';
import { drive, type Drive } from '../load';
import { usersWithTokens } from '../populations';
import { startReelbase } from '../processes';

const followRequests = 200;
const batch = 100;
const burst = { writes: 10_000, clients: 50 };

/**
 * Writes on both drivers: bulk follows of 100 users (each request by its own new user, so every
 * follow is a new row), then a burst of 10,000 comments on one video from 50 clients, checking
 * afterwards that every one was stored and counted.
 */
export async function writeCases(b: Bench, world: QuickWorld): Promise<void> {
  const users = world.summary.users;
  const video = world.summary.busiest.video!.id;
  for (const driver of ['sqlite', 'json'] as const) {
    const path = world.stores[driver];
    const followers = b.wants('follow') ? await usersWithTokens(driver, path, followRequests + 10, 'Follower') : [];
    const writers = b.wants('burst') ? await usersWithTokens(driver, path, burst.clients, 'Writer') : [];
    const server = await startReelbase(`${driver}:${path}`);
    try {
      if (followers.length) {
        const follow = (i: number) => ({
          method: 'POST',
          path: '/me/following',
          token: followers[i].token,
          json: { users: Array.from({ length: batch }, (_, j) => `/users/${((i * 37 + j) % users) + 1}`) },
        });
        await drive(server.url, 10, 1, (i) => follow(followRequests + i));
        const d = await drive(server.url, followRequests, b.settings.latencyConnections, follow);
        record(b, driveRow('POST /me/following (100 users)', driver, d, 204));
        if (driver === 'sqlite') {
          b.targets.push({ name: 'bulk follow of 100 users, p99', ours: `${d.p99.toFixed(1)} ms`, peers: '', ratio: '', wanted: '< 50 ms', met: d.p99 < 50 && ok(d, 204) });
        }
      }
      if (writers.length) {
        const before = await commentsTotal(server.url, video);
        const d = await drive(server.url, burst.writes, burst.clients, (i) => ({
          method: 'POST',
          path: `/videos/${video}/comments`,
          token: writers[i % burst.clients].token,
          json: { text: `Burst comment ${i}` },
        }));
        const after = await commentsTotal(server.url, video);
        const stored = after.listed - before.listed;
        const counted = after.counter - before.counter;
        const whole = ok(d, 201) && stored === burst.writes && counted === burst.writes;
        record(b, { ...driveRow('burst: 10,000 comments, 50 clients', driver, d, 201), note: `${d.throughput.toFixed(0)} writes/s in ${d.seconds.toFixed(1)} s; ${stored} stored, ${counted} counted` });
        b.targets.push({
          name: `burst of 10,000 writes, 50 clients (${driver})`,
          ours: `${d.throughput.toFixed(0)} writes/s`,
          peers: '',
          ratio: '',
          wanted: 'nothing lost',
          met: whole,
        });
      }
    } finally {
      await server.stop();
    }
  }
}

const ok = (d: Drive, status: number): boolean => Object.keys(d.statuses).every((s) => Number(s) === status);

const driveRow = (name: string, driver: string, d: Drive, status: number) => ({
  case: name,
  server: `reelbase ${driver}`,
  body: '',
  rps: d.throughput,
  p50: d.p50,
  p99: d.p99,
  note: ok(d, status) ? '' : `statuses ${JSON.stringify(d.statuses)}`,
});

/** The video's comments as its list counts them and as its Clip's counter says. */
async function commentsTotal(base: string, video: string): Promise<{ listed: number; counter: number }> {
  const list = (await (await fetch(`${base}/videos/${video}/comments?per_page=1`)).json()) as { total: number };
  const clip = (await (await fetch(`${base}/videos/${video}`)).json()) as { metadata: { connections: { comments: { total: number } } } };
  return { listed: list.total, counter: clip.metadata.connections.comments.total };
}
