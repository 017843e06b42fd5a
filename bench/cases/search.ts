import type { PopulationSummary } from '@reelbase/seed';
import { record, type Bench } from '../context';
import { measureRotating } from '../load';
import type { ServerProcess } from '../processes';
import { ms } from '../table';

/** A search read: its name, and the path of its i-th request (a different word each time). */
export interface SearchRead {
  name: string;
  path(i: number): string;
  /** Measured at the latency connections alone (one request at a time), not also at the throughput ones. */
  latencyOnly?: boolean;
}

/** The words searched for: those of the busiest user's first 100 video titles (and their adjacent pairs), and of the first 40 users' names and places. */
export async function sampleWords(server: ServerProcess, busiest: string, headers: Record<string, string>): Promise<{ video: string[]; phrases: string[]; user: string[]; channel: string[] }> {
  const get = async (path: string) => {
    const res = await fetch(server.url + path, { headers });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    return res.json() as Promise<{ name?: string; location?: string | null; data?: { name: string }[] }>;
  };
  const split = (text: string) => text.toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= 4);
  const words = (texts: (string | null | undefined)[]) => [...new Set(split(texts.join(' ')))].sort();
  const videos = (await get(`/users/${busiest}/videos?per_page=100`)).data ?? [];
  const users = await Promise.all(Array.from({ length: 40 }, (_, i) => get(`/users/${i + 1}`)));
  const channels = (await get('/channels?per_page=40')).data ?? [];
  const phrases = [...new Set(videos.flatMap((v) => split(v.name).flatMap((w, i, all) => (i > 0 ? [`${all[i - 1]} ${w}`] : []))))].sort();
  // Title words: each in a tenth of the videos or so. The descriptions' template words (about, filmed, days) are in every one.
  return { video: words(videos.map((v) => v.name)), phrases, user: words(users.flatMap((u) => [u.name, u.location])), channel: words(channels.map((c) => c.name)) };
}

/**
 * The search reads of issue 38, each request a different query so no remembered answer or count
 * serves it (as the issue measured): a common word of the seeded titles and descriptions ranked
 * by relevance, a rare one (one video's own number), a user name or place prefix, and a word
 * within the busiest user's videos. The words come from the store itself (its first videos and
 * users), so the same reads run against any version of the server. Issue 50 adds what people
 * type: one to three words, a prefix, a phrase and an exclusion, in every sort of all videos, the
 * busiest user's videos, users, channels and groups. `distinct` adds an exclusion of a word no document has (`-zq17`) to every query: the
 * vocabulary is small, and without it the server's read cache answers the second round of words.
 */
