import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, fetchBytes, Harness, imageSize, makeClip, makeImage, uploadByTus, type Answer, type CallOptions, type Fixture, putFile } from '../src/index';
import { checkBlobs } from '@reelbase/core';
import { FsBlobStore } from '@reelbase/blobs-fs';
import { addVideo, createChannel } from '../src/channels';
import { createGroup } from '../src/groups';
import { addGenre, createPage, film } from '../src/ondemand';

/**
 * A crawler: a populated store is walked through its representations, as each of three viewers
 * (the owner, another user, nobody) receives them, and every image, text-track and playback link
 * handed out is fetched the way a browser would (no token). None may be dead: each image and
 * track answers 200 with the type and the size its representation stated, and 304 to a
 * conditional repeat; each playback link (and every playlist and segment its HLS master leads
 * to) answers 200 with its type, privately cached for a day. A private video's links reach only
 * its owner.
 */

/** One small clip and two images, made once for every upload of every driver. */
let inputs: Promise<[Buffer, Buffer, Buffer]> | undefined;
const media = () => (inputs ??= Promise.all([makeClip({ width: 320, height: 240, seconds: 2 }), makeImage('jpeg', 800, 600), makeImage('png', 400, 300, '#2980b9')]));

const vtt = 'WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n\n00:01.000 --> 00:02.000\nWorld\n';
const srt = '1\n00:00:00,000 --> 00:00:01,000\nHola\n\n2\n00:00:01,000 --> 00:00:02,000\nMundo\n';

const idOf = (uri: string): string => String(uri).split('/').filter(Boolean).pop()!;

/** What the crawl must find, by object (`<family>/<id>` as media links name them). */
interface World {
  alice: Fixture;
  bob: Fixture;
  carol: Fixture;
  /** Every path the viewers GET (all answer the owner); each is walked when it answers 200. */
  entries: string[];
  /** Entry points anybody may read: a crawl that skipped them would find too little. */
  publicEntries: string[];
  /** Objects whose links show an upload, a frame of a video, or the placeholder of a picture without image. */
  uploads: string[];
  frames: string[];
  placeholders: string[];
  tracks: string[];
  /** Transcoded videos (`play/<id>`): their renditions and HLS master. */
  plays: string[];
  /** Objects of the private video: only its owner may be handed their links. */
  privateObjects: string[];
  /** Image objects and the number of sizes each is served in. */
  sizes: Record<string, number>;
}

