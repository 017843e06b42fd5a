import { array, boolean, enums, integer, max, min, number, object, optional, pattern, refine, size, string } from 'superstruct';
import { contentRatings, licenses, privacyComments, privacyEmbeds, privacyViews } from '../catalog/content';
import { languages } from '../catalog/languages';

const bool = () => optional(boolean());
const titleShow = () => optional(enums(['hide', 'show', 'user']));
/** The password a viewer sends to see a password-protected video (privacy.view `password`). */
export const viewPassword = optional(size(string(), 1, 128));
/** The parameters of a read of a video a password may protect. */
export const viewParams = object({ password: viewPassword });
export const httpUrl = refine(size(string(), 1, 2048), 'url', (v) => /^https?:\/\/[^\s]+$/i.test(v) || 'must be an http or https URL');
const range = (lo: number, hi: number) => max(min(number(), lo), hi);

/** The fields of SPEC.md's Video table, writable through PATCH and at creation. */
export const videoFields = {
  name: optional(size(string(), 0, 256)),
  description: optional(size(string(), 0, 5000)),
  content_rating: optional(array(enums(contentRatings))),
  license: optional(enums(licenses)),
  locale: optional(enums(languages as string[])),
  password: optional(size(string(), 1, 128)),
  privacy: optional(
    object({
      view: optional(enums(privacyViews)),
      comments: optional(enums(privacyComments)),
      embed: optional(enums(privacyEmbeds)),
      download: bool(),
      add: bool(),
    }),
  ),
  review_page: optional(object({ active: bool() })),
  /** The name before 3.3.6. */
  review_link: bool(),
  embed: optional(
    object({
      buttons: optional(
        object({ embed: bool(), fullscreen: bool(), hd: bool(), like: bool(), scaling: bool(), share: bool(), watchlater: bool() }),
      ),
      color: optional(pattern(string(), /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/)),
      logos: optional(
        object({
          custom: optional(object({ active: bool(), sticky: bool(), link: optional(httpUrl) })),
          service: bool(),
        }),
      ),
      playbar: bool(),
      volume: bool(),
      title: optional(object({ name: titleShow(), owner: titleShow(), portrait: titleShow() })),
    }),
  ),
  external_links: optional(object({ imdb: optional(size(string(), 0, 2048)), rotten_tomatoes: optional(size(string(), 0, 2048)) })),
  ratings: optional(
    object({
      mpaa: optional(object({ rating: optional(enums(['g', 'nc17', 'pg', 'pg13', 'r', 'x'])), reason: optional(enums(['at', 'bn', 'n', 'sl', 'ss', 'v'])) })),
      tv: optional(
        object({
          rating: optional(enums(['tv-14', 'tv-g', 'tv-ma', 'tv-pg', 'tv-y', 'tv-y7', 'tv-y7-fv'])),
          reason: optional(enums(['d', 'fv', 'l', 'ss', 'v'])),
        }),
      ),
    }),
  ),
  spatial: optional(
    object({
      projection: optional(enums(['cubical', 'cylindrical', 'dome', 'equirectangular', 'pyramid'])),
      stereo_format: optional(enums(['left-right', 'mono', 'top-bottom'])),
      field_of_view: optional(max(min(integer(), 30), 90)),
      director_timeline: optional(
        size(
          array(object({ time_code: min(number(), 0), pitch: range(-90, 90), yaw: range(0, 360), roll: optional(number()) })),
          0,
          1000,
        ),
      ),
    }),
  ),
  scheduled_start_time: optional(size(string(), 0, 64)),
};

/** The parameters of POST /me/videos: the metadata plus the upload request. */
export const uploadFields = {
  upload: optional(
    object({
      approach: optional(enums(['post', 'pull', 'streaming', 'tus'])),
      link: optional(httpUrl),
      redirect_url: optional(httpUrl),
      size: optional(min(integer(), 0)),
    }),
  ),
  /** Removed in 3.4: `type` in place of upload.approach, and top-level link/redirect_url. */
  type: optional(string()),
  link: optional(httpUrl),
  redirect_url: optional(httpUrl),
};
