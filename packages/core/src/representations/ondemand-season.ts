import type { SeasonRecord } from '../records/ondemand';
import { since } from '../engine/versions';
import { connection, resourceKey, type RepresentContext } from './common';
import { pageUri } from './ondemand-page';

export const seasonUri = (season: SeasonRecord): string => `${pageUri(season.page_id)}/seasons/${season.id}`;

/** The On Demand Season representation. */
export function representSeason(season: SeasonRecord, ctx: RepresentContext): Record<string, unknown> {
  const uri = seasonUri(season);
  const out: Record<string, unknown> = {
    uri,
    name: `Season ${season.number}`,
    position: season.number,
    created_time: season.created_time,
    resource_key: resourceKey('ondemand.season', season.id),
  };
  if (since(ctx.version, 'connections')) out.metadata = { connections: { videos: connection(`${uri}/videos`, season.videos_total) } };
  return out;
}
