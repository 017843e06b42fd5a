import type { PictureRecord, VideoRecord } from '../records';
import {
  defaultFrameSeconds,
  imageLinks,
  portraitSizes,
  thumbnailSizes,
  type FrameSource,
  type ImageContent,
  type ImageFamily,
} from '../media/image-links';
import type { PlaceholderKind } from '../media/media-tools';
import { pictureAccess, type LinkAccess } from '../media/link-access';
import { resourceKey, type RepresentContext } from './common';
import { frameSource } from '../media/image-links';

/** The placeholder each kind of picture owner shows until it has an image. */
export const placeholderOf = (ownerKind: string): PlaceholderKind =>
  ownerKind === 'user' ? 'portrait' : ownerKind === 'album_logo' || ownerKind === 'customlogo' ? 'logo' : 'thumbnail';

/** The sizes a picture of this owner kind is served in. */
export const sizesOf = (ownerKind: string) => (ownerKind === 'user' ? portraitSizes : thumbnailSizes);

/** What a picture shows: its upload, else (a video's) the frame at its time, else the placeholder. */
export function pictureContent(image: PictureRecord['image'], ownerKind: string, time: number | null, frame: FrameSource | null): ImageContent {
  if (image) return { kind: 'upload', image };
  if (frame) return { kind: 'frame', videoId: frame.videoId, fileKey: frame.fileKey, seconds: time ?? defaultFrameSeconds(frame.duration) };
  return { kind: 'placeholder', placeholder: placeholderOf(ownerKind) };
}

/**
 * `link` and `sizes` of an image-bearing record; `uploader` is the user who may PUT its image
 * (their `link` carries the upload capability); `access`, what the links of a video's image are bound to.
 */
export const imageFields = (ctx: RepresentContext, family: ImageFamily, id: string, content: ImageContent, ownerKind: string, uploader: string | null, access: LinkAccess | null = null) =>
  imageLinks(ctx.baseUrl, ctx.links, family, id, content, sizesOf(ownerKind), uploader !== null && ctx.viewer?.id === uploader, access);

/**
 * The Picture representation; `uri` is the picture's path under its owner (e.g. `/videos/7/pictures/3`).
 * `uploader` is the user who may PUT its image; a video's pictures pass the video, so a picture
 * with no upload shows its frame and its links die with the video's access.
 */
export function representPicture(picture: PictureRecord, uri: string, ctx: RepresentContext, uploader: string | null, video: VideoRecord | null = null): Record<string, unknown> {
  const owner = picture.owner_kind === 'video' ? video : null;
  const content = pictureContent(picture.image, picture.owner_kind, picture.time, owner && frameSource(owner));
  const { link, sizes } = imageFields(ctx, 'pictures', picture.id, content, picture.owner_kind, uploader, owner && pictureAccess(owner, ctx.now));
  const out: Record<string, unknown> = {
    uri,
    active: picture.active,
    type: picture.type,
    link,
    sizes,
    resource_key: resourceKey('picture', picture.id),
  };
  if (picture.time !== null) out.time = picture.time;
  // The `default` field exists in 3.2 only (SPEC.md, Versioning: added 3.2, removed 3.3).
  if (ctx.version[0] === 3 && ctx.version[1] === 2) out.default = false;
  return out;
}

/** A video's own picture while nobody chose one: a frame of it, at the default offset. */
export function representVideoFrame(frame: FrameSource, ctx: RepresentContext, access: LinkAccess | null): Record<string, unknown> {
  const content = pictureContent(null, 'video', null, frame);
  const { link, sizes } = imageFields(ctx, 'videos', frame.videoId, content, 'video', null, access);
  const out: Record<string, unknown> = { uri: null, active: true, type: 'default', link, sizes, resource_key: resourceKey('videoframe', frame.videoId) };
  if (ctx.version[0] === 3 && ctx.version[1] === 2) out.default = false;
  return out;
}
