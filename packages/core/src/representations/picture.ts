import type { PictureRecord } from '../records';
import { resourceKey, type RepresentContext } from './common';

const videoSizes: [number, number][] = [
  [100, 75],
  [200, 150],
  [295, 166],
  [640, 360],
  [960, 540],
  [1280, 720],
  [1920, 1080],
];
const squareSizes = [30, 72, 75, 100, 144, 216, 288, 300, 360];

/** The sizes a picture is served in: 16:9 for video thumbnails and posters, squares for portraits. */
export function pictureSizes(kind: string, base: string): { width: number; height: number; link: string }[] {
  const dims = kind === 'user' ? squareSizes.map((s): [number, number] => [s, s]) : videoSizes;
  return dims.map(([width, height]) => ({ width, height, link: `${base}_${width}x${height}.jpg` }));
}

/** The Picture representation; `uri` is the picture's path under its owner (e.g. `/videos/7/pictures/3`). */
export function representPicture(picture: PictureRecord, uri: string, ctx: RepresentContext): Record<string, unknown> {
  const base = `${ctx.baseUrl}/static/pictures/${picture.id}`;
  const sizes = pictureSizes(picture.owner_kind, base);
  const out: Record<string, unknown> = {
    uri,
    active: picture.active,
    type: picture.type,
    link: sizes[sizes.length - 1].link,
    sizes,
    resource_key: resourceKey('picture', picture.id),
  };
  if (picture.time !== null) out.time = picture.time;
  // The `default` field exists in 3.2 only (SPEC.md, Versioning: added 3.2, removed 3.3).
  if (ctx.version[0] === 3 && ctx.version[1] === 2) out.default = false;
  return out;
}
