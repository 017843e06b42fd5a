import type { VideoRecord } from '../records';
import type { Context } from '../engine/operation';
import { assertOwner } from './video-write';
import { loadVideo } from './videos';
import { assertCanView } from './visibility';

/**
 * The video a path names, for an action only its owner may take: 404 when it is missing or
 * hidden from the caller (hidden videos answer like missing ones), 403 when the caller can see
 * it but does not own it.
 */
export async function loadOwnedVideo(ctx: Context<unknown>, id: string, action: string): Promise<VideoRecord> {
  const video = await loadVideo(ctx.store, id);
  if (video.user_id === ctx.principal.user?.id) return video;
  // A password video is locked, not hidden: its password would not help, so skip straight to the 403.
  if (video.privacy_view !== 'password') await assertCanView(ctx.store, video, ctx.principal.user);
  assertOwner(ctx, video, action);
  return video;
}