async function populate(h: Harness): Promise<World> {
  const [clipBytes, jpegBytes, pngBytes] = await media();
  const alice = await h.user('Alice Owner');
  const bob = await h.user('Bob Other');
  const carol = await h.user('Carol Plain');
  const call = async (who: Fixture, method: string, path: string, o: CallOptions = {}, ok = [200, 201, 204]): Promise<Answer> => {
    const r = await h.call(method, path, { token: who.token, ...o });
    if (!ok.includes(r.status)) throw new Error(`populate: ${method} ${path} → ${r.status} ${r.text.slice(0, 300)}`);
    return r;
  };
  const put = async (who: Fixture, link: string, body: Uint8Array | string, type: string): Promise<void> => {
    const r = await putFile(link, body, who.token, type);
    if (r.status !== 200) throw new Error(`populate: PUT ${link} → ${r.status} ${await r.text()}`);
  };
  /**
   * POSTs a picture-like record, uploads `bytes` to its link and makes it active (PATCH, or at
   * creation for custom logos, which have no PATCH); answers its id.
   */
  const uploaded = async (who: Fixture, collection: string, bytes: Buffer, type = 'image/jpeg', patch = true): Promise<string> => {
    const made = await call(who, 'POST', collection, { json: patch ? {} : { active: true } });
    await put(who, made.body.link, bytes, type);
    if (patch) await call(who, 'PATCH', made.body.uri, { json: { active: true } });
    return idOf(made.body.uri);
  };
  const track = async (video: string, language: string, file?: [string, string]): Promise<string> => {
    const made = await call(alice, 'POST', `/videos/${video}/texttracks`, { json: { type: 'captions', language, name: language.toUpperCase() } });
    if (file) await put(alice, made.body.link, file[0], file[1]);
    return idOf(made.body.uri);
  };

  const portrait = await uploaded(alice, '/me/pictures', jpegBytes);
  const unloadedPortrait = idOf((await call(bob, 'POST', '/me/pictures', { json: { active: true } })).body.uri);

  // Every upload is transcoded before anything is made of it: only an available video shows frames.
  const framed = await uploadByTus(h, alice.token, clipBytes, { name: 'Framed' });
  const picked = await uploadByTus(h, alice.token, clipBytes, { name: 'Picked' });
  const timed = await uploadByTus(h, alice.token, clipBytes, { name: 'Timed' });
  const hidden = await uploadByTus(h, alice.token, clipBytes, { name: 'Private', privacy: { view: 'nobody' } });
  const feature = await uploadByTus(h, alice.token, clipBytes, { name: 'Feature' });
  const transcoded = await h.settle();
  if (transcoded !== 5) throw new Error(`populate: ${transcoded} transcodes ran, not 5`);
  const pickedPicture = await uploaded(alice, `/videos/${picked}/pictures`, jpegBytes);
  const timedPicture = idOf((await call(alice, 'POST', `/videos/${timed}/pictures`, { json: { time: 1, active: true } })).body.uri);
  const hiddenPicture = await uploaded(alice, `/videos/${hidden}/pictures`, jpegBytes);
  const hiddenTrack = await track(hidden, 'es', [srt, 'application/x-subrip']);
  const bare = await h.video(alice, { name: 'Never uploaded' });
  const barePicture = idOf((await call(alice, 'POST', `/videos/${bare}/pictures`, { json: {} })).body.uri);
  const videos = [framed, picked, timed, hidden, bare];

  const vttTrack = await track(framed, 'en', [vtt, 'text/vtt']);
  const emptyTrack = await track(framed, 'fr');
  const srtTrack = await track(picked, 'de', [srt, 'application/x-subrip']);
  const frameThumbnail = idOf((await call(alice, 'POST', `/videos/${framed}/timelinethumbnails`, { json: {} })).body.uri);
  const madeThumbnail = await call(alice, 'POST', `/videos/${picked}/timelinethumbnails`, { json: {} });
  await put(alice, madeThumbnail.body.link, jpegBytes, 'image/jpeg');
  const uploadedThumbnail = idOf(madeThumbnail.body.uri);

  const channel = await createChannel(h, alice, 'Crawled channel');
  for (const v of videos) await addVideo(h, alice, channel, v);
  const album = idOf((await call(alice, 'POST', '/me/albums', { json: { name: 'Crawled album', description: '' } })).body.uri);
  for (const v of videos) await call(alice, 'PUT', `/me/albums/${album}/videos/${v}`);
  const logos = `/users/${alice.user.id}/albums/${album}/logos`;
  const logo = await uploaded(alice, logos, pngBytes, 'image/png');
  const unloadedLogo = idOf((await call(alice, 'POST', logos, { json: {} })).body.uri);
  const group = await createGroup(h, alice, 'Crawled group');
  for (const v of videos) await call(alice, 'PUT', `/groups/${group}/videos/${v}`);

  const page = await createPage(h, alice, film());
  await addGenre(h, alice, page);
  await call(alice, 'PUT', `/ondemand/pages/${page}/videos/${feature}`, { json: { type: 'main' } });
  const poster = await uploaded(alice, `/ondemand/pages/${page}/pictures`, jpegBytes);
  const background = await uploaded(alice, `/ondemand/pages/${page}/backgrounds`, jpegBytes);
  await call(alice, 'PATCH', `/ondemand/pages/${page}`, { json: { publish: { active: true } } });
  const customLogo = await uploaded(alice, '/me/customlogos', pngBytes, 'image/png', false);

  const users = [alice, bob, carol].map((u) => `/users/${u.user.id}`);
  const a = users[0];
  const entries = [
    '/me',
    '/me/videos',
    '/me/pictures',
    '/me/customlogos',
    '/me/albums',
    '/me/channels',
    '/me/groups',
    '/me/ondemand/pages',
    ...users.flatMap((u) => [u, `${u}/videos`, `${u}/pictures`]),
    `${a}/albums`,
    `${a}/channels`,
    `${a}/groups`,
    `${a}/customlogos`,
    ...[feature, ...videos].flatMap((v) => [`/videos/${v}`, `/videos/${v}/pictures`, `/videos/${v}/texttracks`]),
    `/videos/${framed}/timelinethumbnails/${frameThumbnail}`,
    `/videos/${picked}/timelinethumbnails/${uploadedThumbnail}`,
    `/channels/${channel}`,
    `/channels/${channel}/videos`,
    ...videos.flatMap((v) => [
      `/channels/${channel}/videos/${v}`,
      `/groups/${group}/videos/${v}`,
      `${a}/albums/${album}/videos/${v}`,
    ]),
    `/groups/${group}`,
    `/groups/${group}/videos`,
    `${a}/albums/${album}`,
    `${a}/albums/${album}/videos`,
    logos,
    `/ondemand/pages/${page}`,
    `/ondemand/pages/${page}/videos`,
    `/ondemand/pages/${page}/pictures`,
    `/ondemand/pages/${page}/backgrounds`,
  ];
  const publicEntries = [
    ...users,
    `/videos/${framed}`,
    `/videos/${picked}/texttracks`,
    `/channels/${channel}/videos`,
    `/groups/${group}/videos`,
    `${a}/albums/${album}/videos`,
    `/ondemand/pages/${page}`,
  ];
  const thumbnails = (ids: string[]) => Object.fromEntries(ids.map((k) => [k, 7]));
  return {
    alice,
    bob,
    carol,
    entries,
    publicEntries,
    uploads: [
      `pictures/${portrait}`,
      `pictures/${pickedPicture}`,
      `pictures/${hiddenPicture}`,
      `pictures/${logo}`,
      `pictures/${poster}`,
      `pictures/${background}`,
      `customlogos/${customLogo}`,
      `timelinethumbnails/${uploadedThumbnail}`,
    ],
    frames: [`videos/${framed}`, `videos/${feature}`, `pictures/${timedPicture}`, `timelinethumbnails/${frameThumbnail}`],
    placeholders: [`pictures/${unloadedPortrait}`, `pictures/${barePicture}`, `pictures/${unloadedLogo}`],
    tracks: [vttTrack, emptyTrack, srtTrack, hiddenTrack].map((t) => `texttracks/${t}`),
    plays: [framed, picked, timed, hidden, feature].map((v) => `play/${v}`),
    privateObjects: [`pictures/${hiddenPicture}`, `texttracks/${hiddenTrack}`, `play/${hidden}`],
    sizes: {
      ...thumbnails([pickedPicture, hiddenPicture, logo, poster, background, timedPicture, barePicture, unloadedLogo].map((p) => `pictures/${p}`)),
      ...thumbnails([`customlogos/${customLogo}`, `timelinethumbnails/${uploadedThumbnail}`, `timelinethumbnails/${frameThumbnail}`]),
      ...thumbnails([`videos/${framed}`, `videos/${feature}`]),
      [`pictures/${portrait}`]: 9,
      [`pictures/${unloadedPortrait}`]: 9,
    },
  };
}

