import { boolean, enums, object, optional, pattern, refine, size, string, type Infer } from 'superstruct';
import type { UserRecord, VideoRecord } from '../records';
import { forbidden, invalidField, notFound } from '../engine/errors';
import { by } from '../engine/list';
import type { Context } from '../engine/operation';
import { since } from '../engine/versions';
import { isoTime } from '../support/time';
import type { AlbumRecord } from '../records/album';
import { readDomain } from './embed-domains';
import { findById } from './lookup';
import { stripUndefined } from './patch';
import { hashSecret } from './secrets';
import { passwordGuess } from './password-guesses';
import { targetUser } from './users';
import { assertCanView } from './visibility';

/** How lists of albums sort (SPEC.md, GET /me/albums): alphabetical, date (newest first), duration, videos (most first). */
export const albumListSorts = {
  alphabetical: by('name', 'asc'),
  date: by('created_time', 'desc'),
  duration: by('duration', 'desc'),
  videos: by('videos_total', 'desc'),
};
export type AlbumListSort = keyof typeof albumListSorts;

/** SPEC.md, Album: the album's own `sort`, which `sort=default` of its video list follows. */
export const albumSorts = ['added_first', 'added_last', 'alphabetical', 'arranged', 'comments', 'likes', 'newest', 'oldest', 'plays'] as const;

const nonBlank = (max: number) => refine(size(string(), 1, max), 'nonBlank', (v) => v.trim() !== '' || 'must not be blank');

/**
 * The writable fields of SPEC.md's Album table, and the hosted API's custom domain (`domain`, an
 * empty string removing it, and `use_custom_domain`); creation makes name and description required.
 */
export const albumFields = {
  name: optional(nonBlank(128)),
  description: optional(size(string(), 0, 5000)),
  privacy: optional(enums(['anybody', 'embed_only', 'password'])),
  password: optional(size(string(), 1, 128)),
  sort: optional(enums(albumSorts)),
  brand_color: optional(pattern(string(), /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/)),
  hide_nav: optional(boolean()),
  layout: optional(enums(['grid', 'player'])),
  review_mode: optional(boolean()),
  theme: optional(enums(['dark', 'standard'])),
  domain: optional(size(string(), 0, 253)),
  use_custom_domain: optional(boolean()),
};
export const newAlbumFields = { ...albumFields, name: nonBlank(128), description: size(string(), 0, 5000) };

const albumStruct = object(albumFields);
export type AlbumInput = Infer<typeof albumStruct>;

/** The record a new album starts as, before the request's fields. */
export function newAlbum(owner: UserRecord, now: string): Omit<AlbumRecord, 'id'> {
  return {
    user_id: owner.id,
    name: '',
    description: '',
    privacy_view: 'anybody',
    password_hash: null,
    // Until the owner picks a sort, viewers see the videos in the order they were put in.
    sort: 'arranged',
    brand_color: null,
    hide_nav: false,
    layout: 'grid',
    review_mode: false,
    theme: 'standard',
    domain: null,
    use_custom_domain: false,
    active_logo: null,
    active_thumbnail: null,
    videos_total: 0,
    duration: 0,
    created_time: now,
    modified_time: now,
  };
}

/**
 * The stored fields a create or edit sets, after the rules that span fields: `embed_only` exists
 * from 3.2 (SPEC.md: "older form: anybody, password"), and password privacy needs a password
 * unless the album already has one. Leaving password privacy forgets the password. Opting in to
 * the custom domain needs one; removing the domain opts out.
 */
export async function albumPatch(ctx: Context<unknown>, input: AlbumInput, current: AlbumRecord | null): Promise<Partial<AlbumRecord>> {
  if (input.privacy === 'embed_only' && !since(ctx.version, 'albumsCurrentForm')) {
    throw invalidField('privacy', 'must be one of anybody, password in this API version');
  }
  const view = input.privacy ?? current?.privacy_view ?? 'anybody';
  let passwordHash: string | null | undefined;
  if (view !== 'password') passwordHash = current?.password_hash ? null : undefined;
  else if (input.password !== undefined) passwordHash = await hashSecret(input.password);
  else if (!current?.password_hash) throw invalidField('password', 'is required when privacy is password');
  const domain = input.domain === undefined ? undefined : input.domain === '' ? null : readDomain(input.domain, 'domain');
  const hasDomain = (domain === undefined ? (current?.domain ?? null) : domain) !== null;
  if (input.use_custom_domain && !hasDomain) throw invalidField('use_custom_domain', 'needs a domain: send `domain` too');
  return stripUndefined<Partial<AlbumRecord>>({
    name: input.name?.trim(),
    description: input.description,
    privacy_view: input.privacy,
    password_hash: passwordHash,
    sort: input.sort,
    brand_color: input.brand_color && `#${input.brand_color.replace(/^#/, '').toLowerCase()}`,
    hide_nav: input.hide_nav,
    layout: input.layout,
    review_mode: input.review_mode,
    theme: input.theme,
    domain,
    // Without a domain there is nothing to opt in to.
    use_custom_domain: hasDomain ? input.use_custom_domain : false,
    modified_time: isoTime(ctx.now()),
  });
}

/** The album a `/me/albums/{album_id}` or `/users/{user_id}/albums/{album_id}` path names, with its owner (404 when the user has no such album). */
export async function loadAlbum(ctx: Context<unknown>): Promise<{ album: AlbumRecord; owner: UserRecord }> {
  const owner = await targetUser(ctx);
  const album = await findById<AlbumRecord>(ctx.store, 'albums', ctx.path.album_id);
  if (!album || album.user_id !== owner.id) throw notFound('album');
  return { album, owner };
}

/** Like loadAlbum, for an action only the album's owner may take (403 otherwise). */
export async function loadOwnedAlbum(ctx: Context<unknown>, action: string): Promise<{ album: AlbumRecord; owner: UserRecord }> {
  const found = await loadAlbum(ctx);
  if (found.owner.id !== ctx.principal.user?.id) throw forbidden(`Only the album's owner may ${action}.`);
  return found;
}

/** A password album's videos are for its owner, and for others with its password (403 otherwise). */
export async function assertAlbumOpen(ctx: Context<unknown>, album: AlbumRecord, password: string | undefined): Promise<void> {
  if (album.privacy_view !== 'password' || album.user_id === ctx.principal.user?.id) return;
  const guess = passwordGuess(ctx, password);
  if (!guess) throw forbidden('This album is password protected: send its password as the `password` parameter.');
  if (!(await guess(`album:${album.id}`, album.password_hash))) throw forbidden('The album password is wrong.');
}

/**
 * Whether the album's owner may put a video in it: their own videos always; another user's
 * video when they may see it (404 otherwise) and its `privacy.add` allows it (403 otherwise).
 */
/** May `caller` add the video to their albums: their own, or another's that its owner lets others add (and has no password). */
export const mayAddToAlbums = (video: VideoRecord, caller: UserRecord): boolean =>
  video.user_id === caller.id || (video.privacy_view !== 'password' && video.privacy.add);

export async function assertMayAddToAlbum(ctx: Context<unknown>, album: AlbumRecord, video: VideoRecord): Promise<void> {
  if (video.user_id === album.user_id) return;
  if (video.privacy_view === 'password') throw forbidden("Another user's password-protected video cannot be added to an album.");
  await assertCanView(ctx.store, video, ctx.principal.user);
  if (!video.privacy.add) throw forbidden("The video's owner does not allow adding it to albums (privacy.add is false).");
}

