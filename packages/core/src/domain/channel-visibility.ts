import type { Filter, Store } from '../store/store';
import { and, eq, inSelect, or, where } from '../store/filters';
import type { UserRecord } from '../records';
import type { ChannelRecord } from '../records/channel';
import { viewerFilter } from './viewer-filters';

/**
 * The one rule deciding who may see a channel (its privacy), in two forms: a check for one
 * channel and a store filter for lists. The owner is one of the moderators.
 *
 * | privacy    | moderators | on the view list | anyone else |
 * |------------|------------|------------------|-------------|
 * | anybody    | yes        | yes              | yes         |
 * | moderators | yes        | no               | no          |
 * | users      | yes        | yes              | no          |
 */
export async function canViewChannel(store: Store, channel: ChannelRecord, viewer: UserRecord | null): Promise<boolean> {
  if (channel.privacy_view === 'anybody') return true;
  if (!viewer) return false;
  if (await isModerator(store, channel, viewer)) return true;
  return channel.privacy_view === 'users' && !!(await store.findOne('channel_access', where({ channel_id: channel.id, user_id: viewer.id })));
}

/** Channels `viewer` may see listed. */
export function visibleChannels(viewer: UserRecord | null): Filter {
  if (!viewer) return eq('privacy_view', 'anybody');
  return viewerFilter(viewer, visibleChannels, () =>
    or(
      eq('privacy_view', 'anybody'),
      inSelect('id', 'channel_moderators', 'channel_id', eq('user_id', viewer.id)),
      and(eq('privacy_view', 'users'), inSelect('id', 'channel_access', 'channel_id', eq('user_id', viewer.id))),
    ),
  );
}

/** Whether `user` moderates the channel (its owner does). */
export async function isModerator(store: Store, channel: ChannelRecord, user: UserRecord | null): Promise<boolean> {
  if (!user) return false;
  return channel.user_id === user.id || !!(await store.findOne('channel_moderators', where({ channel_id: channel.id, user_id: user.id })));
}