/** A media link as the crawl found it: the sizes representations stated for it, and who was handed it where. */
interface Found {
  stated: Set<string>;
  from: Set<string>;
  viewers: Set<string>;
}

/** Every string in a JSON value that is a media link of this server, with the size stated beside it (a `sizes` entry). */
function collect(value: unknown, origin: string, found: (link: string, stated: string | null) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, origin, found);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  for (const [key, v] of Object.entries(o)) {
    if (typeof v === 'string') {
      if (!v.startsWith(`${origin}/media/`) && !v.startsWith(`${origin}/static/`)) continue;
      const sized = key === 'link' && typeof o.width === 'number' && typeof o.height === 'number';
      found(v, sized ? `${o.width}x${o.height}` : null);
    } else collect(v, origin, found);
  }
}

/** Runs `work` over `items`, `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

type Kind = 'upload' | 'frame' | 'placeholder' | 'static' | 'vtt' | 'm3u8' | 'play' | 'unknown';

/**
 * A playback link: a rendition's MP4 or the HLS master (handed out), a rendition's playlist
 * (reached from the master, naming byte ranges of the MP4), or the playlist and segments of a set
 * made before fragmented MP4s; the storyboard's WebVTT file (handed out) and its sheets.
 */
const playLink = /^\/media\/play\/\d+\/r\d+(?:a\d+)?-\d+-[0-9a-f]{32}\/(?:\d+p\.mp4|master\.m3u8|\d+p\.m3u8|storyboard\.vtt|storyboard-\d+\.jpg|\d+p\/(?:index\.m3u8|seg_\d+\.ts))$/;

