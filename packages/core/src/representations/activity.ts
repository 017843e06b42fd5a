import { categories } from '../catalog/categories';
import type { ActivityRecord } from '../records/feed';
import type { UserRecord, VideoRecord } from '../records';
import { representCategory } from './category';
import { resourceKey, type RepresentContext } from './common';
import { representTag } from './tag';
import { representUserSummary } from './user';

/** What an Activity shows besides its own record, loaded by the caller for a page at once. */
export interface ActivityParts {
  /** The feed's uri, `/users/{id}/feed`; items are named under it. */
  feed: string;
  video: VideoRecord;
  /** The video's Clip as the viewer sees it. */
  clip: Record<string, unknown>;
  /** The user behind the activity (uploader, liker, credited user…). */
  user: UserRecord | undefined;
  /** slug → when the viewer followed that category. */
  followedCategories: ReadonlyMap<string, string>;
}

/**
 * An Activity 3.1 feed item of the viewer's feed: `type`, `time`, `clip`, the `user` behind it and,
 * for the types about one, the `tag`, `category`, `channel`, `group` or `ondemand` page.
 */
export function representActivity(activity: ActivityRecord, parts: ActivityParts, ctx: RepresentContext): Record<string, unknown> {
  const out: Record<string, unknown> = {
    uri: `${parts.feed}/${activity.id}`,
    type: activity.type,
    time: activity.created_time,
    clip: parts.clip,
    user: parts.user ? representUserSummary(parts.user, ctx) : null,
    resource_key: resourceKey('activity', activity.id),
  };
  const subject = activity.subject;
  if (subject === null) return out;
  switch (activity.type) {
    case 'tagged_with':
      out.tag = representTag(parts.video.tags.find((t) => t.canonical === subject) ?? { name: subject, canonical: subject });
      break;
    case 'category_featured': {
      const category = categories.get(subject);
      out.category = category ? representCategory(category, ctx, parts.followedCategories.get(subject) ?? null) : null;
      break;
    }
    case 'channel':
      out.channel = { uri: `/channels/${subject}` };
      break;
    case 'group':
      out.group = { uri: `/groups/${subject}` };
      break;
    case 'ondemand_publish':
      out.ondemand = { uri: `/ondemand/pages/${subject}` };
      break;
  }
  return out;
}
