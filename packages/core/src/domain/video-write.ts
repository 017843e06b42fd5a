import { object, type Infer } from 'superstruct';
import type { EmbedSettings, UserRecord, VideoRecord } from '../records';
import { forbidden, invalidField } from '../engine/errors';
import type { Context } from '../engine/operation';
import { isoTime } from '../support/time';
import { mergeDeep, stripUndefined } from './patch';
import { hashSecret } from './secrets';
import { videoFields } from './video-fields';

const videoStruct = object(videoFields);
export type VideoInput = Infer<typeof videoStruct>;

/** The SPEC.md rules of PATCH /videos/{id} that depend on the caller and the request, not on one field. */
export function checkVideoRules(ctx: Context<unknown>, owner: UserRecord, input: VideoInput, current: VideoRecord | null): void {
  const view = input.privacy?.view ?? current?.privacy_view;
  if (input.privacy?.view === 'users' && ctx.request.bodyKind !== 'json') {
    throw invalidField('privacy.view', 'users privacy can only be set with a JSON body (Content-Type: application/json)');
  }
  if (input.privacy?.view === 'password' && !input.password && !current?.password_hash && !owner.password_hash) {
    throw invalidField('password', 'is required when privacy.view is password');
  }
  if (input.scheduled_start_time !== undefined) {
    const at = Date.parse(input.scheduled_start_time);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(input.scheduled_start_time) || Number.isNaN(at) || at <= ctx.now().getTime()) {
      throw invalidField('scheduled_start_time', 'must be an ISO 8601 date-time in the future', 2511);
    }
  }
  const basic = owner.account === 'basic';
  if (basic && input.privacy?.view === 'unlisted') throw forbidden('Basic-plan users cannot set privacy.view to unlisted.');
  if (basic && input.privacy?.download !== undefined) throw forbidden('Download privacy is unavailable to basic-plan users.');
  if (view === 'disable' && basic && input.embed !== undefined) {
    throw forbidden('With privacy.view disable, only paid plans may set extra embed options.');
  }
  if (input.privacy?.view === 'contacts' && !owner.can_follow) {
    throw forbidden('privacy.view contacts needs a user who may follow users.');
  }
  if (owner.privacy_opt_out && input.privacy?.view && ['users', 'password', 'nobody', 'anybody'].includes(input.privacy.view)) {
    throw forbidden(`This account opted out of the privacy setting "${input.privacy.view}".`);
  }
}

/** The player settings a new video or embed preset starts with. */
export const defaultEmbed = (): EmbedSettings => ({
  buttons: { embed: true, fullscreen: true, hd: false, like: true, scaling: true, share: true, watchlater: true },
  color: '#00adef',
  logos: { service: true, custom: { active: false, link: null, sticky: false } },
  playbar: true,
  volume: true,
  title: { name: 'user', owner: 'user', portrait: 'user' },
});

/** Embed input as stored: the color always carries its `#`. */
export const normalizeEmbed = <E extends { color?: string }>(embed: E): E =>
  embed.color && !embed.color.startsWith('#') ? { ...embed, color: `#${embed.color}` } : embed;

/** The record a new video starts as: the owner's upload defaults, then the request. */
export function newVideo(owner: UserRecord, now: Date): Omit<VideoRecord, 'id'> {
  const time = isoTime(now);
  const d = owner.video_defaults;
  return {
    user_id: owner.id,
    name: 'Untitled',
    description: '',
    license: null,
    locale: null,
    content_rating: ['unrated'],
    privacy_view: d.view,
    privacy: { comments: d.comments, embed: d.embed, download: d.download, add: d.add },
    embeddable: d.embed !== 'private',
    password_hash: d.view === 'password' ? owner.password_hash : null,
    review_page_active: true,
    ondemand_page_id: null,
    embed: defaultEmbed(),
    external_links: { imdb: null, rotten_tomatoes: null },
    ratings: { mpaa: { rating: null, reason: null }, tv: { rating: null, reason: null } },
    spatial: { projection: null, stereo_format: null, field_of_view: 50, director_timeline: [] },
    scheduled_start_time: null,
    upload: { approach: null, link: null, redirect_url: null, size: null, status: 'in_progress' },
    status: 'uploading',
    transcode_status: 'in_progress',
    duration: 0,
    width: 0,
    height: 0,
    plays: 0,
    likes_total: 0,
    comments_total: 0,
    credits_total: 0,
    pictures_total: 0,
    texttracks_total: 0,
    users_with_access_total: 0,
    albums_total: 0,
    versions_total: 1,
    tags: [],
    tag_names: '',
    categories: [],
    active_picture: null,
    preset_id: null,
    parent_folder: null,
    created_time: time,
    modified_time: time,
    release_time: time,
  };
}

/** The stored fields an accepted request changes. */
export async function videoPatch(current: Omit<VideoRecord, 'id'>, input: VideoInput, now: Date): Promise<Partial<VideoRecord>> {
  const { view, ...privacy } = input.privacy ?? {};
  const mergedPrivacy = mergeDeep<VideoRecord['privacy']>(current.privacy, privacy);
  const reviewActive = input.review_page?.active ?? input.review_link;
  const embed = input.embed && normalizeEmbed(input.embed);
  return stripUndefined<Partial<VideoRecord>>({
    name: input.name,
    description: input.description,
    content_rating: input.content_rating,
    license: input.license,
    locale: input.locale,
    privacy_view: view,
    privacy: mergedPrivacy,
    embeddable: mergedPrivacy.embed !== 'private',
    password_hash: input.password !== undefined ? await hashSecret(input.password) : undefined,
    review_page_active: reviewActive,
    embed: embed ? mergeDeep(current.embed, embed) : undefined,
    external_links: input.external_links ? mergeDeep(current.external_links, input.external_links) : undefined,
    ratings: input.ratings ? mergeDeep(current.ratings, input.ratings) : undefined,
    spatial: input.spatial ? mergeDeep(current.spatial, input.spatial) : undefined,
    scheduled_start_time: input.scheduled_start_time,
    modified_time: isoTime(now),
  });
}

/** 403 unless the caller owns the video. */
export function assertOwner(ctx: Context<unknown>, video: VideoRecord, action: string): void {
  if (video.user_id !== ctx.principal.user?.id) throw forbidden(`Only the video's owner may ${action} it.`);
}

