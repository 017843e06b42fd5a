import sharp from 'sharp';
import { assertSize } from './images';

export type PlaceholderKind = 'portrait' | 'thumbnail' | 'logo';

const background = '#2f3133';
const ink = '#6b6f73';

/** Each glyph drawn in a 100×100 box, centred and scaled to the image by `placeholderSvg`. */
const glyphs: Record<PlaceholderKind, string> = {
  // A play triangle, nudged right so it looks centred.
  thumbnail: '<path d="M36 24 L80 50 L36 76 Z"/>',
  // A head above the curve of the shoulders.
  portrait: '<circle cx="50" cy="36" r="18"/><path d="M16 90 C16 66 32 58 50 58 C68 58 84 66 84 90 Z"/>',
  // A framed picture: two mountains and a sun.
  logo:
    `<path fill-rule="evenodd" d="M12 20 H88 V80 H12 Z M18 26 V74 H82 V26 Z"/>` +
    '<path d="M22 70 L42 42 L54 58 L64 48 L78 70 Z"/><circle cx="68" cy="36" r="6"/>',
};

/** The glyph takes half of the shorter side, so it stays legible in a banner or a column. */
function placeholderSvg(kind: PlaceholderKind, width: number, height: number): string {
  const side = Math.min(width, height) / 2;
  const scale = side / 100;
  const x = (width - side) / 2;
  const y = (height - side) / 2;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" fill="${background}"/>` +
    `<g fill="${ink}" transform="translate(${x} ${y}) scale(${scale})">${glyphs[kind]}</g></svg>`
  );
}

/** Bounded so that a crawler asking for every size cannot grow it without end. */
const cacheLimit = 256;

/** A PNG placeholder per kind and size, rendered once and then served from memory. */
export function createPlaceholders(): (kind: PlaceholderKind, width: number, height: number) => Promise<Uint8Array> {
  const cache = new Map<string, Promise<Uint8Array>>();
  return async (kind, width, height) => {
    assertSize(width, height);
    const key = `${kind} ${width}x${height}`;
    let png = cache.get(key);
    if (!png) {
      if (cache.size >= cacheLimit) cache.clear();
      // The background is opaque, so the alpha channel librsvg renders would only add bytes.
      png = sharp(Buffer.from(placeholderSvg(kind, width, height))).removeAlpha().png().toBuffer();
      // A failed render is not kept: the next call tries again.
      png.catch(() => cache.delete(key));
      cache.set(key, png);
    }
    return png;
  };
}
