import { array, boolean, enums, object, optional, pattern, refine, size, string } from 'superstruct';
import { contentRatings, privacyComments, privacyEmbeds, privacyViews } from '../catalog/content';
import { ApiError, codes, invalidField } from '../engine/errors';
import { by, listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { ok, operation, updated } from '../engine/operation';
import { actingUser, targetUser } from '../domain/users';
import { representOneUser, representUsers } from './represent-users';
import { hashSecret } from '../domain/secrets';
import type { UserRecord } from '../records';
import { isoTime } from '../support/time';
import { stripUndefined } from '../domain/patch';
import { matching, RELEVANCE } from '../store/search';
import { StoreConflictError, type OrderBy } from '../store/store';

export const getUser = operation({
  id: 'users.get',
  summary: 'Get a user (the caller with /me)',
  method: 'GET',
  paths: ['/me', '/users/{user_id}'],
  async handle(ctx) {
    return ok(await representOneUser(ctx, await targetUser(ctx)), 'user');
  },
});

/** A custom URL slug: letters, digits, `_` and `-`, not all digits (those are ids). */
export const slug = refine(pattern(size(string(), 3, 64), /^[A-Za-z0-9_-]+$/), 'slug', (v) => !/^\d+$/.test(v) || 'must not be all digits');

const updateUserParams = object({
  name: optional(size(string(), 1, 256)),
  bio: optional(size(string(), 0, 5000)),
  location: optional(size(string(), 0, 256)),
  link: optional(slug),
  password: optional(size(string(), 1, 128)),
  content_filter: optional(array(enums(contentRatings))),
  videos: optional(
    object({
      privacy: optional(
        object({
          add: optional(boolean()),
          comments: optional(enums(privacyComments)),
          download: optional(boolean()),
          embed: optional(enums(privacyEmbeds)),
          view: optional(enums(privacyViews)),
        }),
      ),
    }),
  ),
});

export const updateUser = operation({
  id: 'users.update',
  summary: 'Edit a user (only the user themselves)',
  method: 'PATCH',
  paths: ['/me', '/users/{user_id}'],
  scope: 'edit',
  params: updateUserParams,
  async handle(ctx) {
    const user = await actingUser(ctx, 'edit their account');
    const p = ctx.params;
    const defaults = { ...user.video_defaults, ...stripUndefined(p.videos?.privacy ?? {}) };
    const passwordHash = p.password !== undefined ? await hashSecret(p.password) : user.password_hash;
    if (p.videos?.privacy?.view === 'password' && !passwordHash) {
      throw invalidField('password', 'is required when videos.privacy.view is password');
    }
    const patch: Partial<UserRecord> = stripUndefined({
      name: p.name,
      bio: p.bio,
      location: p.location,
      link: p.link,
      content_filter: p.content_filter,
      password_hash: passwordHash,
      video_defaults: defaults,
      modified_time: isoTime(ctx.now()),
    });
    try {
      const saved = await ctx.store.update<UserRecord>('users', user.id, patch);
      return updated(ctx, await representOneUser(ctx, saved!), 'user');
    } catch (e) {
      if (e instanceof StoreConflictError) throw invalidField('link', 'is already taken by another user');
      throw e;
    }
  },
});

/** How lists of users sort by the users' own fields. */
export const userSorts = {
  alphabetical: by('name', 'asc'),
  date: by('created_time', 'desc'),
  followers: by('followers_total', 'desc'),
  videos: by('videos_total', 'desc'),
};
/** `relevant` ranks by how well the query matches (name before bio and location), then by followers. */
const relevantUserSorts = { ...userSorts, relevant: [{ field: RELEVANCE, direction: 'desc' }, ...by('followers_total', 'desc')] as OrderBy[] };
type UserSort = keyof typeof relevantUserSorts;

export const searchUsers = operation({
  id: 'users.search',
  summary: 'Search users; without query (optional, as in the hosted API) it lists every user, newest first',
  method: 'GET',
  paths: ['/users'],
  params: object(listParams<UserSort, never>({ sort: [...(Object.keys(userSorts) as UserSort[]), 'relevant'], query: true })),
  async handle(ctx) {
    if (!ctx.config.userSearch) {
      throw new ApiError(503, codes.unexpected, 'User search is not available right now.', 'User search is disabled on this server.');
    }
    const p = ctx.params as ListParams<UserSort>;
    const query = p.query?.trim();
    if (p.sort === 'relevant' && !query) throw invalidField('query', 'is required when sort is relevant');
    const page = pageOf(p);
    const sort = p.sort ?? (query ? 'relevant' : 'date');
    const result = await ctx.store.find<UserRecord>('users', {
      where: matching(query),
      orderBy: orderOf(relevantUserSorts, sort, p.direction),
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, await representUsers(ctx, result.items), 'user');
  },
});

export const userOperations = [getUser, updateUser, searchUsers];
