import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, Harness, makeClip, uploadByTus, type Answer, type CallOptions, type Fixture } from '../src/index';
import { crawl, type CrawlResult } from '../src/link-crawl';
import { buildWorld, type World } from '../src/world';

/**
 * No dead connection (issue 22, "Compatibility" item 3): a populated store is crawled through
 * its representations as the owner, another user and nobody, following every `uri`, connection,
 * interaction, `link` and paging link each is handed on this server. None may answer 405, nor
 * 404 (an interaction that says `added: false` excepted: its GET is the check that answers 404),
 * nor name a method in `options` that no operation takes. Media files are media-crawler's.
 */

interface Crawled extends World {
  /** The transcoded video: its Clip hands out file and download links. */
  played: string;
  /** A video only its owner may see. */
  hidden: string;
  /** Values the patterns name (`{word}`, `{category}`…). */
  names: Record<string, string>;
}

/** buildWorld (A owns one of everything), and around it what people do: follows, likes, queues, replies, subscriptions, a rental. */
async function populate(h: Harness): Promise<Crawled> {
  const world = await buildWorld(h);
  const { a, b, c, vars } = world;
  const call = async (who: Fixture, method: string, path: string, o: CallOptions = {}, ok = [200, 201, 204]): Promise<Answer> => {
    const r = await h.call(method, path, { token: who.token, ...o });
    if (!ok.includes(r.status)) throw new Error(`populate: ${method} ${path} → ${r.status} ${r.text.slice(0, 300)}`);
    return r;
  };
  const v = vars.video_id;
  const played = await uploadByTus(h, a.token, await makeClip({ width: 320, height: 240, seconds: 1 }), { name: 'Played', privacy: { download: true } });
  await h.settle();
  const hidden = await h.video(a, { name: 'Hidden', privacy: { view: 'nobody' } });
  for (const video of [played, hidden]) {
    await call(a, 'PUT', `/channels/${vars.channel_id}/videos/${video}`);
    await call(a, 'PUT', `/me/albums/${vars.album_id}/videos/${video}`);
  }
  await call(b, 'POST', `/videos/${v}/comments/${vars.comment_id}/replies`, { json: { text: 'a reply' } });
  await call(b, 'POST', `/videos/${played}/comments`, { json: { text: 'nice' } });
  // Nobody likes their own video: B likes A's, A likes C's.
  await call(b, 'PUT', `/me/likes/${v}`);
  await call(a, 'PUT', `/me/likes/${await h.video(c, { name: 'Liked' })}`);
  for (const who of [a, b]) {
    await call(who, 'PUT', `/me/watchlater/${played}`);
    await call(who, 'PUT', `/me/watched/videos/${v}`);
    await call(who, 'PUT', `/me/categories/${vars.category}`);
  }
  await call(b, 'PUT', `/me/following/${a.user.id}`);
  await call(c, 'PUT', `/me/following/${a.user.id}`);
  await call(b, 'PUT', `/me/channels/${vars.channel_id}`);
  await call(b, 'PUT', `/me/groups/${vars.group_id}`);
  const page = `/ondemand/pages/${vars.ondemand_id}`;
  await call(a, 'PATCH', page, { json: { publish: { active: true }, link: 'the-series' } });
  // Custom links: the links of A, the channel and the page name them instead of the ids.
  await call(a, 'PATCH', '/me', { json: { link: 'owner-a' } });
  await call(a, 'PATCH', `/channels/${vars.channel_id}`, { json: { link: 'world-channel' } });
  await call(b, 'POST', `${page}/purchases`, { json: { type: 'rent' } });
  // An album with a password and a project holding a video: reached by id, never listed to others.
  await call(a, 'POST', '/me/albums', { json: { name: 'Locked album', description: '', privacy: 'password', password: 'secret' } });
  const names = { word: vars.word, category: vars.category, genre: vars.genre_id, country: vars.country, domain: vars.domain };
  return { ...world, played, hidden, names };
}

