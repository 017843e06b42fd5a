import { array, boolean, object, optional, size, string } from 'superstruct';
import { notFound } from '../engine/errors';
import { by, listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { noContent, ok, operation, type Context } from '../engine/operation';
import { allowDomain, findDomain, readDomain } from '../domain/embed-domains';
import { loadOwnedVideo } from '../domain/owned-video';
import { assertWhitelist } from '../domain/video-access';
import type { VideoDomainRecord, VideoRecord } from '../records';
import { representEmbedDomain } from '../representations/embed-domain';
import { eq, where } from '../store/filters';

/** The video of a whitelist operation: the caller's own (404 hidden, 403 another's) with privacy.embed whitelist (403). */
async function whitelistedVideo(ctx: Context<unknown>, action: string): Promise<VideoRecord> {
  const video = await loadOwnedVideo(ctx, ctx.path.video_id, action);
  assertWhitelist(video);
  return video;
}

const seeWho = 'list who may embed';
const embedWho = 'change who may embed';
const allowHd = optional(boolean());

export const listDomains = operation({
  id: 'videos.privacy.domains.list',
  summary: "List the domains of a video's embed whitelist (owner only)",
  method: 'GET',
  paths: ['/videos/{video_id}/privacy/domains'],
  auth: 'user',
  params: object(listParams({})),
  async handle(ctx) {
    const video = await whitelistedVideo(ctx, seeWho);
    const p = ctx.params as ListParams;
    const page = pageOf(p);
    const result = await ctx.store.find<VideoDomainRecord>('video_domains', {
      where: eq('video_id', video.id),
      orderBy: by('created_time', p.direction ?? 'desc'),
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, result.items.map(representEmbedDomain), null);
  },
});

export const addDomains = operation({
  id: 'videos.privacy.domains.add',
  summary: "Add a list of domains to a video's embed whitelist; answers those domains",
  method: 'PUT',
  paths: ['/videos/{video_id}/privacy/domains'],
  scope: 'edit',
  params: object({ domains: size(array(size(string(), 1, 253)), 1, 100), allow_hd: allowHd }),
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, embedWho);
    const domains = [...new Set(ctx.params.domains.map((d, i) => readDomain(d, `domains.${i}`)))];
    assertWhitelist(video);
    const saved: VideoDomainRecord[] = [];
    for (const domain of domains) saved.push(await allowDomain(ctx.store, video, domain, ctx.params.allow_hd, ctx.now()));
    return ok(saved.map(representEmbedDomain), null);
  },
});

export const clearDomains = operation({
  id: 'videos.privacy.domains.clear',
  summary: "Empty a video's embed whitelist",
  method: 'DELETE',
  paths: ['/videos/{video_id}/privacy/domains'],
  scope: 'edit',
  async handle(ctx) {
    const video = await whitelistedVideo(ctx, embedWho);
    await ctx.store.deleteWhere('video_domains', eq('video_id', video.id));
    return noContent();
  },
});

export const getDomain = operation({
  id: 'videos.privacy.domains.get',
  summary: "Get a domain of a video's embed whitelist (404 when it is not on it)",
  method: 'GET',
  paths: ['/videos/{video_id}/privacy/domains/{domain}'],
  auth: 'user',
  async handle(ctx) {
    const video = await whitelistedVideo(ctx, seeWho);
    const found = await findDomain(ctx.store, video, ctx.path.domain.trim().toLowerCase());
    if (!found) throw notFound('domain');
    return ok(representEmbedDomain(found), null);
  },
});

export const putDomain = operation({
  id: 'videos.privacy.domains.put',
  summary: "Add a domain to a video's embed whitelist",
  method: 'PUT',
  paths: ['/videos/{video_id}/privacy/domains/{domain}'],
  scope: 'edit',
  params: object({ allow_hd: allowHd }),
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, embedWho);
    const domain = readDomain(ctx.path.domain, 'domain');
    assertWhitelist(video);
    await allowDomain(ctx.store, video, domain, ctx.params.allow_hd, ctx.now());
    return noContent();
  },
});

export const removeDomain = operation({
  id: 'videos.privacy.domains.delete',
  summary: "Take a domain off a video's embed whitelist",
  method: 'DELETE',
  paths: ['/videos/{video_id}/privacy/domains/{domain}'],
  scope: 'edit',
  async handle(ctx) {
    const video = await whitelistedVideo(ctx, embedWho);
    const removed = await ctx.store.deleteWhere('video_domains', where({ video_id: video.id, domain: ctx.path.domain.trim().toLowerCase() }));
    if (!removed) throw notFound('domain');
    return noContent();
  },
});

export const videoDomainOperations = [listDomains, addDomains, getDomain, putDomain, removeDomain, clearDomains];
