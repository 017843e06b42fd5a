import type { VideoVersionRecord } from '../records';
import { resourceKey } from './common';
import { videoUri } from './video';
import { uploadLinks } from '../media/upload-links';

export const videoVersionUri = (record: VideoVersionRecord): string => `${videoUri(record.video_id)}/versions/${record.id}`;

/**
 * The Upload Attempt answered for a new version of a video: the file it will replace the video's
 * with and how it arrives. `clip` is the video's Clip; `upload_link` is the tus capability while
 * the upload is in progress (only the owner can reach a version).
 */
export function representVideoVersion(record: VideoVersionRecord, clip: Record<string, unknown>, baseUrl: string): Record<string, unknown> {
  return {
    uri: videoVersionUri(record),
    file_name: record.file_name,
    created_time: record.created_time,
    clip,
    upload: {
      status: record.upload.status,
      approach: record.upload.approach,
      size: record.upload.size,
      link: record.upload.link,
      redirect_url: null,
      ...uploadLinks(record.upload, baseUrl, record.video_id, record.id),
    },
    resource_key: resourceKey('version', record.id),
  };
}
