import type { CreditRecord, UserRecord, VideoRecord } from '../records';
import { resourceKey, type RepresentContext } from './common';
import { representUserSummary } from './user';
import { videoUri } from './video';

export const creditUri = (credit: CreditRecord): string => `${videoUri(credit.video_id)}/credits/${credit.id}`;

/** The Credit representation: who is credited, in what role, on which video. The email stays private. */
export function representCredit(credit: CreditRecord, user: UserRecord, video: Pick<VideoRecord, 'id' | 'name'>, ctx: RepresentContext): Record<string, unknown> {
  return {
    uri: creditUri(credit),
    name: credit.name,
    role: credit.role,
    user: representUserSummary(user, ctx),
    video: { uri: videoUri(video.id), name: video.name },
    resource_key: resourceKey('credit', credit.id),
  };
}
