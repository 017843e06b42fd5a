import { connection, resourceKey } from './common';

export const tagUri = (canonical: string): string => `/tags/${encodeURIComponent(canonical)}`;

/** The Tag representation; with `videosTotal` (a tag on its own) it carries its videos connection. */
export function representTag(tag: { name: string; canonical: string }, videosTotal?: number): Record<string, unknown> {
  const uri = tagUri(tag.canonical);
  const out: Record<string, unknown> = {
    uri,
    name: tag.name,
    tag: tag.name,
    canonical: tag.canonical,
    resource_key: resourceKey('tag', tag.canonical),
  };
  if (videosTotal !== undefined) out.metadata = { connections: { videos: connection(`${uri}/videos`, videosTotal) } };
  return out;
}
