import type { TimelineThumbnailRecord, VideoRecord } from '../records';
import { resourceKey, type RepresentContext } from './common';
import { imageFields, pictureContent } from './picture';
import { frameSource } from '../media/image-links';
import { pictureAccess } from '../media/link-access';

/**
 * The timeline thumbnail representation. Its image is a frame of the video (or one PUT to its
 * link), so its `status` is the video's transcode status (in_progress until the video is transcoded).
 */
export function representTimelineThumbnail(thumbnail: TimelineThumbnailRecord, video: VideoRecord, ctx: RepresentContext): Record<string, unknown> {
  const content = pictureContent(thumbnail.image, 'video', null, frameSource(video));
  const { link, sizes } = imageFields(ctx, 'timelinethumbnails', thumbnail.id, content, 'video', video.user_id, pictureAccess(video, ctx.now));
  return {
    uri: `/videos/${thumbnail.video_id}/timelinethumbnails/${thumbnail.id}`,
    status: video.transcode_status,
    link,
    sizes,
    created_time: thumbnail.created_time,
    resource_key: resourceKey('timelinethumbnail', thumbnail.id),
  };
}
