import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operations } from '@reelbase/core';
import { drivers, Harness } from '../src/index';
import { createChannel } from '../src/channels';
import { buildWorld, fill, snapshot, type World } from '../src/world';

/**
 * Object-level authorization, generated from the operation table. Every operation id is
 * classified; the test fails when an operation is added without a classification.
 *
 * - `owner`: acts on (or reads) something A owns; stranger B with every scope gets one of `expect`
 *   (default 403 or 404, SPEC.md "Auth" rule 3) on every path, and the store is unchanged.
 * - `self`: a user path naming A (`/users/{user_id}/...`); B calling it on A's path gets 403/404
 *   and the store is unchanged. The `/me` form names B and is B's own business, so it is skipped.
 * - `public`: a read anyone may make on A's public objects (B gets 2xx; not an authorization boundary).
 * - `na`: not applicable, with the reason.
 */
interface Checked {
  kind: 'owner' | 'self';
  /** Statuses SPEC.md allows the stranger; 403 or 404 unless stated. */
  expect?: number[];
  /** A body valid enough to get past validation, so the check reaches authorization. */
  body?: unknown;
  /** Path variables taken from other world entries (`{ video_id: 'shared_video_id' }`). */
  vars?: Record<string, string>;
  only?: 'me' | 'users';
}
type Entry =
  | Checked
  | { kind: 'public' }
  | { kind: 'na'; reason: string };

const owner = (o: Omit<Checked, 'kind'> = {}): Entry => ({ kind: 'owner', ...o });
const self = (o: Omit<Checked, 'kind'> = {}): Entry => ({ kind: 'self', ...o });
const pub: Entry = { kind: 'public' };
const na = (reason: string): Entry => ({ kind: 'na', reason });
const onPage = { video_id: 'ondemand_video_id' };
const customLogo = { logo_id: 'custom_logo_id' };
const albumThumbnail = { thumbnail_id: 'album_thumbnail_id' };
const shared = { video_id: 'shared_video_id' };
const privateChannel = { channel_id: 'private_channel_id' };

