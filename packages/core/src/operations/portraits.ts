import { boolean, object, optional } from 'superstruct';
import { by, listParams, listReply, pageOf } from '../engine/list';
import { deleted, ok, operation, updated, type Context } from '../engine/operation';
import { noteActivity } from '../domain/activity';
import { loadPortrait, ofUser, portraitUri } from '../domain/portraits';
import { actingUser, targetUser } from '../domain/users';
import { representContext } from './represent-context';
import { setPictureActive } from '../domain/video-pictures';
import type { PictureRecord, UserRecord } from '../records';
import { isoTime } from '../support/time';
import { representPicture } from '../representations/picture';
import { pictureMediaPrefix } from '../media/image-links';

const itemPaths = ['/me/pictures/{portraitset_id}', '/users/{user_id}/pictures/{portraitset_id}'];
const portraits = 'change their portraits';

const represent = (ctx: Context<unknown>, picture: PictureRecord) => representPicture(picture, portraitUri(picture), representContext(ctx), picture.owner_id);

export const createPortrait = operation({
  id: 'users.pictures.create',
  summary: "Add a portrait to the user's portrait sets (active: make it the one shown)",
  method: 'POST',
  paths: ['/me/pictures', '/users/{user_id}/pictures'],
  scope: 'upload',
  params: object({ active: optional(boolean()) }),
  async handle(ctx) {
    const user = await actingUser(ctx, portraits);
    const now = isoTime(ctx.now());
    const picture = await ctx.store.insert<PictureRecord>('pictures', {
      owner_kind: 'user',
      owner_id: user.id,
      active: false,
      time: null,
      type: 'custom',
      created_time: now,
      modified_time: now,
    });
    await ctx.store.increment('users', user.id, 'pictures_total', 1);
    await noteActivity(ctx, user);
    // SPEC.md's row answers 200 here in every version (video thumbnails moved to 201 in 3.2).
    return ok(represent(ctx, await setPictureActive(ctx.store, picture, ctx.params.active ?? false, now)), 'picture');
  },
});

export const listPortraits = operation({
  id: 'users.pictures.list',
  summary: "List a user's portraits, newest first",
  method: 'GET',
  paths: ['/me/pictures', '/users/{user_id}/pictures'],
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const user = await targetUser(ctx);
    const page = pageOf(ctx.params);
    const result = await ctx.store.find<PictureRecord>('pictures', {
      where: ofUser(user.id),
      orderBy: [...by('created_time', 'desc'), ...by('id', 'desc')],
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, result.items.map((p) => represent(ctx, p)), 'picture');
  },
});

export const getPortrait = operation({
  id: 'users.pictures.get',
  summary: "Get one of a user's portraits",
  method: 'GET',
  paths: itemPaths,
  async handle(ctx) {
    return ok(represent(ctx, await loadPortrait(ctx.store, await targetUser(ctx), ctx.path.portraitset_id)), 'picture');
  },
});

export const updatePortrait = operation({
  id: 'users.pictures.update',
  summary: "Make a portrait the user's active one (the others stop being active), or stop using it",
  method: 'PATCH',
  paths: itemPaths,
  scope: 'edit',
  params: object({ active: optional(boolean()) }),
  async handle(ctx) {
    const user = await actingUser(ctx, portraits);
    const picture = await loadPortrait(ctx.store, user, ctx.path.portraitset_id);
    const saved = await setPictureActive(ctx.store, picture, ctx.params.active ?? picture.active, isoTime(ctx.now()));
    await noteActivity(ctx, user);
    return updated(ctx, represent(ctx, saved), 'picture');
  },
});

export const deletePortrait = operation({
  id: 'users.pictures.delete',
  summary: "Delete one of the user's portraits",
  method: 'DELETE',
  paths: itemPaths,
  scope: 'delete',
  async handle(ctx) {
    const user = await actingUser(ctx, portraits);
    const picture = await loadPortrait(ctx.store, user, ctx.path.portraitset_id);
    // Deleting the active portrait brings back the placeholder rather than promoting one nobody chose.
    if (picture.active) await ctx.store.update<UserRecord>('users', user.id, { active_picture: null });
    await ctx.store.delete('pictures', picture.id);
    await ctx.store.increment('users', user.id, 'pictures_total', -1);
    await noteActivity(ctx, user);
    return deleted([pictureMediaPrefix(picture)]);
  },
});

export const portraitOperations = [createPortrait, listPortraits, getPortrait, updatePortrait, deletePortrait];