/** Where each viewer starts: the index, themselves, the people and the objects of the world, the lists. */
function entriesOf(w: Crawled, viewer: Fixture | null): string[] {
  const { vars } = w;
  const people = [w.a, w.b, w.c].map((u) => `/users/${u.user.id}`);
  const own = viewer
    ? ['/me', '/me/videos', '/me/feed', '/me/likes', '/me/watchlater', '/me/watched/videos', '/me/albums', '/me/projects', '/me/presets', '/me/customlogos', '/me/webhooks', '/me/pictures', '/me/ondemand/pages', '/me/ondemand/purchases', '/me/appearances']
    : [];
  return [
    '/',
    ...own,
    ...people,
    ...people.flatMap((u) => [`${u}/videos`, `${u}/albums`, `${u}/channels`, `${u}/groups`, `${u}/likes`, `${u}/following`, `${u}/followers`]),
    ...[vars.video_id, vars.ondemand_video_id, w.played, w.hidden].map((id) => `/videos/${id}`),
    `/users/${w.a.user.id}/albums/${vars.album_id}`,
    `/users/${w.a.user.id}/projects/${vars.project_id}`,
    `/users/${w.a.user.id}/presets/${vars.preset_id}`,
    `/channels/${vars.channel_id}`,
    `/groups/${vars.group_id}`,
    `/ondemand/pages/${vars.ondemand_id}`,
    '/channels',
    '/groups',
    '/users?query=o',
    '/categories',
    `/categories/${vars.category}/videos`,
    `/tags/${vars.word}/videos`,
    '/ondemand/genres',
    '/ondemand/regions',
  ];
}

/** Who crawls: the owner, another user, nobody; and the owner again in the oldest version, whose representations differ most. */
const viewers = (w: Crawled): [string, Fixture | null, string | undefined][] => [
  ['owner', w.a, undefined],
  ['other', w.b, undefined],
  ['anonymous', null, undefined],
  ['owner (3.2)', w.a, '3.2'],
];

for (const driver of drivers) {
  describe(`link crawler (${driver.name})`, () => {
    let h: Harness;
    let world: Crawled;
    const results: Record<string, CrawlResult> = {};

    before(async () => {
      h = await Harness.start(driver);
      const started = Date.now();
      world = await populate(h);
      const populated = Date.now();
      for (const [name, viewer, version] of viewers(world)) {
        results[name] = await crawl(h, { token: viewer?.token, entries: entriesOf(world, viewer), names: world.names, version });
      }
      const requests = Object.values(results).reduce((n, r) => n + r.visited.size, 0);
      console.log(`[${driver.name}] populated in ${populated - started} ms, crawled ${requests} URLs in ${Date.now() - populated} ms`);
    });
    after(() => h?.stop());

    it('visits a sensible number of distinct URL patterns, each viewer within the bound', () => {
      for (const [viewer, r] of Object.entries(results)) {
        const lines = [...r.patterns.entries()].sort(([x], [y]) => x.localeCompare(y)).map(([p, n]) => `  ${String(n).padStart(4)} ${p}`);
        console.log(`[${driver.name}] ${viewer}: ${r.visited.size} URLs, ${r.patterns.size} patterns\n${lines.join('\n')}`);
        assert.equal(r.truncated, false, `${viewer}: the crawl hit its bound`);
      }
      const least = { owner: 150, other: 140, anonymous: 100, 'owner (3.2)': 140 };
      for (const [viewer, n] of Object.entries(least)) assert.ok(results[viewer].patterns.size >= n, `${viewer}: only ${results[viewer].patterns.size} patterns`);
    });

    it('followed the links that once led nowhere, and custom links', () => {
      // Each was dead before issue 22: the Clip's albums connection and review page, an Activity's
      // uri, and the links of albums, projects, On Demand pages and genres.
      const owner = results.owner.patterns;
      for (const pattern of [
        '/videos/{video_id}/albums',
        '/videos/{video_id}/review/{token}',
        '/users/{user_id}/feed/{activity_id}',
        '/users/{user_id}/albums/{album_id}',
        '/users/{user_id}/projects/{project_id}',
        '/ondemand/pages/{ondemand_id}',
        '/ondemand/genres/{genre_id}',
        '/videos/{video_id}/file',
        '/videos/{video_id}/player',
      ]) {
        assert.ok(owner.has(pattern), `the owner's crawl reached ${pattern}`);
      }
      for (const path of ['/users/owner-a', '/channels/world-channel', '/ondemand/pages/the-series']) {
        assert.equal(results.anonymous.visited.get(path), 200, `${path}, a custom link`);
      }
      assert.ok(results.anonymous.patterns.has('/videos/{video_id}/albums'));
    });

    for (const viewer of ['owner', 'other', 'anonymous', 'owner (3.2)']) {
      it(`${viewer}: no dead connection or link`, () => {
        const dead = results[viewer].dead;
        const lines = dead.map((d) => `${d.pattern} (${d.status}; ${d.where}; in ${d.from}): ${d.problem}`);
        assert.equal(dead.length, 0, `${dead.length} dead:\n${[...new Set(lines)].join('\n')}`);
      });
    }
  });
}
