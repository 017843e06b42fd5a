import type { Filter, Store } from '../store/store';
import { and, eq, inSelect, isIn, ne, or, where } from '../store/filters';
import type { UserRecord } from '../records';
import { by } from '../engine/list';
import { isoTime } from '../support/time';
import type { ActivityRecord, ActivityType } from '../records/feed';
import { visibleChannels } from './channel-visibility';
import { withMembers } from './memberships';
import { visibleVideos } from './visibility';

export interface NewActivity {
  type: ActivityType;
  video_id: string;
  /** The user behind it: the uploader, the liker, the credited user, the video's owner… */
  user_id: string;
  /** The tag word, category slug, channel, group or On Demand page id it is about. */
  subject?: string | null;
}

/**
 * Records a feed event. Producers call it in the transaction of the write that caused it, so the
 * event exists exactly when the write does. Transactions are serialised, so `seq` (the feed's
 * order) is the order events happened in.
 */
export async function recordActivity(store: Store, activity: NewActivity, now: Date): Promise<void> {
  const last = await store.findOne<ActivityRecord>('activities', and(), by('seq', 'desc'));
  await store.insert<ActivityRecord>('activities', {
    type: activity.type,
    video_id: activity.video_id,
    user_id: activity.user_id,
    subject: activity.subject ?? null,
    seq: (last?.seq ?? 0) + 1,
    created_time: isoTime(now),
  });
}

/** Takes an event back when its cause is undone (an unlike, a credit or tag removed). */
export async function withdrawActivity(store: Store, activity: NewActivity): Promise<void> {
  const { type, video_id, user_id, subject = null } = activity;
  await store.deleteWhere('activities', where({ type, video_id, user_id, subject }));
}

/** What a feed's audience rules need to know about the feed's user. */
export interface FeedReader {
  user: UserRecord;
  /** Slugs of the categories the user follows, with the subcategories of those. */
  categories: string[];
}

const followedBy = (userId: string): Filter => inSelect('user_id', 'follows', 'target_id', eq('user_id', userId));

/**
 * Whose feed each type reaches. Nothing a user did themselves reaches their own feed, except
 * being credited. Types without a rule reach nobody (yet):
 *
 * | type              | `user_id`           | reaches                                                      |
 * |-------------------|---------------------|--------------------------------------------------------------|
 * | uploads           | uploader            | users following the uploader                                 |
 * | likes             | liker               | users following the liker                                    |
 * | appears           | credited user       | the credited user and users following them                   |
 * | tagged_with       | the video's owner   | users who put that tag on a video of their own (the API has no tag follows, so the tags a user uses stand for those they follow) |
 * | category_featured | the video's owner   | users following the category or its parent                   |
 * | ondemand_publish  | the page's owner    | users following the page's owner                             |
 * | channel           | who added the video | followers of the channel (`subject`) who may see it, but not the one who added it |
 *
 * | group             | who added the video | the group's other members                                    |
 */
const audiences: Partial<Record<ActivityType, (reader: FeedReader) => Filter>> = {
  uploads: ({ user }) => followedBy(user.id),
  likes: ({ user }) => followedBy(user.id),
  appears: ({ user }) => or(eq('user_id', user.id), followedBy(user.id)),
  tagged_with: ({ user }) =>
    and(ne('user_id', user.id), inSelect('subject', 'video_tags', 'tag', inSelect('video_id', 'videos', 'id', eq('user_id', user.id)))),
  category_featured: ({ user, categories }) => and(ne('user_id', user.id), isIn('subject', categories)),
  ondemand_publish: ({ user }) => followedBy(user.id),
  channel: ({ user }) =>
    and(
      ne('user_id', user.id),
      inSelect('subject', 'channel_followers', 'channel_id', eq('user_id', user.id)),
      inSelect('subject', 'channels', 'id', visibleChannels(user)),
    ),
  group: ({ user }) => and(ne('user_id', user.id), inSelect('subject', 'group_members', 'group_id', eq('user_id', user.id))),
};

/**
 * The activities of a user's feed (of one type, when given), as one store filter: the audience
 * rules above, and only about videos the user may see (the visibility rule, in the store).
 */
export function feedFilter(reader: FeedReader, type?: ActivityType): Filter {
  const rules = Object.entries(audiences)
    .filter(([t]) => type === undefined || t === type)
    .map(([t, rule]) => and(eq('type', t), rule(reader)));
  return withMembers({ collection: 'activities', where: or(...rules) }, 'video_id', 'videos', visibleVideos(reader.user));
}