/** The kind of a media link, by its pattern. */
function kindOf(path: string): Kind {
  if (/^\/static\/placeholders\/(portrait|thumbnail)_\d+x\d+\.png$/.test(path)) return 'static';
  if (playLink.test(path)) return 'play';
  if (/^\/media\/texttracks\/[^/]+\/v\d+(?:a\d+)?-\d+-[0-9a-f]{32}\.vtt$/.test(path)) return 'vtt';
  if (/^\/media\/texttracks\/[^/]+\/v\d+(?:a\d+)?-\d+-[0-9a-f]{32}\.m3u8$/.test(path)) return 'm3u8';
  const m = /^\/media\/(?:pictures|customlogos|timelinethumbnails|videos)\/[^/]+\/([^/]+)-[0-9a-f]{32}(?:\/\d+x\d+\.(?:jpg|png))?$/.exec(path);
  if (!m) return 'unknown';
  // An image of a video that is not public is bound to its access: `<content>.a<version>.e<expires>`.
  const content = m[1].replace(/\.a\d+\.e\d+$/, '');
  if (/^u\d+$/.test(content)) return 'upload';
  if (/^f[0-9a-f]{12}t\d+$/.test(content)) return 'frame';
  return content === 'p' ? 'placeholder' : 'unknown';
}

/** `<family>/<id>` of a /media/ link. */
const objectOf = (path: string): string => path.split('/').slice(2, 4).join('/');

const contentTypes: Record<string, string[]> = {
  jpg: ['image/jpeg'],
  png: ['image/png'],
  vtt: ['text/vtt; charset=utf-8'],
  m3u8: ['application/vnd.apple.mpegurl'],
  master: ['image/jpeg', 'image/png'],
};

const playTypes: Record<string, string> = { mp4: 'video/mp4', m3u8: 'application/vnd.apple.mpegurl', ts: 'video/mp2t', vtt: 'text/vtt; charset=utf-8', jpg: 'image/jpeg' };

/**
 * What is wrong with a playback link: it answers 200 with its type, privately cached for a day
 * (the link expires; the files under it never change) with validators (ETag, Last-Modified) that
 * a conditional repeat answers 304; an MP4 answers a range
 * with 206; a playlist's every entry (variant playlists, segments) answers the same way.
 */
