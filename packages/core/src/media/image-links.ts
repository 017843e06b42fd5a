import { createHash } from 'node:crypto';
import type { LinkSigner } from './link-signer';
import type { LinkAccess } from './link-access';
import type { PlaceholderKind } from './media-tools';
import type { StoredImage } from '../records/image';
import type { VideoRecord } from '../records';

/** The families of image links, one per collection that holds images (`videos`: a video's own frame, `chapters`: the frame at a chapter's timecode). */
export type ImageFamily = 'pictures' | 'customlogos' | 'timelinethumbnails' | 'videos' | 'chapters';

/** What an image link shows: the uploaded image, a frame of the owner video's file, or the placeholder. */
export type ImageContent =
  | { kind: 'upload'; image: StoredImage }
  | { kind: 'frame'; videoId: string; fileKey: string; seconds: number }
  | { kind: 'placeholder'; placeholder: PlaceholderKind };

/** A video file, as much as a frame of it needs. */
export interface FrameSource {
  videoId: string;
  fileKey: string;
  duration: number;
}

/** Where a video's own picture is taken when nobody chose one: a third of the way in, at most 30 s. */
export const defaultFrameSeconds = (duration: number): number => Math.min(Math.max(duration, 0) / 3, 30);

const fileTag = (fileKey: string): string => createHash('sha256').update(fileKey).digest('hex').slice(0, 12);

/** The version part of a link: changes whenever what the link shows changes. */
export function contentVersion(content: ImageContent): string {
  if (content.kind === 'upload') return `u${content.image.version}`;
  if (content.kind === 'frame') return `f${fileTag(content.fileKey)}t${Math.round(content.seconds * 1000)}`;
  return 'p';
}

export const imageType = (content: ImageContent): 'jpeg' | 'png' =>
  content.kind === 'upload' ? content.image.type : content.kind === 'frame' ? 'jpeg' : 'png';

export const extensionOf = (type: 'jpeg' | 'png'): string => (type === 'png' ? 'png' : 'jpg');

export const imageSubject = (family: ImageFamily, id: string, version: string): string => `${family}/${id}/${version}`;

/** The version part of a link: the content's, then for a video that is not public its access version and the link's expiry (`u1.a2.e1767571200`). */
export const linkVersion = (content: ImageContent, access: LinkAccess | null): string =>
  access ? `${contentVersion(content)}.a${access.version}.e${access.expires}` : contentVersion(content);

/** A link's version part read back: the content version and the access it is bound to; null when it is not one. */
export function parseLinkVersion(version: string): { content: string; access: LinkAccess | null } | null {
  const m = /^([a-z0-9]{1,64})(?:\.a(\d{1,9})\.e(\d{1,12}))?$/.exec(version);
  if (!m) return null;
  return { content: m[1], access: m[2] === undefined ? null : { version: Number(m[2]), expires: Number(m[3]) } };
}

/** The signed part of an image link: `<version>-<signature>`. */
export const imageToken = (signer: LinkSigner, family: ImageFamily, id: string, content: ImageContent, access: LinkAccess | null): string => {
  const version = linkVersion(content, access);
  return `${version}-${signer.sign(imageSubject(family, id, version))}`;
};

/**
 * The capability that lets a PUT to a link without a bearer token (vimeo.php uploads images with
 * a bare curl handle) store an image: handed only to the uploader, only while the record has no
 * image of its own, and bound to the version it was handed for, so one upload spends it and a
 * public image link never carries one.
 */
export const uploadCapability = (signer: LinkSigner, family: string, id: string, version: string): string => signer.sign(`upload/${family}/${id}/${version}`);

export interface ImageLinks {
  /** The image itself (its master); an upload is PUT here. */
  link: string;
  sizes: { width: number; height: number; link: string }[];
}

/** The links of one image: `…/media/<family>/<id>/<token>` and one per size, `…/<w>x<h>.<ext>`; `access` binds them to a video's (media/link-access.ts). */
export function imageLinks(
  base: string,
  signer: LinkSigner,
  family: ImageFamily,
  id: string,
  content: ImageContent,
  dims: readonly (readonly [number, number])[],
  uploader = false,
  access: LinkAccess | null = null,
): ImageLinks {
  const link = `${base}/media/${family}/${id}/${imageToken(signer, family, id, content, access)}`;
  const ext = extensionOf(imageType(content));
  const writable = uploader && content.kind !== 'upload' ? `?upload=${uploadCapability(signer, family, id, contentVersion(content))}` : '';
  return { link: `${link}${writable}`, sizes: dims.map(([width, height]) => ({ width, height, link: `${link}/${width}x${height}.${ext}` })) };
}

/** The sizes every picture is served in: 16:9 for thumbnails, posters and logos, squares for portraits. */
export const thumbnailSizes: readonly (readonly [number, number])[] = [
  [100, 75],
  [200, 150],
  [295, 166],
  [640, 360],
  [960, 540],
  [1280, 720],
  [1920, 1080],
];
export const portraitSizes: readonly (readonly [number, number])[] = [30, 72, 75, 100, 144, 216, 288, 300, 360].map((s) => [s, s] as const);

/** Blob key prefix of everything an owner's media left in the blob store (removed with the owner). */
export const ownerMediaPrefix = (ownerKind: string, ownerId: string): string => `media/${ownerKind}/${ownerId}`;

/** Blob key prefix of one record's media. */
export const recordMediaPrefix = (ownerKind: string, ownerId: string, family: string, id: string): string =>
  `${ownerMediaPrefix(ownerKind, ownerId)}/${family}/${id}`;

/** Where a video's frames are cached, per file: a new file leaves the old file's frames to be removed with it. */
export const framePrefix = (videoId: string, fileKey: string): string => `${ownerMediaPrefix('video', videoId)}/frames/${fileTag(fileKey)}`;

/** Blob key prefix of one picture's files (thumbnails, portraits, logos, posters, backgrounds all live in `pictures`). */
export const pictureMediaPrefix = (picture: { id: string; owner_kind: string; owner_id: string }): string =>
  recordMediaPrefix(picture.owner_kind, picture.owner_id, 'pictures', picture.id);

/** Everything of a video in the blob store: its files (every version) and its media (pictures, frames, text tracks). */
export const videoFilePrefixes = (videoId: string): string[] => [`videos/${videoId}`, ownerMediaPrefix('video', videoId)];

/** The file a video's pictures take frames from: only a video that is available has one. */
export const frameSource = (video: VideoRecord): FrameSource | null =>
  video.file && video.status === 'available' ? { videoId: video.id, fileKey: video.file.key, duration: video.duration } : null;
