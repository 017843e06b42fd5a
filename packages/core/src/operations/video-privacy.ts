import { array, boolean, object, optional, size, string } from 'superstruct';
import { invalidField, notFound } from '../engine/errors';
import { by, listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { noContent, ok, operation } from '../engine/operation';
import { since } from '../engine/versions';
import { videoMembers } from '../domain/memberships';
import { loadOwnedVideo } from '../domain/owned-video';
import { representContext, representOneUser, representUsers, targetUser } from '../domain/users';
import { assertUserList, assertWhitelist, grantAccess, resolveUsers, revokeAccess } from '../domain/video-access';
import type { VideoDomainRecord } from '../records';
import { representEmbedDomain } from '../representations/embed-domain';
import { isoTime } from '../representations/common';
import { eq, where } from '../store/filters';

const seeWho = 'change who may see';
const embedWho = 'change who may embed';

export const listAccessUsers = operation({
  id: 'videos.privacy.users.list',
  summary: 'List the users a users-privacy video is shared with (owner only)',
  method: 'GET',
  paths: ['/videos/{video_id}/privacy/users'],
  auth: 'user',
  params: object(listParams({})),
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'list who may see');
    const p = ctx.params as ListParams;
    const page = pageOf(p);
    const result = await videoMembers(ctx.store, 'video_access', video.id, { sort: 'date', direction: p.direction, page });
    const rc = representContext(ctx);
    return listReply(ctx, page, result.total, await representUsers(ctx, result.items), 'user');
  },
});

export const addAccessUsers = operation({
  id: 'videos.privacy.users.add',
  summary: 'Share a users-privacy video with a list of users',
  method: 'PUT',
  paths: ['/videos/{video_id}/privacy/users'],
  scope: 'edit',
  params: object({ users: size(array(size(string(), 1, 256)), 1, 100) }),
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, seeWho);
    assertUserList(video);
    const users = await resolveUsers(ctx.store, ctx.params.users);
    for (const user of users) await grantAccess(ctx.store, video, user, ctx.now());
    const rc = representContext(ctx);
    return ok(await representUsers(ctx, users), 'user');
  },
});

export const addAccessUser = operation({
  id: 'videos.privacy.users.put',
  summary: 'Share a users-privacy video with one user',
  method: 'PUT',
  paths: ['/videos/{video_id}/privacy/users/{user_id}'],
  scope: 'edit',
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, seeWho);
    assertUserList(video);
    const user = await targetUser(ctx);
    await grantAccess(ctx.store, video, user, ctx.now());
    return since(ctx.version, 'privacyUserReturnsUser') ? ok(await representOneUser(ctx, user), 'user') : noContent();
  },
});

export const removeAccessUser = operation({
  id: 'videos.privacy.users.delete',
  summary: "Take a user off a video's access list",
  method: 'DELETE',
  paths: ['/videos/{video_id}/privacy/users/{user_id}'],
  scope: 'edit',
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, seeWho);
    assertUserList(video);
    const user = await targetUser(ctx);
    if (!(await revokeAccess(ctx.store, video, user))) throw notFound('user on the access list');
    return noContent();
  },
});

export const listDomains = operation({
  id: 'videos.privacy.domains.list',
  summary: "List the domains of a video's embed whitelist (owner only)",
  method: 'GET',
  paths: ['/videos/{video_id}/privacy/domains'],
  auth: 'user',
  params: object(listParams({})),
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'list who may embed');
    assertWhitelist(video);
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

/** A host name: dot-separated labels of letters, digits and inner hyphens, ending in a label that starts with a letter. */
const domainName = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const putDomain = operation({
  id: 'videos.privacy.domains.put',
  summary: "Add a domain to a video's embed whitelist",
  method: 'PUT',
  paths: ['/videos/{video_id}/privacy/domains/{domain}'],
  scope: 'edit',
  params: object({ allow_hd: optional(boolean()) }),
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, embedWho);
    const domain = ctx.path.domain.toLowerCase();
    if (!domainName.test(domain)) throw invalidField('domain', 'must be a domain name such as example.com');
    assertWhitelist(video);
    const existing = await ctx.store.findOne<VideoDomainRecord>('video_domains', where({ video_id: video.id, domain }));
    if (!existing) {
      const allow_hd = ctx.params.allow_hd ?? false;
      await ctx.store.insert<VideoDomainRecord>('video_domains', { video_id: video.id, domain, allow_hd, created_time: isoTime(ctx.now()) });
    } else if (ctx.params.allow_hd !== undefined) {
      await ctx.store.update<VideoDomainRecord>('video_domains', existing.id, { allow_hd: ctx.params.allow_hd });
    }
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
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, embedWho);
    assertWhitelist(video);
    const removed = await ctx.store.deleteWhere('video_domains', where({ video_id: video.id, domain: ctx.path.domain.toLowerCase() }));
    if (!removed) throw notFound('domain');
    return noContent();
  },
});

export const videoPrivacyOperations = [
  listAccessUsers,
  addAccessUsers,
  addAccessUser,
  removeAccessUser,
  listDomains,
  putDomain,
  removeDomain,
];
