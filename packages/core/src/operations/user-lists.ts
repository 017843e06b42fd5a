import type { Filter } from '../store/store';
import { eq } from '../store/filters';
import { listReply, pageOf, type ListParams } from '../engine/list';
import type { Context, Reply } from '../engine/operation';
import type { ChannelRecord } from '../records/channel';
import type { ChannelMembership } from '../domain/channel-members';
import { memberUsers, type MemberSort } from '../domain/memberships';
import { representUsers } from './represent-users';

/** A page of the users in a membership of a channel, by name or by when they joined (newest first). */
export async function listChannelUsers(ctx: Context<unknown>, channel: ChannelRecord, membership: ChannelMembership, p: ListParams<MemberSort>): Promise<Reply> {
  const page = pageOf(p);
  const query = { sort: p.sort ?? 'date', direction: p.direction, query: p.query?.trim(), page } as const;
  const result = await memberUsers(ctx.store, membership, eq('channel_id', channel.id), 'user_id', query);
  return listReply(ctx, page, result.total, await representUsers(ctx, result.items), 'user');
}

/**
 * A page of the users that follow rows name in `userField` (`target_id`: whom someone follows,
 * `user_id`: who follows someone), as Users in the list envelope; `users` narrows them further.
 */
export async function listFollowUsers(ctx: Context<unknown>, rows: Filter, userField: string, users?: Filter): Promise<Reply> {
  const p = ctx.params as ListParams<MemberSort>;
  const page = pageOf(p);
  const result = await memberUsers(ctx.store, 'follows', rows, userField, { sort: p.sort ?? 'date', direction: p.direction, query: p.query?.trim(), users, page });
  return listReply(ctx, page, result.total, await representUsers(ctx, result.items), 'user');
}
