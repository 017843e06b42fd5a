import type { Filter, Store } from '../store/store';
import { and, eq, inSelect, where } from '../store/filters';
import { isoTime } from '../support/time';
import { recordActivity, withdrawActivity } from './activities';
import type { GroupRecord, GroupVideoRecord } from '../records/group';

/** The videos listed in a group, as a store filter on videos; pending ones only when `withPending`. */
export const inGroup = (groupId: string, withPending: boolean): Filter =>
  inSelect('id', 'group_videos', 'video_id', and(eq('group_id', groupId), withPending ? undefined : eq('status', 'approved')));

export const findGroupVideo = (store: Store, groupId: string, videoId: string): Promise<GroupVideoRecord | null> =>
  store.findOne<GroupVideoRecord>('group_videos', where({ group_id: groupId, video_id: videoId }));

/** The group's video list changed now; an approved video changes its count by `delta`. */
async function touch(store: Store, group: GroupRecord, delta: number, now: Date): Promise<void> {
  if (delta) await store.increment('groups', group.id, 'videos_total', delta);
  await store.update<GroupRecord>('groups', group.id, { videos_modified_time: isoTime(now) });
}

/** Puts a video in a group, approved or waiting for the owner's approval. */
export async function addGroupVideo(
  store: Store,
  group: GroupRecord,
  videoId: string,
  userId: string,
  status: GroupVideoRecord['status'],
  now: Date,
): Promise<void> {
  const time = isoTime(now);
  const approved = status === 'approved';
  await store.insert<GroupVideoRecord>('group_videos', {
    group_id: group.id,
    video_id: videoId,
    user_id: userId,
    status,
    created_time: time,
    approved_time: approved ? time : null,
  });
  await touch(store, group, approved ? 1 : 0, now);
  if (approved) await recordActivity(store, { type: 'group', video_id: videoId, user_id: userId, subject: group.id }, now);
}

export async function approveGroupVideo(store: Store, group: GroupRecord, row: GroupVideoRecord, now: Date): Promise<void> {
  await store.update<GroupVideoRecord>('group_videos', row.id, { status: 'approved', approved_time: isoTime(now) });
  await touch(store, group, 1, now);
  await recordActivity(store, { type: 'group', video_id: row.video_id, user_id: row.user_id, subject: group.id }, now);
}

export async function removeGroupVideo(store: Store, group: GroupRecord, row: GroupVideoRecord, now: Date): Promise<void> {
  await store.delete('group_videos', row.id);
  await touch(store, group, row.status === 'approved' ? -1 : 0, now);
  await withdrawActivity(store, { type: 'group', video_id: row.video_id, user_id: row.user_id, subject: group.id });
}

/** Takes a video out of every group, for when the video is deleted; keeps the groups' counts exact. */
export async function removeVideoFromGroups(store: Store, videoId: string): Promise<void> {
  const { items } = await store.find<GroupVideoRecord>('group_videos', { where: and(eq('video_id', videoId), eq('status', 'approved')) });
  for (const row of items) await store.increment('groups', row.group_id, 'videos_total', -1);
  await store.deleteWhere('group_videos', eq('video_id', videoId));
}
