import type { Genre } from '../catalog/genres';
import { since } from '../engine/versions';
import { resourceKey, type RepresentContext } from './common';

export const genreUri = (id: string): string => `/ondemand/genres/${id}`;

/** The On Demand Genre representation. */
export function representGenre(genre: Genre, ctx: RepresentContext): Record<string, unknown> {
  const uri = genreUri(genre.id);
  const out: Record<string, unknown> = {
    uri,
    name: genre.name,
    canonical: genre.id,
    // reelbase serves no browse page: the link is the genre's own address on this server (issue 22).
    link: `${ctx.baseUrl}${uri}`,
    resource_key: resourceKey('ondemand.genre', genre.id),
  };
  if (since(ctx.version, 'connections')) out.metadata = { connections: { pages: { uri: `${uri}/pages`, options: ['GET'] } } };
  return out;
}
