import { array, boolean, object, optional, size, string } from 'superstruct';
import { notFound } from '../engine/errors';
import { by, listParams, type ListParams } from '../engine/list';
import { noContent, operation } from '../engine/operation';
import { loadProject, ownVideo, ownVideos, projectFamily, releaseVideos } from '../domain/projects';
import { setParentFolder } from '../domain/video-containers';
import { listVisibleVideos } from './video-lists';
import { eq } from '../store/filters';

const paths = ['/me/projects/{project_id}/videos', '/users/{user_id}/projects/{project_id}/videos'];
const onePaths = ['/me/projects/{project_id}/videos/{video_id}', '/users/{user_id}/projects/{project_id}/videos/{video_id}'];

/** At most this many URIs per request, as a page holds at most 100 videos. */
const uris = size(array(size(string(), 1, 256)), 1, 100);
const shouldDeleteClips = optional(boolean());

const sorts = {
  alphabetical: by('name', 'asc'),
  date: by('created_time', 'desc'),
  default: by('created_time', 'desc'),
  duration: by('duration', 'desc'),
  /** The last time the owner acted on the video: its last edit. */
  last_user_action_event_date: by('modified_time', 'desc'),
};
type Sort = keyof typeof sorts;

export const listProjectVideos = operation({
  ...projectFamily,
  id: 'users.projects.videos.list',
  summary: 'List the videos in a project (folder), newest first',
  method: 'GET',
  paths,
  scope: 'private',
  params: object(listParams({ sort: Object.keys(sorts) as Sort[] })),
  async handle(ctx) {
    const { project } = await loadProject(ctx);
    return listVisibleVideos(ctx, ctx.params as ListParams<Sort>, { where: eq('parent_folder', project.id), sorts, defaultSort: 'default' });
  },
});

export const addProjectVideos = operation({
  ...projectFamily,
  id: 'users.projects.videos.add',
  summary: 'Move videos (comma-separated URIs) into a project; a video leaves the project it was in',
  method: 'PUT',
  paths,
  scope: 'interact',
  params: object({ uris }),
  async handle(ctx) {
    const { project } = await loadProject(ctx);
    for (const video of await ownVideos(ctx, ctx.params.uris)) await setParentFolder(ctx.store, video, project.id);
    return noContent();
  },
});

export const removeProjectVideos = operation({
  ...projectFamily,
  id: 'users.projects.videos.remove',
  summary: 'Take videos (comma-separated URIs) out of a project, or delete them with should_delete_clips',
  method: 'DELETE',
  paths,
  scope: 'interact',
  params: object({ uris, should_delete_clips: shouldDeleteClips }),
  async handle(ctx) {
    const { project } = await loadProject(ctx);
    const videos = await ownVideos(ctx, ctx.params.uris);
    if (videos.some((v) => v.parent_folder !== project.id)) throw notFound('video in the project');
    await releaseVideos(ctx.store, videos, ctx.params.should_delete_clips ?? false);
    return noContent();
  },
});

export const addProjectVideo = operation({
  ...projectFamily,
  id: 'users.projects.videos.put',
  summary: 'Move a video into a project; it leaves the project it was in',
  method: 'PUT',
  paths: onePaths,
  scope: 'interact',
  async handle(ctx) {
    const { project } = await loadProject(ctx);
    await setParentFolder(ctx.store, await ownVideo(ctx, ctx.path.video_id), project.id);
    return noContent();
  },
});

export const removeProjectVideo = operation({
  ...projectFamily,
  id: 'users.projects.videos.delete',
  summary: 'Take a video out of a project, or delete it with should_delete_clips',
  method: 'DELETE',
  paths: onePaths,
  scope: 'delete',
  params: object({ should_delete_clips: shouldDeleteClips }),
  async handle(ctx) {
    const { project } = await loadProject(ctx);
    const video = await ownVideo(ctx, ctx.path.video_id);
    if (video.parent_folder !== project.id) throw notFound('video in the project');
    await releaseVideos(ctx.store, [video], ctx.params.should_delete_clips ?? false);
    return noContent();
  },
});

export const projectVideoOperations = [listProjectVideos, addProjectVideos, removeProjectVideos, addProjectVideo, removeProjectVideo];
