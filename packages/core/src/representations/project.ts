import type { ProjectRecord } from '../records/project';
import type { UserRecord } from '../records';
import { since } from '../engine/versions';
import { connection, resourceKey, type RepresentContext } from './common';
import { representUserSummary } from './user';

export const projectUri = (project: Pick<ProjectRecord, 'id' | 'user_id'>): string => `/users/${project.user_id}/projects/${project.id}`;

/** The Project (folder) representation; `owner` is the project's user. */
export function representProject(project: ProjectRecord, owner: UserRecord, ctx: RepresentContext): Record<string, unknown> {
  const uri = projectUri(project);
  const out: Record<string, unknown> = {
    uri,
    name: project.name,
    // reelbase serves no folder web page: the link is the project's own address on this server (issue 22).
    link: `${ctx.baseUrl}${uri}`,
    created_time: project.created_time,
    modified_time: project.modified_time,
    user: representUserSummary(owner, ctx),
    resource_key: resourceKey('project', project.id),
  };
  if (since(ctx.version, 'connections')) {
    out.metadata = { connections: { videos: connection(`${uri}/videos`, project.videos_total, ['GET', 'PUT', 'DELETE']) } };
  }
  return out;
}