async function inspectPlay(link: string): Promise<string[]> {
  const r = await fetchBytes(link);
  if (r.status !== 200) return [`${r.status} ${r.bytes.toString('utf8').slice(0, 120)}`];
  const problems: string[] = [];
  const ext = new URL(link).pathname.split('.').pop()!;
  const etag = r.headers.get('etag');
  const headers = { type: r.headers.get('content-type'), cache: r.headers.get('cache-control'), etag: Boolean(etag), modified: Boolean(r.headers.get('last-modified')) };
  const expected = { type: playTypes[ext], cache: 'private, max-age=86400', etag: true, modified: true };
  if (JSON.stringify(headers) !== JSON.stringify(expected)) problems.push(`headers ${JSON.stringify(headers)}, not ${JSON.stringify(expected)}`);
  if (etag && (await fetchBytes(link, { 'if-none-match': etag })).status !== 304) problems.push('no 304 to If-None-Match');
  if (ext === 'mp4') {
    const range = await fetchBytes(link, { range: 'bytes=0-99' });
    if (range.status !== 206 || range.bytes.length !== 100 || range.headers.get('content-range') !== `bytes 0-99/${r.bytes.length}`) {
      problems.push(`Range bytes=0-99 → ${range.status} with ${range.bytes.length} bytes, ${range.headers.get('content-range')}`);
    }
  }
  if (ext === 'vtt') {
    const sheets = [...new Set([...r.bytes.toString('utf8').matchAll(/^(.+)#xywh=\d+,\d+,\d+,\d+$/gm)].map((m) => m[1]))];
    if (!sheets.length) problems.push('a storyboard without tiles');
    for (const sheet of sheets) problems.push(...(await inspectPlay(new URL(sheet, link).href)).map((p) => `${sheet}: ${p}`));
  }
  if (ext === 'm3u8') {
    const text = r.bytes.toString('utf8');
    const entries = [...new Set(text.split('\n').filter((line) => line && !line.startsWith('#')))];
    if (!text.startsWith('#EXTM3U') || !entries.length) problems.push('not an HLS playlist');
    for (const entry of entries) {
      const href = new URL(entry, link).href;
      if (!playLink.test(new URL(href).pathname)) problems.push(`its entry ${entry} is no playback link`);
      else problems.push(...(await inspectPlay(href)).map((p) => `${entry}: ${p}`));
    }
  }
  return problems;
}

/** Fetches a link as a browser would and answers what is wrong with it (nothing: an empty list). */
async function inspect(link: string, found: Found, collected: Map<string, Found>): Promise<string[]> {
  if (kindOf(new URL(link).pathname) === 'play') return inspectPlay(link);
  const problems: string[] = [];
  const r = await fetchBytes(link);
  if (r.status !== 200) return [`${r.status} ${r.bytes.toString('utf8').slice(0, 120)}`];
  const ext = /\.(jpg|png|vtt|m3u8)$/.exec(new URL(link).pathname)?.[1] ?? 'master';
  const type = r.headers.get('content-type') ?? '';
  if (!contentTypes[ext].includes(type)) problems.push(`Content-Type ${type} for .${ext}`);
  if (ext === 'vtt' && !r.bytes.toString('utf8').startsWith('WEBVTT')) problems.push('not WebVTT');
  if (ext === 'm3u8') {
    const text = r.bytes.toString('utf8');
    const segment = text.split('\n').find((line) => line && !line.startsWith('#'));
    if (!text.startsWith('#EXTM3U') || !segment) problems.push('not an HLS playlist');
    else if (!collected.has(new URL(segment, link).href)) {
      // The playlist's segment is the track's own `link`; one the crawl was not handed must still answer.
      const s = await fetchBytes(new URL(segment, link).href);
      if (s.status !== 200) problems.push(`its segment ${segment} answers ${s.status}`);
    }
  }
  if (ext === 'jpg' || ext === 'png' || ext === 'master') {
    const size = await imageSize(r.bytes).catch(() => null);
    if (!size) problems.push('does not decode');
    else {
      if (`image/${size.format}` !== type) problems.push(`decodes as ${size.format}, served as ${type}`);
      for (const stated of found.stated) if (stated !== `${size.width}x${size.height}`) problems.push(`stated ${stated}, decodes ${size.width}x${size.height}`);
    }
  }
  const etag = r.headers.get('etag');
  const lastModified = r.headers.get('last-modified');
  if (!etag) problems.push('no ETag');
  else {
    const again = await fetchBytes(link, { 'if-none-match': etag });
    if (again.status !== 304 || again.bytes.length) problems.push(`If-None-Match → ${again.status} with ${again.bytes.length} bytes`);
  }
  if (!lastModified) problems.push('no Last-Modified');
  else {
    const again = await fetchBytes(link, { 'if-modified-since': lastModified });
    if (again.status !== 304 || again.bytes.length) problems.push(`If-Modified-Since → ${again.status} with ${again.bytes.length} bytes`);
  }
  return problems;
}

for (const driver of drivers) {
  describe(`media crawler (${driver.name})`, () => {
    let h: Harness;
    let world: World;
    /** Every media link handed out, by link. */
    const collected = new Map<string, Found>();
    /** Status of every entry point, by viewer. */
    const statuses: Record<string, Record<string, number>> = {};

    before(async () => {
      h = await Harness.start(driver);
      const started = Date.now();
      world = await populate(h);
      const populated = Date.now();
      const viewers: [string, string | undefined][] = [
        ['owner', world.alice.token],
        ['other', world.bob.token],
        ['anonymous', undefined],
      ];
      const origin = h.server.url;
      for (const [viewer, token] of viewers) {
        statuses[viewer] = {};
        await pool(world.entries, 8, async (path) => {
          const r = await h.call('GET', path, { token });
          statuses[viewer][path] = r.status;
          if (r.status !== 200) return;
          collect(r.body, origin, (link, stated) => {
            const f = collected.get(link) ?? { stated: new Set(), from: new Set(), viewers: new Set() };
            if (stated) f.stated.add(stated);
            f.from.add(path);
            f.viewers.add(viewer);
            collected.set(link, f);
          });
        });
      }
      console.log(`[${driver.name}] populated in ${populated - started} ms, crawled ${world.entries.length * viewers.length} answers in ${Date.now() - populated} ms`);
    });
    after(() => h.stop());

    it('every entry point answered its owner, and those anybody may read every viewer', () => {
      const failed = world.entries.filter((path) => statuses.owner[path] !== 200);
      assert.deepEqual(failed, [], `owner: ${failed.map((p) => `${p} → ${statuses.owner[p]}`).join(', ')}`);
      for (const viewer of Object.keys(statuses)) {
        const failed = world.publicEntries.filter((path) => statuses[viewer][path] !== 200);
        assert.deepEqual(failed, [], `${viewer}: ${failed.map((p) => `${p} → ${statuses[viewer][p]}`).join(', ')}`);
      }
      assert.equal(statuses.other['/me'], 200);
    });

    it('found links of every kind, for every object made, each served in all its sizes', () => {
      const names: Kind[] = ['upload', 'frame', 'placeholder', 'static', 'vtt', 'm3u8', 'play', 'unknown'];
      const kinds = Object.fromEntries(names.map((k) => [k, 0])) as Record<Kind, number>;
      const objects = Object.fromEntries(names.map((k) => [k, new Set<string>()])) as Record<Kind, Set<string>>;
      const linksOf = new Map<string, Set<string>>();
      for (const link of collected.keys()) {
        const path = new URL(link).pathname;
        const kind = kindOf(path);
        kinds[kind]++;
        const object = kind === 'static' ? path.split('/')[3].split('_')[0] : objectOf(path);
        objects[kind].add(object);
        // The owner's link of an object without a file also carries its one-time upload capability: the same link.
        if (kind !== 'static') linksOf.set(object, (linksOf.get(object) ?? new Set()).add(link.replace(/\?upload=[0-9a-f]{32}$/, '')));
      }
      console.log(`[${driver.name}] ${collected.size} media links:`, JSON.stringify(kinds));
      assert.deepEqual([...objects.unknown], [], 'every media link has a known pattern');
      const missing = (kind: Kind, expected: string[]) => expected.filter((o) => !objects[kind].has(o));
      assert.deepEqual(missing('upload', world.uploads), [], 'uploaded images');
      assert.deepEqual(missing('frame', world.frames), [], 'frames of videos');
      assert.deepEqual(missing('placeholder', world.placeholders), [], 'placeholders of pictures without an image');
      assert.deepEqual(missing('static', ['portrait', 'thumbnail']), [], 'service placeholders');
      assert.deepEqual(missing('vtt', world.tracks), [], 'WebVTT files');
      assert.deepEqual(missing('m3u8', world.tracks), [], 'HLS subtitle playlists');
      assert.deepEqual(missing('play', world.plays), [], 'playback links of transcoded videos');
      // One master and one link per size: an object handed out under two versions would show more.
      const wrong = Object.entries(world.sizes)
        .map(([object, n]) => [object, linksOf.get(object)?.size ?? 0, n + 1] as const)
        .filter(([, got, want]) => got !== want);
      assert.deepEqual(wrong, [], 'links per image object: [object, found, expected]');
      for (const track of world.tracks) assert.equal(linksOf.get(track)?.size, 2, `${track}: one .vtt and one .m3u8 link`);
      // A 320x240 clip has one rendition: its MP4 (in play and files alike; marked in download, which counts it), and the master playlist.
      for (const play of world.plays) assert.deepEqual([...(linksOf.get(play) ?? [])].map((l) => l.split('/').pop()).sort(), ['240p.mp4', '240p.mp4?download=true', 'master.m3u8', 'storyboard.vtt'], play);
      assert.ok(kinds.upload >= 66 && kinds.frame >= 32 && kinds.placeholder >= 26 && kinds.static >= 16 && kinds.vtt >= 4 && kinds.m3u8 >= 4 && kinds.play === 20);
    });

    it('every link answers 200 without a token, as stated, and (images, tracks) 304 to a conditional repeat (0 dead links)', async () => {
      const started = Date.now();
      const links = [...collected.keys()];
      const problems = await pool(links, 8, async (link) => {
        const found = collected.get(link)!;
        return (await inspect(link, found, collected)).map((p) => `${link} (handed out by ${[...found.from].slice(0, 3).join(', ')}): ${p}`);
      });
      const dead = problems.flat();
      console.log(`[${driver.name}] fetched ${links.length} links (×3 with the conditional repeats) in ${Date.now() - started} ms`);
      assert.equal(dead.length, 0, `${dead.length} dead links:\n${dead.join('\n')}`);
    });

    it('after the crawl (every size rendered, every frame cached) the files match the records: blobs check is clean', async () => {
      const found = await checkBlobs(h.service.store, new FsBlobStore(h.filesDir), { now: h.clock.now(), graceSeconds: 0 });
      assert.deepEqual([found.orphans.map((b) => b.key), found.missing.map((b) => `${b.key} (${b.owner})`)], [[], []]);
      assert.ok(found.blobs > 100, `${found.blobs} files checked`);
    });

    it('the private video’s picture, track and playback links were handed to its owner only', () => {
      const byObject = (object: string) => [...collected.entries()].filter(([link]) => new URL(link).pathname.startsWith(`/media/${object}/`));
      for (const object of world.privateObjects) {
        const handed = byObject(object);
        assert.ok(handed.length > 0, `${object}: the owner received its links`);
        for (const [link, f] of handed) {
          assert.deepEqual([...f.viewers], ['owner'], `${link} was handed to ${[...f.viewers].join(', ')} by ${[...f.from].join(', ')}`);
        }
      }
    });
  });
}
