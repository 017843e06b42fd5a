import { boolean, object, optional, string } from 'superstruct';
import { by, listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { created, noContent, ok, operation } from '../engine/operation';
import type { ProjectRecord } from '../records/project';
import { loadProject, projectFamily, projectOwner, readProjectName, removeProject } from '../domain/projects';
import { representContext } from './represent-context';
import type { UserRecord } from '../records';
import { isoTime } from '../support/time';
import { representProject } from '../representations/project';
import { eq } from '../store/filters';

const paths = ['/me/projects', '/users/{user_id}/projects'];
const onePaths = ['/me/projects/{project_id}', '/users/{user_id}/projects/{project_id}'];

/** `name` is checked by readProjectName, so that an empty input answers 2205 rather than 2204. */
const nameParams = object({ name: optional(string()) });

const sorts = {
  date: by('created_time', 'desc'),
  default: by('created_time', 'desc'),
  modified_time: by('modified_time', 'desc'),
  name: by('name', 'asc'),
};
type Sort = keyof typeof sorts;

export const listProjects = operation({
  ...projectFamily,
  id: 'users.projects.list',
  summary: "List the caller's projects (folders), newest first",
  method: 'GET',
  paths,
  scope: 'private',
  params: object(listParams({ sort: Object.keys(sorts) as Sort[] })),
  async handle(ctx) {
    const owner = await projectOwner(ctx);
    const p = ctx.params as ListParams<Sort>;
    const page = pageOf(p);
    const result = await ctx.store.find<ProjectRecord>('projects', {
      where: eq('user_id', owner.id),
      orderBy: orderOf(sorts, p.sort ?? 'default', p.direction),
      offset: page.offset,
      limit: page.limit,
    });
    const rc = representContext(ctx);
    return listReply(ctx, page, result.total, result.items.map((project) => representProject(project, owner, rc)), 'project');
  },
});

export const createProject = operation({
  ...projectFamily,
  id: 'users.projects.create',
  summary: 'Create a project (folder)',
  method: 'POST',
  paths,
  scope: 'create',
  params: nameParams,
  async handle(ctx) {
    const owner = await projectOwner(ctx);
    const name = readProjectName(ctx);
    const now = isoTime(ctx.now());
    const project = await ctx.store.insert<ProjectRecord>('projects', { user_id: owner.id, name, videos_total: 0, created_time: now, modified_time: now });
    const saved = await ctx.store.increment<UserRecord>('users', owner.id, 'folders_total', 1);
    return created(representProject(project, saved!, representContext(ctx)), 'project');
  },
});

export const getProject = operation({
  ...projectFamily,
  id: 'users.projects.get',
  summary: 'Get a project (folder)',
  method: 'GET',
  paths: onePaths,
  scope: 'private',
  async handle(ctx) {
    const { project, owner } = await loadProject(ctx);
    return ok(representProject(project, owner, representContext(ctx)), 'project');
  },
});

export const updateProject = operation({
  ...projectFamily,
  id: 'users.projects.update',
  summary: 'Rename a project (folder)',
  method: 'PATCH',
  paths: onePaths,
  scope: 'edit',
  params: nameParams,
  async handle(ctx) {
    const { project, owner } = await loadProject(ctx);
    const name = readProjectName(ctx);
    const saved = await ctx.store.update<ProjectRecord>('projects', project.id, { name, modified_time: isoTime(ctx.now()) });
    // SPEC.md gives 200 with no earlier form: projects are not among the 3.2 PATCH changes.
    return ok(representProject(saved!, owner, representContext(ctx)), 'project');
  },
});

export const deleteProject = operation({
  ...projectFamily,
  id: 'users.projects.delete',
  summary: 'Delete a project (folder); its videos survive outside it unless should_delete_clips deletes them too',
  method: 'DELETE',
  paths: onePaths,
  scope: 'delete',
  params: object({ should_delete_clips: optional(boolean()) }),
  async handle(ctx) {
    const { project } = await loadProject(ctx);
    await removeProject(ctx.store, project, ctx.params.should_delete_clips ?? false);
    return noContent();
  },
});

export const projectOperations = [listProjects, createProject, getProject, updateProject, deleteProject];
