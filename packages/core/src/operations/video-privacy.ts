import { array, object, size, string } from 'superstruct';
import { notFound } from '../engine/errors';
import { listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { noContent, ok, operation } from '../engine/operation';
import { since } from '../engine/versions';
import { videoMembers } from '../domain/memberships';
import { loadOwnedVideo } from '../domain/owned-video';
import { targetUser } from '../domain/users';
import { representOneUser, representUsers } from './represent-users';
import { assertUserList, grantAccess, resolveUsers, revokeAccess } from '../domain/video-access';
import { videoDomainOperations } from './video-domains';

const seeWho = 'change who may see';

export const listAccessUsers = operation({
  id: 'videos.privacy.users.list',
  summary: 'List the users a users-privacy video is shared with (owner only)',
  method: 'GET',
  paths: ['/videos/{video_id}/privacy/users'],
  auth: 'user',
  params: object(listParams({})),
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'list who may see');
    const p = ctx.params as ListParams;
    const page = pageOf(p);
    const result = await videoMembers(ctx.store, 'video_access', video.id, { sort: 'date', direction: p.direction, page });
    return listReply(ctx, page, result.total, await representUsers(ctx, result.items), 'user');
  },
});

export const addAccessUsers = operation({
  id: 'videos.privacy.users.add',
  summary: 'Share a users-privacy video with a list of users',
  method: 'PUT',
  paths: ['/videos/{video_id}/privacy/users'],
  scope: 'edit',
  params: object({ users: size(array(size(string(), 1, 256)), 1, 100) }),
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, seeWho);
    assertUserList(video);
    const users = await resolveUsers(ctx.store, ctx.params.users);
    for (const user of users) await grantAccess(ctx.store, video, user, ctx.now());
    return ok(await representUsers(ctx, users), 'user');
  },
});

export const addAccessUser = operation({
  id: 'videos.privacy.users.put',
  summary: 'Share a users-privacy video with one user',
  method: 'PUT',
  paths: ['/videos/{video_id}/privacy/users/{user_id}'],
  scope: 'edit',
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, seeWho);
    assertUserList(video);
    const user = await targetUser(ctx);
    await grantAccess(ctx.store, video, user, ctx.now());
    return since(ctx.version, 'privacyUserReturnsUser') ? ok(await representOneUser(ctx, user), 'user') : noContent();
  },
});

export const removeAccessUser = operation({
  id: 'videos.privacy.users.delete',
  summary: "Take a user off a video's access list",
  method: 'DELETE',
  paths: ['/videos/{video_id}/privacy/users/{user_id}'],
  scope: 'edit',
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, seeWho);
    assertUserList(video);
    const user = await targetUser(ctx);
    if (!(await revokeAccess(ctx.store, video, user))) throw notFound('user on the access list');
    return noContent();
  },
});

export const clearAccessUsers = operation({
  id: 'videos.privacy.users.clear',
  summary: "Empty a video's access list (only its owner then sees it until users are added)",
  method: 'DELETE',
  paths: ['/videos/{video_id}/privacy/users'],
  scope: 'edit',
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, seeWho);
    assertUserList(video);
    await revokeAccess(ctx.store, video);
    return noContent();
  },
});

export const videoPrivacyOperations = [
  listAccessUsers,
  addAccessUsers,
  addAccessUser,
  removeAccessUser,
  clearAccessUsers,
  ...videoDomainOperations,
];
