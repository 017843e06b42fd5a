import type { Context } from '../engine/operation';
import type { RepresentContext } from '../representations/common';

/** What every representation reads of the request: base URL, version, the viewer, links, the time, the quota. */
export const representContext = (ctx: Context<unknown>): RepresentContext => ({
  baseUrl: ctx.baseUrl,
  version: ctx.version,
  viewer: ctx.principal.user,
  ownerFiles: ctx.principal.scopes.has('video_files'),
  links: ctx.links,
  now: ctx.now(),
  uploadQuotaBytes: ctx.config.uploadQuotaBytes,
});
