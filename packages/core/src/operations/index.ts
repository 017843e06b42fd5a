import type { Operation } from '../engine/operation';
import { albumOperations } from './albums';
import { channelOperations } from './channels';
import { chapterOperations } from './chapters';
import { analyticsOperations } from './analytics';
import { oembedOperations } from './oembed';
import { embedOperations } from './embed';
import { feedOperations } from './feed';
import { groupOperations } from './groups';
import { ondemandOperations } from './ondemand';
import { peopleOperations } from './people';
import { categoryOperations } from './categories';
import { commentOperations } from './comments';
import { creditOperations } from './credits';
import { openapiOperation } from './openapi';
import { rootOperation } from './root';
import { tagOperations } from './tags';
import { texttrackOperations } from './texttracks';
import { timelineThumbnailOperations } from './timeline-thumbnails';
import { userOperations } from './users';
import { userConnectionOperations } from './user-connections';
import { userVideoOperations } from './user-videos';
import { versionOperations } from './versions';
import { playbackOperations } from './playback';
import { streamingOperations } from './streaming';
import { videoLikeOperations } from './video-likes';
import { videoPictureOperations } from './video-pictures';
import { videoPresetOperations } from './video-presets';
import { videoPrivacyOperations } from './video-privacy';
import { videoOperations } from './videos';
import { videoSearchOperations } from './video-search';
import { watchedOperations } from './watched';
import { mediaImageOperations } from './media-images';
import { mediaTexttrackOperations } from './media-texttracks';
import { placeholderOperations } from './placeholders';
import { mediaPlayOperations } from './media-play';
import { webhookOperations } from './webhooks';
import { adminJobOperations } from './admin-jobs';
import { grantOperations } from './oauth-grants';
import { authorizeOperations } from './oauth-authorize';
import { oauthTokenOperations } from './oauth-tokens';

const families = [
  ...userOperations,
  ...userConnectionOperations,
  ...videoOperations,
  ...videoSearchOperations,
  ...userVideoOperations,
  ...commentOperations,
  ...creditOperations,
  ...texttrackOperations,
  ...chapterOperations,
  ...analyticsOperations,
  ...oembedOperations,
  ...videoPictureOperations,
  ...timelineThumbnailOperations,
  ...videoPresetOperations,
  ...tagOperations,
  ...categoryOperations,
  ...videoPrivacyOperations,
  ...videoLikeOperations,
  ...watchedOperations,
  ...versionOperations,
  ...playbackOperations,
  ...streamingOperations,
  ...channelOperations,
  ...peopleOperations,
  ...feedOperations,
  ...groupOperations,
  ...albumOperations,
  ...ondemandOperations,
  ...embedOperations,
  ...mediaImageOperations,
  ...mediaTexttrackOperations,
  ...placeholderOperations,
  ...mediaPlayOperations,
  ...webhookOperations,
  ...grantOperations,
  ...authorizeOperations,
  ...oauthTokenOperations,
  ...adminJobOperations,
] as readonly Operation<unknown>[];

const discoverable = [...families, openapiOperation(() => operations)];

/** The operation table: one object per spec row; each family lives in its own file. */
export const operations: readonly Operation<unknown>[] = [...discoverable, rootOperation(discoverable)];
