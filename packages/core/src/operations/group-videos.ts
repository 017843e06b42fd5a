import { object, optional, size, string } from 'superstruct';
import { forbidden, notFound } from '../engine/errors';
import { by, listParams, type ListParams } from '../engine/list';
import { noContent, ok, operation, type Context, type Reply } from '../engine/operation';
import { since } from '../engine/versions';
import type { GroupMemberRecord, GroupRecord } from '../records/group';
import { addGroupVideo, approveGroupVideo, findGroupVideo, inGroup, removeGroupVideo } from '../domain/group-videos';
import { assertCanSeeContents, isModerator, loadGroup, membershipOf } from '../domain/groups';
import { listVisibleVideos } from './video-lists';
import { loadVideo, loadVisibleVideo } from '../domain/videos';
import { representOne } from './represent-videos';
import { assertCanView } from '../domain/visibility';
import type { UserRecord, VideoRecord } from '../records';

const videoSorts = {
  date: by('created_time', 'desc'),
  alphabetical: by('name', 'asc'),
  comments: by('comments_total', 'desc'),
  duration: by('duration', 'desc'),
  likes: by('likes_total', 'desc'),
  plays: by('plays', 'desc'),
};
type VideoSort = keyof typeof videoSorts;

/** The group a path names with the caller's membership, for reading its contents (403 for a closed group). */
async function openGroup(ctx: Context<unknown>): Promise<{ group: GroupRecord; membership: GroupMemberRecord | null }> {
  const group = await loadGroup(ctx.store, ctx.path.group_id);
  const membership = await membershipOf(ctx.store, group.id, ctx.principal.user);
  assertCanSeeContents(group, membership);
  return { group, membership };
}

/** Pending videos show to the group's owner only, who approves them. */
const seesPending = (ctx: Context<unknown>, group: GroupRecord): boolean => ctx.principal.user?.id === group.user_id;

export const listGroupVideos = operation({
  id: 'groups.videos.list',
  summary: "List a group's videos the caller may see (its owner also sees those pending approval); date is the video's creation",
  method: 'GET',
  paths: ['/groups/{group_id}/videos'],
  params: object(listParams({ sort: Object.keys(videoSorts) as VideoSort[], filter: ['embeddable'] as const, query: true, filterEmbeddable: true })),
  async handle(ctx) {
    const { group } = await openGroup(ctx);
    return listVisibleVideos(ctx, ctx.params as ListParams<VideoSort, 'embeddable'>, {
      where: inGroup(group.id, seesPending(ctx, group)),
      sorts: videoSorts,
      defaultSort: 'date',
      lastModified: group.videos_modified_time,
    });
  },
});

export const getGroupVideo = operation({
  id: 'groups.videos.get',
  summary: 'Get a video of a group (404 when the group is missing or the video is not in it)',
  method: 'GET',
  paths: ['/groups/{group_id}/videos/{video_id}'],
  params: object({ password: optional(size(string(), 1, 128)) }),
  async handle(ctx) {
    const { group } = await openGroup(ctx);
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const row = await findGroupVideo(ctx.store, group.id, video.id);
    if (!row || (row.status === 'pending' && !seesPending(ctx, group))) throw notFound('video in the group');
    return ok(await representOne(ctx, video), 'video');
  },
});

/** PUT's answer for a video now in the group: 200 with the Clip from 3.3, 204 before (SPEC.md, Versioning 3.3). */
const added = async (ctx: Context<unknown>, video: VideoRecord): Promise<Reply> =>
  since(ctx.version, 'groupVideoClip') ? ok(await representOne(ctx, video), 'video') : noContent();

/** Whether the group's `privacy.videos` lets this caller add videos at all. */
const mayAdd = (group: GroupRecord, membership: GroupMemberRecord | null): boolean => group.privacy.videos === 'all' || membership !== null;

export const addVideoToGroup = operation({
  id: 'groups.videos.put',
  summary:
    "Add a video to a group: 200 with the Clip, or 202 when the group's privacy.videos is moderators and the caller is not one (the video waits, pending, until the group's owner PUTs it again to approve it)",
  method: 'PUT',
  paths: ['/groups/{group_id}/videos/{video_id}'],
  scope: 'edit',
  async handle(ctx) {
    const caller = ctx.principal.user as UserRecord;
    const { group, membership } = await openGroup(ctx);
    const video = await loadVisibleVideo(ctx, ctx.path.video_id);
    const row = await findGroupVideo(ctx.store, group.id, video.id);
    if (row?.status === 'pending' && caller.id === group.user_id) {
      await approveGroupVideo(ctx.store, group, row, ctx.now());
      return added(ctx, video);
    }
    if (row) throw forbidden(row.status === 'pending' ? 'The video is already in the group, waiting for approval.' : 'The video is already in the group.');
    if (!mayAdd(group, membership)) throw forbidden(`Only the group's members may add videos to it.`);
    if (video.user_id !== caller.id && !video.privacy.add) throw forbidden("The video's owner does not let others add it to groups (privacy.add is false).");
    const pending = group.privacy.videos === 'moderators' && !isModerator(membership);
    await addGroupVideo(ctx.store, group, video.id, caller.id, pending ? 'pending' : 'approved', ctx.now());
    return pending ? { status: 202 } : added(ctx, video);
  },
});

export const removeVideoFromGroup = operation({
  id: 'groups.videos.delete',
  summary:
    "Take a video out of a group (or withdraw or reject a pending one): the group's owner and moderators, the video's owner, or whoever added it while the video may still be added to groups",
  method: 'DELETE',
  paths: ['/groups/{group_id}/videos/{video_id}'],
  scope: 'edit',
  async handle(ctx) {
    const caller = ctx.principal.user as UserRecord;
    const group = await loadGroup(ctx.store, ctx.path.group_id);
    const membership = await membershipOf(ctx.store, group.id, caller);
    const video = await loadVideo(ctx.store, ctx.path.video_id);
    // The group's moderators and the video's owner may always take it out; anyone else only what they can see.
    const privileged = isModerator(membership) || video.user_id === caller.id;
    if (!privileged) {
      assertCanSeeContents(group, membership);
      if (video.privacy_view !== 'password') await assertCanView(ctx.store, video, caller);
    }
    const row = await findGroupVideo(ctx.store, group.id, video.id);
    if (!row) throw notFound('video in the group');
    if (!privileged) {
      if (row.user_id !== caller.id) throw forbidden("Only the group's moderators, the video's owner or whoever added it may remove it.");
      if (!video.privacy.add) throw forbidden("The video may not be added to groups (privacy.add is false): only its owner or the group's moderators may manage it.");
    }
    await removeGroupVideo(ctx.store, group, row, ctx.now());
    return noContent();
  },
});

export const groupVideoOperations = [listGroupVideos, getGroupVideo, addVideoToGroup, removeVideoFromGroup];