const table: Record<string, Entry> = {
  'root.index': na('index of operations; nothing owned'),
  'root.openapi': na('the OpenAPI document of the table; nothing owned'),
  'users.get': pub,
  'users.update': self({ body: { name: 'Hijacked', bio: 'pwned' } }),
  'users.search': pub,
  // Search (issue 38): only what the caller may list, which search.test.ts checks.
  'videos.search': pub,
  'videos.get': pub,
  // Playback (issue 8): readable by whoever may view the video; privacy is the visibility matrix's job.
  'videos.file.get': pub,
  'videos.playback.get': pub,
  'videos.player.get': pub,
  // The review page (issue 22) is a capability: a link signed over the video, handed to its owner only.
  'videos.review.get': na('a signed link answers whoever holds it while the review page is active; forged links are tested in review-page'),
  // Media links (issue 19) are capabilities: a signature over the object and its content version
  // decides, not the caller; media-images, media-texttracks and media-crawler test forged, stale and foreign uses.
  'media.images.get': na('a signed link answers whoever holds it; forged and stale links are tested in media-images'),
  'media.images.upload': na('needs a signed link first; another user\'s PUT is tested in media-images'),
  'media.texttracks.get': na('a signed link answers whoever holds it; tested in media-texttracks'),
  'media.texttracks.upload': na('needs a signed link first; another user\'s PUT is tested in media-texttracks'),
  'media.placeholders.get': na('the service placeholder images; nothing owned'),
  // OAuth (issue 35): the caller is an app or a browser, never a user's token acting on what another owns; oauth.test covers each.
  'oauth.client': na('an app authenticates itself with its own credentials; wrong ones are tested in oauth'),
  'oauth.access_token': na('a code works only for the app it was issued to; a foreign app\'s code is tested in oauth'),
  'oauth.authorize': na('the sign-in page; nothing owned'),
  'oauth.authorize.decide': na('acts for the browser\'s own session, behind its CSRF token; tested in oauth'),
  'oauth.sign_in': na('signs the browser in; tested in oauth and oauth-sign-in'),
  'oauth.sign_out': na('ends the browser\'s own session; tested in oauth'),
  'oauth.sign_up.page': na('the sign-up page; nothing owned'),
  'oauth.sign_up': na('makes a new account; tested in oauth-sign-in'),
  'oauth.verify': na('answers about the presented token only'),
  'tokens.delete': na('revokes the presented token only'),
  'apps.get': pub,
  'users.webhooks.create': self({ body: { url: 'https://hooks.example.com/planted' } }),
  'users.webhooks.list': self(),
  'users.webhooks.get': self(),
  'users.webhooks.delete': self(),
  // The operator's job console: no owner; a token without the admin scope is refused (walk-operations, jobs-console).
  'admin.jobs.list': na('the operator\'s job console; nothing owned'),
  'admin.jobs.get': na('the operator\'s job console; nothing owned'),
  'admin.jobs.retry': na('the operator\'s job console; nothing owned'),
  'admin.jobs.cancel': na('the operator\'s job console; nothing owned'),
  'media.play.get': na('signed, expiring playback links handed out with the Clip; tested in transcoding'),
  'videos.update': owner({ body: { name: 'Hijacked', description: 'pwned' } }),
  'videos.delete': owner(),
  'users.videos.get': owner({ only: 'me' }),
  'users.videos.create': self({ body: { name: 'Planted' } }),
  'users.videos.list': pub,
  'videos.comments.create': na('any user with interact may comment on a public video'),
  'videos.comments.list': pub,
  'videos.comments.get': pub,
  'videos.comments.update': owner({ body: { text: 'pwned' } }),
  'videos.comments.delete': owner(),
  'videos.comments.replies.create': na('any user with interact may reply on a public video'),
  'videos.comments.replies.list': pub,
  'videos.credits.create': owner({ body: { email: 'b@example.com', name: 'B', role: 'Thief', user_uri: '/users/{b}' } }),
  'videos.credits.list': pub,
  'videos.credits.get': pub,
  'videos.credits.update': owner({ body: { name: 'Hijacked', role: 'Thief' } }),
  // SPEC.md: 400 caller is neither the credit creator nor the credited user.
  'videos.credits.delete': owner({ expect: [400, 403, 404] }),
  'videos.texttracks.create': owner({ body: { language: 'fr', name: 'Planted', type: 'subtitles' } }),
  'videos.texttracks.list': pub,
  'videos.texttracks.get': pub,
  'videos.texttracks.update': owner({ body: { name: 'Hijacked' } }),
  'videos.texttracks.delete': owner(),
  'videos.chapters.create': owner({ body: { title: 'Planted', timecode: 1 } }),
  'videos.chapters.list': pub,
  'videos.chapters.get': pub,
  'videos.chapters.thumbnail.get': pub,
  'videos.chapters.update': owner({ body: { title: 'Hijacked' } }),
  'videos.chapters.delete': owner(),
  // oEmbed (issue 49) answers every caller as anybody; its privacy answers are tested in oembed.
  'oembed.get': na('answers as anybody, whoever asks: nothing owned is read beyond what anybody may see'),
  'videos.pictures.create': owner({ body: {} }),
  'videos.pictures.list': pub,
  'videos.pictures.get': pub,
  'videos.pictures.update': owner({ body: { active: false } }),
  'videos.pictures.delete': owner(),
  'videos.timelinethumbnails.create': owner({ body: {} }),
  'videos.timelinethumbnails.get': owner(),
  'videos.presets.assign': owner(),
  // SPEC.md: no scope, 204 when the video has the preset; readable by whoever can see the video.
  'videos.presets.check': pub,
  'videos.presets.remove': owner(),
  'videos.tags.list': pub,
  'videos.tags.add': owner({ body: [{ tag: 'planted' }] }),
  'videos.tags.put': owner({ vars: { word: 'planted' } }),
  'videos.tags.check': pub,
  'videos.tags.delete': owner(),
  'tags.get': pub,
  'tags.videos.list': pub,
  'videos.categories.list': pub,
  'videos.categories.set': owner({ body: { category: ['music'] } }),
  'categories.list': pub,
  'categories.get': pub,
  'categories.videos.list': pub,
  'categories.videos.get': pub,
  'videos.privacy.users.list': owner({ vars: shared }),
  'videos.privacy.users.add': owner({ body: { users: ['/users/{b}'] }, vars: shared }),
  'videos.privacy.users.put': owner({ vars: { ...shared, user_id: 'b' } }),
  'videos.privacy.users.delete': owner({ vars: { ...shared, user_id: 'follow_user_id' } }),
  'videos.privacy.users.clear': owner({ vars: shared }),
  'videos.privacy.domains.list': owner(),
  'videos.privacy.domains.add': owner({ body: { domains: ['evil.example'] } }),
  'videos.privacy.domains.clear': owner(),
  'videos.privacy.domains.get': owner(),
  'videos.privacy.domains.put': owner({ vars: { domain: 'evil.example' } }),
  'videos.privacy.domains.delete': owner(),
  'videos.likes.list': pub,
  // Analytics (issue 49). The report's required query (from, to, dimension) is validated before
  // authorization, so a bare path answers 400: analytics.test.ts checks another user's 403.
  'users.analytics.get': na('its required query is refused (400) before authorization; analytics.test.ts checks a stranger gets 403'),
  'videos.beacons.create': na("a viewer's beacon about a video anybody sends (like fetching it), counted in its owner's analytics"),
  'users.watched.list': self(),
  'users.watched.put': self(),
  'users.watched.get': self(),
  'users.watched.clear': self(),
  'users.watched.delete': self(),
  'videos.versions.create': owner({ body: { file_name: 'evil.mp4', upload: { approach: 'tus', size: 10 } } }),
  'videos.versions.get': owner(),
  'channels.list': pub,
  'channels.create': na('creates a channel of the caller'),
  'channels.get': pub,
  'channels.update': owner({ body: { name: 'Hijacked' } }),
  'channels.delete': owner(),
  'users.channels.list': pub,
  'users.channels.check': pub,
  'users.channels.subscribe': self(),
  'users.channels.unsubscribe': self(),
  'channels.users.list': pub,
  'channels.moderators.list': pub,
  'channels.moderators.add': owner({ body: { user_uri: '/users/{b}' } }),
  'channels.moderators.replace': owner({ body: { user_uri: '/users/{b}' } }),
  'channels.moderators.remove': owner({ body: { user_uri: '/users/{follow_user_id}' } }),
  'channels.moderators.get': pub,
  'channels.moderators.put': owner({ vars: { user_id: 'b' } }),
  'channels.moderators.delete': owner({ vars: { user_id: 'follow_user_id' } }),
  'channels.videos.list': pub,
  'channels.videos.add': owner({ body: { video_uri: '/videos/{ondemand_video_id}' } }),
  'channels.videos.remove': owner({ body: { video_uri: '/videos/{video_id}' } }),
  'channels.videos.get': pub,
  'channels.videos.put': owner({ vars: onPage }),
  'channels.videos.delete': owner(),
  'videos.available_channels.list': owner(),
  'videos.available_albums.list': na("lists the caller's own albums (none of another user's): nothing of the video's owner is reached"),
  'channels.categories.list': pub,
  'channels.categories.set': owner({ body: { channels: ['music'] } }),
  'channels.categories.put': owner({ vars: { category: 'music' } }),
  'channels.categories.delete': owner(),
  'categories.channels.list': pub,
  'channels.tags.list': pub,
  'channels.tags.add': owner({ body: [{ tag: 'planted' }] }),
  'channels.tags.check': pub,
  'channels.tags.put': owner({ vars: { word: 'planted' } }),
  'channels.tags.delete': owner(),
  'channels.privacy.users.list': owner({ vars: privateChannel }),
  'channels.privacy.users.add': owner({ body: { users: ['/users/{b}'] }, vars: privateChannel }),
  'channels.privacy.users.put': owner({ vars: { ...privateChannel, user_id: 'b' } }),
  'videos.recommendations.list': pub,
  'videos.albums.list': pub,
  'users.following.list': pub,
  'users.following.check': pub,
  'users.following.put': self(),
  'users.following.delete': self(),
  'users.following.add': self({ body: { users: ['/users/{b}'] } }),
  'users.followers.list': pub,
  'users.likes.list': pub,
  'users.likes.check': pub,
  'users.likes.put': self({ vars: { video_id: 'b_video_id' } }),
  'users.likes.delete': self({ vars: { video_id: 'liked_video_id' } }),
  'users.watchlater.list': self(),
  'users.watchlater.get': self({ vars: { video_id: 'b_video_id' } }),
  'users.watchlater.put': self(),
  'users.watchlater.delete': self({ vars: { video_id: 'b_video_id' } }),
  'users.pictures.create': self({ body: {} }),
  'users.pictures.list': pub,
  'users.pictures.get': pub,
  'users.pictures.update': owner({ body: { active: false } }),
  'users.pictures.delete': owner(),
  'users.feed.list': self(),
  'users.feed.get': self(),
  'users.appearances.list': na('only /me: always the caller'),
  'users.categories.list': self(),
  'users.categories.check': self(),
  'users.categories.follow': self({ vars: { category: 'music' } }),
  'users.categories.unfollow': self({ vars: { category: 'followed_category' } }),
  // The User's connections beyond SPEC.md (issue 22): what is shared with a user and whom they block are theirs to read.
  'users.shared.list': self(),
  'users.block.list': self(),
  'users.recommendations.channels.list': self(),
  'users.recommendations.users.list': self(),
  'users.portfolios.list': pub,
  'groups.list': pub,
  'groups.create': na('creates a group of the caller'),
  'groups.get': pub,
  'groups.update': owner({ body: { name: 'Hijacked' } }),
  'groups.delete': owner(),
  'groups.users.list': pub,
  'users.groups.list': pub,
  'users.groups.check': pub,
  'users.groups.join': self({ vars: { group_id: 'b_group_id' } }),
  'users.groups.leave': self({ vars: { group_id: 'b_group_id' } }),
  'groups.videos.list': pub,
  'groups.videos.get': pub,
  'groups.videos.put': owner({ vars: onPage }),
  'groups.videos.delete': owner(),
  'categories.groups.list': pub,
  'categories.users.list': pub,
  'users.albums.list': pub,
  'users.albums.create': self({ body: { name: 'Planted', description: '' } }),
  'users.albums.get': pub,
  'users.albums.update': owner({ body: { name: 'Hijacked' } }),
  'users.albums.delete': owner(),
  'users.albums.videos.list': pub,
  'users.albums.videos.replace': owner({ body: { videos: '/videos/{ondemand_video_id}' } }),
  'users.albums.videos.get': pub,
  'users.albums.videos.put': owner({ vars: onPage }),
  'users.albums.videos.delete': owner(),
  'users.albums.logos.list': owner(),
  'users.albums.logos.create': owner(),
  'users.albums.logos.get': owner(),
  'users.albums.logos.update': owner({ body: { active: false } }),
  'users.albums.logos.delete': owner(),
  // Custom thumbnails (issue 22: the album's add_custom_thumbnails interaction) are the owner's, like logos.
  'users.albums.custom_thumbnails.list': owner(),
  'users.albums.custom_thumbnails.create': owner(),
  'users.albums.custom_thumbnails.get': owner({ vars: albumThumbnail }),
  'users.albums.custom_thumbnails.update': owner({ vars: albumThumbnail, body: { active: false } }),
  'users.albums.custom_thumbnails.delete': owner({ vars: albumThumbnail }),
  // The album's player page shows what the list of its videos shows whoever asks.
  'albums.player.get': pub,
  'users.projects.list': self(),
  'users.projects.create': self({ body: { name: 'Planted' } }),
  'users.projects.get': owner(),
  'users.projects.update': owner({ body: { name: 'Hijacked' } }),
  'users.projects.delete': owner(),
  'users.projects.videos.list': owner(),
  'users.projects.videos.add': owner({ body: { uris: '/videos/{ondemand_video_id}' } }),
  'users.projects.videos.remove': owner({ body: { uris: '/videos/{video_id}' } }),
  'users.projects.videos.put': owner({ vars: onPage }),
  'users.projects.videos.delete': owner(),
  'ondemand.pages.create': self({ body: { name: 'Planted', description: 'x', type: 'film', content_rating: ['safe'], buy: { active: true, price: { USD: 1 } } } }),
  'ondemand.pages.list': pub,
  'ondemand.pages.get': pub,
  'ondemand.pages.update': owner({ body: { link: 'hijacked' } }),
  'ondemand.pages.delete': owner(),
  'ondemand.genres.list': pub,
  'ondemand.genres.get': pub,
  'ondemand.genres.pages.list': pub,
  'ondemand.pages.genres.list': pub,
  'ondemand.pages.genres.get': pub,
  'ondemand.pages.genres.add': owner({ vars: { genre_id: 'comedy' } }),
  'ondemand.pages.genres.delete': owner(),
  'ondemand.regions.list': pub,
  'ondemand.regions.get': pub,
  'ondemand.pages.regions.list': pub,
  'ondemand.pages.regions.add': owner({ vars: { country: 'other_country' } }),
  'ondemand.pages.regions.delete': owner(),
  'ondemand.pages.regions.delete_many': owner({ body: { countries: ['{country}'] } }),
  'ondemand.pages.posters.create': owner({ body: {} }),
  'ondemand.pages.posters.list': pub,
  'ondemand.pages.posters.get': pub,
  'ondemand.pages.posters.update': owner({ body: { active: false } }),
  'ondemand.pages.backgrounds.create': owner({ body: {} }),
  'ondemand.pages.backgrounds.list': pub,
  'ondemand.pages.backgrounds.get': pub,
  'ondemand.pages.backgrounds.update': owner({ body: { active: false } }),
  'ondemand.pages.backgrounds.delete': owner(),
  'ondemand.pages.videos.put': owner({ body: { type: 'extra' } }),
  'ondemand.pages.videos.get': pub,
  'ondemand.pages.videos.delete': owner({ vars: onPage }),
  'ondemand.pages.videos.list': pub,
  'ondemand.pages.seasons.list': pub,
  'ondemand.pages.seasons.get': pub,
  'ondemand.pages.seasons.videos.list': pub,
  'ondemand.pages.likes.list': pub,
  'ondemand.pages.comments.list': pub,
  'ondemand.pages.promotions.create': owner({ body: { type: 'single', total: 10, download: false, stream_period: '1_week' } }),
  'ondemand.pages.promotions.list': owner(),
  'ondemand.pages.promotions.get': owner(),
  'ondemand.pages.promotions.codes.list': owner(),
  'ondemand.pages.promotions.delete': owner(),
  'ondemand.pages.purchases.create': na('any user may buy a page; the purchase is the caller\'s'),
  'ondemand.purchases.list': self(),
  'ondemand.purchases.get': self(),
  'users.presets.create': self({ body: { name: 'Planted' } }),
  'users.presets.list': self(),
  'users.presets.get': owner(),
  'users.presets.update': owner({ body: { name: 'Hijacked' } }),
  'users.presets.delete': owner(),
  'users.presets.videos.list': owner(),
  'users.customlogos.create': self({ body: {} }),
  'users.customlogos.list': self(),
  'users.customlogos.get': owner({ vars: customLogo }),
  // Streaming uploads (issue 8): only the uploader reaches their tickets and upload attempts; the
  // ticket / upload is A's video still taking a streaming upload (made in the matrix's before()).
  'users.tickets.get': owner({ vars: { ticket: 'streaming_video_id' } }),
  'users.uploads.get': owner({ vars: { upload: 'streaming_video_id' } }),
  'users.uploads.complete': owner({ vars: { upload: 'streaming_video_id' }, body: { signature: 'forged', video_file_id: 1 } }),
};

