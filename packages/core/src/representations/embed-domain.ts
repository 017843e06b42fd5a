import type { VideoDomainRecord } from '../records';
import { videoUri } from './video';

/** A domain of a video's embed whitelist, as GET /videos/{id}/privacy/domains lists it. */
export function representEmbedDomain(record: VideoDomainRecord): Record<string, unknown> {
  return {
    uri: `${videoUri(record.video_id)}/privacy/domains/${record.domain}`,
    domain: record.domain,
    allow_hd: record.allow_hd,
    created_time: record.created_time,
  };
}
