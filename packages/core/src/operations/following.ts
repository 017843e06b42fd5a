import { object } from 'superstruct';
import { notFound } from '../engine/errors';
import { listParams, type ListParams } from '../engine/list';
import { noContent, operation, type Context } from '../engine/operation';
import { noteActivity, onlineUsers } from '../domain/activity';
import { addFollows, assertMayFollow, findFollow, followInvalidCredentials, removeFollow } from '../domain/follows';
import { listFollowUsers } from './user-lists';
import { memberSorts, type MemberSort } from '../domain/memberships';
import { readUserList } from '../domain/user-uris';
import { actingUser, findUser, targetUser } from '../domain/users';
import type { UserRecord } from '../records';
import { eq } from '../store/filters';

/** SPEC.md, Limits: at most 100 users in a follow batch (400/2901 beyond). */
const followBatch = { max: 100, code: 2901 };

const followPaths = ['/me/following/{follow_user_id}', '/users/{user_id}/following/{follow_user_id}'];
const follows = 'change whom they follow';

/** The user `{follow_user_id}` names (404 when there is none). */
async function followedUser(ctx: Context<unknown>): Promise<UserRecord> {
  const user = await findUser(ctx.store, ctx.path.follow_user_id);
  if (!user) throw notFound('user');
  return user;
}

export const listFollowing = operation({
  id: 'users.following.list',
  summary: 'List the users a user follows, the latest followed first',
  method: 'GET',
  paths: ['/me/following', '/users/{user_id}/following'],
  invalidCredentials: followInvalidCredentials,
  params: object(listParams({ sort: Object.keys(memberSorts) as MemberSort[], filter: ['online'] as const, query: true })),
  async handle(ctx) {
    const user = await targetUser(ctx);
    const online = (ctx.params as ListParams<MemberSort, 'online'>).filter === 'online';
    return listFollowUsers(ctx, eq('user_id', user.id), 'target_id', online ? onlineUsers(ctx.now()) : undefined);
  },
});

export const checkFollowing = operation({
  id: 'users.following.check',
  summary: 'Check whether a user follows another (204 yes, 404 no)',
  method: 'GET',
  paths: followPaths,
  invalidCredentials: followInvalidCredentials,
  async handle(ctx) {
    const user = await targetUser(ctx);
    const followed = await findUser(ctx.store, ctx.path.follow_user_id);
    if (!followed || !(await findFollow(ctx.store, user.id, followed.id))) throw notFound('follow');
    return noContent();
  },
});

export const follow = operation({
  id: 'users.following.put',
  summary: 'Follow a user (nothing changes when already following)',
  method: 'PUT',
  paths: followPaths,
  scope: 'interact',
  invalidCredentials: followInvalidCredentials,
  async handle(ctx) {
    const user = await actingUser(ctx, follows);
    assertMayFollow(user);
    await addFollows(ctx, user, [await followedUser(ctx)], 'follow_user_id');
    await noteActivity(ctx, user);
    return noContent();
  },
});

export const unfollow = operation({
  id: 'users.following.delete',
  summary: 'Stop following a user (404 when not following)',
  method: 'DELETE',
  paths: followPaths,
  scope: 'interact',
  invalidCredentials: followInvalidCredentials,
  async handle(ctx) {
    const user = await actingUser(ctx, follows);
    if (!(await removeFollow(ctx.store, user.id, (await followedUser(ctx)).id))) throw notFound('follow');
    await noteActivity(ctx, user);
    return noContent();
  },
});

export const followMany = operation({
  id: 'users.following.add',
  summary: 'Follow up to 100 users at once, all or nothing (body: users, a list of user URIs)',
  method: 'POST',
  paths: ['/me/following', '/users/{user_id}/following'],
  scope: 'interact',
  invalidCredentials: followInvalidCredentials,
  async handle(ctx) {
    const user = await actingUser(ctx, follows);
    assertMayFollow(user);
    await addFollows(ctx, user, await readUserList(ctx, followBatch), 'users');
    await noteActivity(ctx, user);
    return noContent();
  },
});

export const followingOperations = [listFollowing, checkFollowing, follow, unfollow, followMany];