export async function searchReads(server: ServerProcess, summary: PopulationSummary, headers: Record<string, string>, distinct: boolean): Promise<SearchRead[]> {
  const { user } = summary.busiest;
  if (!user) throw new Error('the population has no user with videos');
  const sample = await sampleWords(server, user.id, headers);
  const q = (words: string[], i: number) => encodeURIComponent(words[i % words.length] + (distinct ? ` -zq${i}` : ''));
  const prefixes = [...new Set(sample.user.map((w) => w.slice(0, 3)))];
  // Numbers of as many digits as the last video's (so no longer number begins with one): each names one video.
  const low = 10 ** (String(summary.videos - 1).length - 1);
  const rare = (i: number) => String(low + ((i * 7919) % (summary.videos - low)));
  // The i-th request's n words of a vocabulary, drawn apart (as a person types two or three of a library's words).
  const drawn = (i: number, n: number, from = sample.video) => Array.from({ length: n }, (_, k) => from[(i * (7 + 2 * k) + k * 13) % from.length]);
  const typed = (text: string, i: number) => encodeURIComponent(text + (distinct ? ` -zq${i}` : ''));
  // Issue 50: the shapes people type, over a vocabulary (and its adjacent pairs, for a phrase).
  const shapes = (from: string[], pairs: string[]): [string, (i: number) => string][] => [
    ['<word>', (i) => drawn(i, 1, from)[0]],
    ['<two words>', (i) => drawn(i, 2, from).join(' ')],
    ['<three words>', (i) => drawn(i, 3, from).join(' ')],
    ['<prefix>', (i) => drawn(i, 1, from)[0].slice(0, 3 + (i % 3))],
    ['<"phrase">', (i) => `"${pairs.length ? pairs[i % pairs.length] : drawn(i, 2, from).join(' ')}"`],
    ['<word -word>', (i) => drawn(i, 2, from).join(' -')],
  ];
  // Every shape in every sort of each search (SPEC.md's sorts of each list); relevance and date of all videos, the issue's targets, also at the throughput connections.
  const searches: [string, string[], string[], string[]][] = [
    ['/videos', ['relevant', 'date', 'plays', 'alphabetical'], sample.video, sample.phrases],
    [`/users/${user.id}/videos`, ['date', 'plays', 'alphabetical'], sample.video, sample.phrases],
    ['/users', ['relevant', 'date', 'followers', 'alphabetical'], sample.user, []],
    ['/channels', ['relevant', 'date', 'followers', 'alphabetical'], sample.channel, []],
    ['/groups', ['relevant', 'date', 'alphabetical'], sample.channel, []],
  ];
  const named = (path: string) => path.replace(`/users/${user.id}/`, '/users/{busiest}/');
  return [
    { name: 'GET /videos?query=<common word>&sort=relevant', path: (i) => `/videos?query=${q(sample.video, i)}&sort=relevant` },
    { name: 'GET /videos?query=<rare word>', path: (i) => `/videos?query=${encodeURIComponent(rare(i) + (distinct ? ` -zq${i}` : ''))}` },
    { name: 'GET /users?query=<prefix>&sort=relevant', path: (i) => `/users?query=${q(prefixes, i)}&sort=relevant` },
    { name: 'GET /users/{busiest}/videos?query=<word>', path: (i) => `/users/${user.id}/videos?query=${q(sample.video, i)}` },
    ...searches.flatMap(([path, sorts, from, pairs]) =>
      shapes(from, pairs).flatMap(([shape, text]) =>
        sorts.map((sort) => ({
          name: `GET ${named(path)}?query=${shape}&sort=${sort}`,
          path: (i: number) => `${path}?query=${typed(text(i), i)}&sort=${sort}`,
          latencyOnly: !(path === '/videos' && (sort === 'relevant' || sort === 'date') && shape !== '<word>'),
        })),
      ),
    ),
  ];
}

/**
 * The search reads at one connection (the p99 target) and at the throughput connections, as a
 * caller with a token (`token`), on a seeded store; `scale` names the store in the rows.
 */
export async function searchCases(b: Bench, server: ServerProcess, summary: PopulationSummary, scale: string, token: string, distinct = true, label = 'reelbase sqlite'): Promise<void> {
  const headers = { authorization: `Bearer ${token}` };
  let worst = 0;
  for (const read of await searchReads(server, summary, headers, distinct)) {
    // One count for both measurements, after the first request's: the throughput run goes on to words the latency run did not ask.
    let next = 1;
    const nextPath = () => read.path(next++);
    const res = await fetch(server.url + read.path(0), { headers });
    const body = (await res.json()) as { total?: number };
    // A server from before a read existed (the bench's "before" column) says so in the row.
    if (res.status !== 200) {
      record(b, { case: `${read.name} (${scale})`, server: label, body: '', rps: null, p50: NaN, p99: NaN, note: `answered ${res.status}` });
      continue;
    }
    for (const connections of read.latencyOnly ? [b.settings.latencyConnections] : [b.settings.latencyConnections, b.settings.connections]) {
      const m = await measureRotating(server.url, b.settings, connections, nextPath, headers);
      if (connections === b.settings.latencyConnections) worst = Math.max(worst, m.p99);
      record(b, { case: `${read.name} (${scale}, first: ${body.total} found), c=${connections}`, server: label, body: '', rps: m.rps, p50: m.p50, p99: m.p99, note: m.failed ? `${m.failed} failed` : '' });
    }
  }
  b.targets.push({ name: `${scale}: search reads at c=${b.settings.latencyConnections}, worst p99`, ours: `${ms(worst)} ms`, peers: '', ratio: '', wanted: '< 20 ms', met: worst < 20 });
}
