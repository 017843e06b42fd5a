import { ondemandCommentOperations } from './ondemand-comments';
import { ondemandGenreOperations } from './ondemand-genres';
import { ondemandLikeOperations } from './ondemand-likes';
import { ondemandMediaOperations } from './ondemand-media';
import { ondemandPageOperations } from './ondemand-pages';
import { ondemandPromotionOperations } from './ondemand-promotions';
import { ondemandPurchaseOperations } from './ondemand-purchases';
import { ondemandRegionOperations } from './ondemand-regions';
import { ondemandSeasonOperations } from './ondemand-seasons';
import { ondemandVideoOperations } from './ondemand-videos';

/** SPEC.md "On Demand": pages and their lifecycle, genres, regions, media, videos, seasons, likes (and comments), promotions, purchases. */
export const ondemandOperations = [
  ...ondemandPageOperations,
  ...ondemandGenreOperations,
  ...ondemandRegionOperations,
  ...ondemandMediaOperations,
  ...ondemandVideoOperations,
  ...ondemandSeasonOperations,
  ...ondemandLikeOperations,
  ...ondemandCommentOperations,
  ...ondemandPromotionOperations,
  ...ondemandPurchaseOperations,
];
