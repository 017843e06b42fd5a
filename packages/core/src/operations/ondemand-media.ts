import { boolean, object, optional } from 'superstruct';
import { listParams, listReply, pageOf } from '../engine/list';
import { created, deleted, ok, operation, updated, type Context } from '../engine/operation';
import { since } from '../engine/versions';
import { addMedia, deleteMedia, loadMedia, mediaUri, pageMedia, setMediaActive, type MediaKind } from '../domain/ondemand-media';
import { loadOwnedPage, loadVisiblePage } from '../domain/ondemand-pages';
import type { OndemandPageRecord } from '../records/ondemand';
import { representContext } from './represent-context';
import type { PictureRecord } from '../records';
import { isoTime } from '../support/time';
import { representPicture } from '../representations/picture';
import { pictureMediaPrefix } from '../media/image-links';
import { ownedPicturesPage } from '../domain/owned-pictures';

const represent = (ctx: Context<unknown>, kind: MediaKind, page: OndemandPageRecord, picture: PictureRecord) =>
  representPicture(picture, mediaUri(kind, picture), representContext(ctx), page.user_id);

const activeParam = object({ active: optional(boolean()) });

/** The list, get and edit operations, alike for posters and backgrounds; paths spelled out so the table reads like SPEC.md. */
function mediaOperations(kind: MediaKind, plural: string, base: string, one: string) {
  const { noun } = pageMedia[kind];
  const list = operation({
    id: `ondemand.pages.${plural}.list`,
    summary: `List the ${plural} of an On Demand page, newest first`,
    method: 'GET',
    paths: [base],
    params: object(listParams({ direction: false })),
    async handle(ctx) {
      const page = await loadVisiblePage(ctx);
      const p = pageOf(ctx.params);
      const result = await ownedPicturesPage(ctx.store, pageMedia[kind], page.id, p);
      return listReply(ctx, p, result.total, result.items.map((m) => represent(ctx, kind, page, m)), 'picture');
    },
  });
  const get = operation({
    id: `ondemand.pages.${plural}.get`,
    summary: `Get a ${noun} of an On Demand page`,
    method: 'GET',
    paths: [one],
    async handle(ctx) {
      const page = await loadVisiblePage(ctx);
      return ok(represent(ctx, kind, page, await loadMedia(ctx.store, kind, page, ctx.path[`${kind}_id`])), 'picture');
    },
  });
  const update = operation({
    id: `ondemand.pages.${plural}.update`,
    summary: `Make a ${noun} the page's active one, or stop using it`,
    method: 'PATCH',
    paths: [one],
    scope: 'edit',
    params: activeParam,
    async handle(ctx) {
      const page = await loadOwnedPage(ctx, `edit the ${plural} of the page`);
      const picture = await loadMedia(ctx.store, kind, page, ctx.path[`${kind}_id`]);
      const saved = await setMediaActive(ctx.store, kind, picture, ctx.params.active ?? picture.active, isoTime(ctx.now()));
      return updated(ctx, represent(ctx, kind, page, saved), 'picture');
    },
  });
  return [list, get, update];
}

export const addPoster = operation({
  id: 'ondemand.pages.posters.create',
  summary: 'Add a poster to an On Demand page (the first one becomes active)',
  method: 'POST',
  paths: ['/ondemand/pages/{ondemand_id}/pictures'],
  scope: 'upload',
  params: activeParam,
  async handle(ctx) {
    const page = await loadOwnedPage(ctx, 'add posters to the page');
    const body = represent(ctx, 'poster', page, await addMedia(ctx.store, 'poster', page, ctx.params.active, isoTime(ctx.now())));
    // Poster routes date from 3.1, when POST pictures answered 200 (SPEC.md, Versioning).
    return since(ctx.version, 'pictureCreated') ? created(body, 'picture') : ok(body, 'picture');
  },
});

export const addBackground = operation({
  id: 'ondemand.pages.backgrounds.create',
  summary: 'Add a background image to an On Demand page (the first one becomes active)',
  method: 'POST',
  paths: ['/ondemand/pages/{ondemand_id}/backgrounds'],
  scope: 'upload',
  params: activeParam,
  async handle(ctx) {
    const page = await loadOwnedPage(ctx, 'add backgrounds to the page');
    return ok(represent(ctx, 'background', page, await addMedia(ctx.store, 'background', page, ctx.params.active, isoTime(ctx.now()))), 'picture');
  },
});

export const deleteBackground = operation({
  id: 'ondemand.pages.backgrounds.delete',
  summary: 'Delete a background image of an On Demand page',
  method: 'DELETE',
  paths: ['/ondemand/pages/{ondemand_id}/backgrounds/{background_id}'],
  scope: 'edit',
  async handle(ctx) {
    const page = await loadOwnedPage(ctx, 'delete the backgrounds of the page');
    const background = await loadMedia(ctx.store, 'background', page, ctx.path.background_id);
    await deleteMedia(ctx.store, 'background', background);
    return deleted([pictureMediaPrefix(background)]);
  },
});

export const ondemandMediaOperations = [
  addPoster,
  ...mediaOperations('poster', 'posters', '/ondemand/pages/{ondemand_id}/pictures', '/ondemand/pages/{ondemand_id}/pictures/{poster_id}'),
  addBackground,
  ...mediaOperations(
    'background',
    'backgrounds',
    '/ondemand/pages/{ondemand_id}/backgrounds',
    '/ondemand/pages/{ondemand_id}/backgrounds/{background_id}',
  ),
  deleteBackground,
];
