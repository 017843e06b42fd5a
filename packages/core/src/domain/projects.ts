import type { Store } from '../store/store';
import { eq } from '../store/filters';
import type { UserRecord, VideoRecord } from '../records';
import { ApiError, codes, invalidField, notFound } from '../engine/errors';
import type { Context } from '../engine/operation';
import { findById } from './lookup';
import { loadOwnedVideo } from './owned-video';
import type { ProjectRecord } from '../records/project';
import { actingUser } from './users';
import { setParentFolder } from './video-containers';
import { readVideoUris } from './video-uris';
import { deleteVideoRecords } from './videos';

/** Every project operation answers 401 with 8000 (SPEC.md, Errors: "8000 … projects"). */
export const projectFamily = { invalidCredentials: 8000 } as const;

/** SPEC.md request convention 6: projects are private, so `/users/{user_id}/projects…` acts only for the caller (403/3200). */
export const projectOwner = (ctx: Context<unknown>): Promise<UserRecord> => actingUser(ctx, 'use their projects');

/** The project a path names, of the user the path names, who must be the caller. */
export async function loadProject(ctx: Context<unknown>): Promise<{ project: ProjectRecord; owner: UserRecord }> {
  const owner = await projectOwner(ctx);
  const project = await findById<ProjectRecord>(ctx.store, 'projects', ctx.path.project_id);
  if (!project || project.user_id !== owner.id) throw notFound('project');
  return { project, owner };
}

const maxNameLength = 128;

/**
 * The `name` a create or edit needs: 400/2205 for an empty input (no parameters at all),
 * 400/2204 naming `name` when it is missing, blank or too long.
 */
export function readProjectName(ctx: Context<{ name?: string }>): string {
  const { bodyKind, body, query } = ctx.request;
  const given = [...Object.keys(query).filter((k) => k !== 'fields'), ...(bodyKind === 'none' ? [] : Object.keys(body as object))];
  if (given.length === 0) throw new ApiError(400, codes.badBody, 'The request body could not be read.', 'The request has no parameters: send a name.');
  const name = ctx.params.name?.trim();
  if (!name) throw invalidField('name', 'is required and must not be blank');
  if ([...name].length > maxNameLength) throw invalidField('name', `must be at most ${maxNameLength} characters long`);
  return name;
}

/** A project holds only its owner's videos: 404/5000 for a missing or hidden video, 403/3200 for another user's. */
export const ownVideo = (ctx: Context<unknown>, id: string): Promise<VideoRecord> => loadOwnedVideo(ctx, id, 'file');

/** The caller's own videos a `uris` list names (400/2204 for an entry that is not a video URI). */
export async function ownVideos(ctx: Context<unknown>, uris: string[]): Promise<VideoRecord[]> {
  const videos: VideoRecord[] = [];
  for (const id of readVideoUris(uris, 'uris')) videos.push(await ownVideo(ctx, id));
  return videos;
}

/** Takes videos out of their project, or with `deleteClips` deletes them altogether, keeping every counter exact. */
export async function releaseVideos(store: Store, videos: VideoRecord[], deleteClips: boolean): Promise<void> {
  for (const video of videos) {
    if (!deleteClips) await setParentFolder(store, video, null);
    else {
      await deleteVideoRecords(store, video.id);
      await store.increment<UserRecord>('users', video.user_id, 'videos_total', -1);
    }
  }
}

const batch = 100;

/** Deletes a project; its videos survive outside any project unless `deleteClips` deletes them too. */
export async function removeProject(store: Store, project: ProjectRecord, deleteClips: boolean): Promise<void> {
  // Each batch leaves the project, so the next find starts again from the front.
  for (;;) {
    const { items } = await store.find<VideoRecord>('videos', { where: eq('parent_folder', project.id), limit: batch });
    if (items.length === 0) break;
    await releaseVideos(store, items, deleteClips);
  }
  await store.delete('projects', project.id);
  await store.increment<UserRecord>('users', project.user_id, 'folders_total', -1);
}

