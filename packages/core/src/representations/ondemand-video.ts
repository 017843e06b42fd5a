import type { PageVideoRecord, SeasonRecord } from '../records/ondemand';
import { since } from '../engine/versions';
import type { RepresentContext } from './common';
import { pageUri } from './ondemand-page';
import { seasonUri } from './ondemand-season';

/** What the page says about one of its videos. */
function details(row: PageVideoRecord, season: SeasonRecord | null) {
  return {
    type: row.type,
    position: row.position,
    release_year: row.release_year,
    season: season ? { uri: seasonUri(season), name: `Season ${season.number}` } : null,
    buy: { price: row.buy_price },
    rent: { price: row.rent_price },
    added_time: row.created_time,
  };
}

/**
 * A video of an On Demand page. From 3.4 it is the Clip, with the page's details in `ondemand`;
 * before, the On Demand Video representation: the page's details with the Clip in `video`
 * (SPEC.md, Versioning 3.4).
 */
export function representPageVideo(
  row: PageVideoRecord,
  season: SeasonRecord | null,
  clip: Record<string, unknown>,
  ctx: RepresentContext,
): Record<string, unknown> {
  if (since(ctx.version, 'ondemandCurrentForm')) return { ...clip, ondemand: details(row, season) };
  return { uri: `${pageUri(row.page_id)}/videos/${row.video_id}`, ...details(row, season), video: clip };
}

/** The content type kind of page videos at a version. */
export const pageVideoKind = (ctx: RepresentContext): string => (since(ctx.version, 'ondemandCurrentForm') ? 'video' : 'ondemand.video');
