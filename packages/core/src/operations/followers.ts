import { object } from 'superstruct';
import { listParams } from '../engine/list';
import { operation } from '../engine/operation';
import { listFollowUsers } from './user-lists';
import { memberSorts, type MemberSort } from '../domain/memberships';
import { targetUser } from '../domain/users';
import { eq } from '../store/filters';

export const listFollowers = operation({
  id: 'users.followers.list',
  summary: 'List the users who follow a user, the latest follower first',
  method: 'GET',
  paths: ['/me/followers', '/users/{user_id}/followers'],
  params: object(listParams({ sort: Object.keys(memberSorts) as MemberSort[], query: true })),
  async handle(ctx) {
    const user = await targetUser(ctx);
    return listFollowUsers(ctx, eq('target_id', user.id), 'user_id');
  },
});

export const followerOperations = [listFollowers];