/** Owner requests that cannot succeed as written in the control, with the reason. */
const controlExempt: Record<string, string> = {
  'channels.moderators.put': 'channels.moderators.add/replace earlier in the control already made B a moderator',
  'channels.moderators.remove': 'channels.moderators.replace earlier in the control already replaced C',
  'channels.moderators.delete': 'channels.moderators.replace earlier in the control already replaced C',
  'channels.videos.delete': 'channels.videos.remove earlier in the control already took the video out',
  'users.albums.videos.delete': 'users.albums.videos.replace earlier in the control already replaced the video',
  'users.projects.videos.delete': 'users.projects.videos.remove earlier in the control already took the video out',
  'users.uploads.complete': 'completing needs bytes sent to the upload link first (the upload tests cover it)',
  'ondemand.purchases.get': 'A bought nothing in the world; both the owner and the stranger get 404',
};

/** Deletes of whole objects run last in the control, so deletes inside them still find them. */
const wholeObjectDeletes = new Set([
  'videos.delete', 'channels.delete', 'groups.delete', 'users.albums.delete', 'users.projects.delete',
  'ondemand.pages.delete', 'users.presets.delete', 'users.watched.clear',
]);

/** Substitutes `{a}`, `{b}` and world variables inside a body. */
const fillBody = (value: unknown, vars: Record<string, string>): unknown => {
  if (typeof value === 'string') return value.replace(/\{(\w+)\}/g, (_, n: string) => vars[n] ?? `{${n}}`);
  if (Array.isArray(value)) return value.map((v) => fillBody(v, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillBody(v, vars)]));
  return value;
};

