import { object } from 'superstruct';
import { listParams, type ListParams } from '../engine/list';
import { operation } from '../engine/operation';
import { appearancesOf } from '../domain/appearances';
import { targetUser } from '../domain/users';
import { clipSorts, type ClipSort } from '../domain/video-lists';
import { listVisibleVideos } from './video-lists';

export const listAppearances = operation({
  id: 'users.appearances.list',
  summary: 'List the videos the user is credited in that the user may see',
  method: 'GET',
  // SPEC.md names only the /me form; the User's appearances connection needs the /users/{user_id} twin (request convention 6).
  paths: ['/me/appearances', '/users/{user_id}/appearances'],
  params: object(listParams({ sort: Object.keys(clipSorts) as ClipSort[], filter: ['embeddable'] as const, query: true, filterEmbeddable: true })),
  async handle(ctx) {
    const user = await targetUser(ctx);
    // `date` is the video's date, as in the other lists of videos; several credits make one appearance.
    return listVisibleVideos(ctx, ctx.params as ListParams<ClipSort, 'embeddable'>, { where: appearancesOf(user.id), sorts: clipSorts, defaultSort: 'date' });
  },
});

export const appearanceOperations = [listAppearances];
