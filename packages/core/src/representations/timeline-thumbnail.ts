import type { TimelineThumbnailRecord } from '../records';
import { resourceKey, type RepresentContext } from './common';
import { pictureSizes } from './picture';

/**
 * The timeline thumbnail representation. Its frames come from the transcoded video, so its
 * `status` is the video's transcode status (in_progress until the video is transcoded).
 */
export function representTimelineThumbnail(
  thumbnail: TimelineThumbnailRecord,
  status: string,
  ctx: RepresentContext,
): Record<string, unknown> {
  const sizes = pictureSizes('video', `${ctx.baseUrl}/static/timelinethumbnails/${thumbnail.id}`);
  return {
    uri: `/videos/${thumbnail.video_id}/timelinethumbnails/${thumbnail.id}`,
    status,
    link: sizes[sizes.length - 1].link,
    sizes,
    created_time: thumbnail.created_time,
    resource_key: resourceKey('timelinethumbnail', thumbnail.id),
  };
}