describe('authorization matrix: classification', () => {
  it('classifies every operation of the table, and nothing else', () => {
    const ids = operations.map((op) => op.id);
    const missing = ids.filter((id) => !(id in table));
    assert.deepEqual(missing, [], `operations the authorization matrix does not classify: ${missing.join(', ')}`);
    const stale = Object.keys(table).filter((id) => !ids.includes(id));
    assert.deepEqual(stale, [], `classified ids that are no longer operations: ${stale.join(', ')}`);
  });
});

for (const driver of drivers) {
  describe(`authorization matrix: a stranger with every scope on the owner's objects (${driver.name})`, () => {
    let h: Harness;
    let w: World;
    let vars: Record<string, string>;
    before(async () => {
      h = await Harness.start(driver);
      w = await buildWorld(h);
      vars = { ...w.vars, a: w.a.user.id, b: w.b.user.id };
      // Extra objects the self-path cases need: something A already did, something B owns.
      vars.b_video_id = await h.video(w.b, { name: 'B video' });
      vars.b_group_id = String((await h.call('POST', '/groups', { token: w.b.token, json: { name: 'B group' } })).body.uri).split('/').pop()!;
      assert.equal((await h.call('PUT', `/me/likes/${vars.b_video_id}`, { token: w.a.token })).status, 204);
      vars.liked_video_id = vars.b_video_id;
      assert.equal((await h.call('PUT', `/me/categories/${vars.category}`, { token: w.a.token })).status, 204);
      vars.followed_category = vars.category;
      assert.equal((await h.call('PUT', `/me/watchlater/${vars.b_video_id}`, { token: w.a.token })).status, 204);
      assert.equal((await h.call('PUT', `/me/groups/${vars.b_group_id}`, { token: w.a.token })).status, 204);
      vars.other_country = 'FR';
      // A video shared with a user list (C), a channel private to a user list, C a moderator of A's channel.
      vars.shared_video_id = await h.video(w.a, { name: 'Shared', privacy: { view: 'users' } });
      assert.equal((await h.call('PUT', `/videos/${vars.shared_video_id}/privacy/users/${w.c.user.id}`, { token: w.a.token })).status < 300, true);
      vars.private_channel_id = await createChannel(h, w.a, 'Private channel', { privacy: 'user' });
      await h.follow(w.a, w.b);
      const streaming = await h.call('POST', '/me/videos', { token: w.a.token, json: { name: 'Streaming', upload: { approach: 'streaming', size: 100 } } });
      assert.equal(streaming.status, 201, streaming.text);
      vars.streaming_video_id = String(streaming.body.uri).split('/').pop()!;
      assert.equal((await h.call('PUT', `/channels/${vars.channel_id}/moderators/${w.c.user.id}`, { token: w.a.token })).status, 204);
    });
    after(() => h.stop());

    let cases = 0;
    const tested = operations.filter((op) => ['owner', 'self'].includes(table[op.id]?.kind));
    const pathsOf = (op: (typeof operations)[number]): string[] => {
      const entry = table[op.id] as Checked;
      return op.paths.filter((p) => {
        if (entry.kind === 'self' || entry.only === 'users') return p.includes('{user_id}') && !p.startsWith('/me');
        if (entry.only === 'me') return p.startsWith('/me');
        return true;
      });
    };
    const requestOf = (op: (typeof operations)[number], path: string) => {
      const entry = table[op.id] as Checked;
      const local = { ...vars };
      for (const [k, v] of Object.entries(entry.vars ?? {})) local[k] = vars[v] ?? v;
      const body = entry.body === undefined ? undefined : fillBody(entry.body, local);
      return { url: fill(path, local), json: op.method === 'GET' ? undefined : body ?? {} };
    };
    for (const op of operations) {
      const entry = table[op.id];
      if (!entry || (entry.kind !== 'owner' && entry.kind !== 'self')) continue;
      const paths = pathsOf(op);
      it(`${op.id} (${entry.kind}): ${op.method} ${paths.join(' | ')}`, async () => {
        assert.ok(paths.length > 0, 'no path to try');
        const expected = entry.expect ?? [403, 404];
        for (const path of paths) {
          const { url, json } = requestOf(op, path);
          const before = await snapshot(h);
          const r = await h.call(op.method, url, { token: w.b.token, json });
          cases++;
          assert.ok(expected.includes(r.status), `${op.method} ${url} by a stranger → ${r.status} (expected ${expected.join('/')}): ${r.text.slice(0, 300)}`);
          assert.deepEqual(await snapshot(h), before, `${op.method} ${url} by a stranger changed the store`);
        }
      });
    }
    it('covered cases', (t) => {
      t.diagnostic(`authorization matrix (${driver.name}): ${tested.length} operations, ${cases} stranger cases`);
      assert.ok(cases > 100);
    });

    // Control: the very same requests by the owner succeed, so the stranger's 403/404 came from
    // authorization and not from a wrong id or body. Deletes go last so they find their objects.
    it('control: the owner making the same requests gets 2xx', async () => {
      const rank = (op: (typeof operations)[number]): number => (wholeObjectDeletes.has(op.id) ? 2 : op.method === 'DELETE' ? 1 : 0);
      const order = [...tested].sort((x, y) => rank(x) - rank(y));
      const failures: string[] = [];
      for (const op of order) {
        if (controlExempt[op.id]) continue;
        // The first path only: a second path would find the first one's work done (or undone).
        for (const path of pathsOf(op).slice(0, 1)) {
          const { url, json } = requestOf(op, path);
          const r = await h.call(op.method, url.replace(`/me/`, `/users/${vars.a}/`), { token: w.a.token, json });
          if (r.status >= 300) failures.push(`${op.id}: ${op.method} ${url} → ${r.status} ${r.text.slice(0, 160)}`);
        }
      }
      assert.deepEqual(failures, []);
    });
  });
}
