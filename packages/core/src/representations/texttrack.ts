import type { TexttrackRecord } from '../records';
import { resourceKey, type RepresentContext } from './common';
import { videoUri } from './video';

/** The Text track representation; `link` is where players fetch the WebVTT file. */
export function representTexttrack(track: TexttrackRecord, ctx: RepresentContext): Record<string, unknown> {
  return {
    uri: `${videoUri(track.video_id)}/texttracks/${track.id}`,
    name: track.name,
    language: track.language,
    type: track.type,
    active: track.active,
    link: `${ctx.baseUrl}/texttracks/${track.id}.vtt`,
    resource_key: resourceKey('texttrack', track.id),
  };
}
