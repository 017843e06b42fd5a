import type { Genre } from '../catalog/genres';
import { since } from '../engine/versions';
import { resourceKey, type RepresentContext } from './common';

export const genreUri = (id: string): string => `/ondemand/genres/${id}`;

/** A page a genre is represented on: its `interactions.page` says the genre is the page's, and what the viewer may do about it. */
export interface GenreOnPage {
  pageUri: string;
  /** Only the page's owner files it under genres. */
  isOwner: boolean;
}

/** The On Demand Genre representation; on a page (since 3.3, with the page's other On Demand fields) it carries `interactions.page`. */
export function representGenre(genre: Genre, ctx: RepresentContext, onPage?: GenreOnPage): Record<string, unknown> {
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
  if (onPage && since(ctx.version, 'ondemandFields')) {
    out.interactions = {
      page: { uri: `${onPage.pageUri}/genres/${genre.id}`, options: onPage.isOwner ? ['GET', 'PUT', 'DELETE'] : ['GET'], added: true },
    };
  }
  return out;
}
