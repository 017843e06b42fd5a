import sharp from 'sharp';
import { MediaInputError } from './errors';
import { sniffImage } from './image-format';
import type { ImageInfo } from './media-tools';

/** Decompression-bomb guard: far above any camera, far below what would exhaust memory. */
const maxInputPixels = 100_000_000;

/**
 * 'error' rather than sharp's default 'warning': phone cameras write JPEGs with harmless
 * libjpeg warnings (extraneous bytes before a marker); truncation and decode errors still fail.
 */
const decodeOptions = { failOn: 'error', limitInputPixels: maxInputPixels, autoOrient: true, pages: 1 } as const;

export async function prepareImage(bytes: Uint8Array): Promise<{ master: Uint8Array; info: ImageInfo }> {
  const format = sniffImage(bytes);
  // Only the header is read here; limitInputPixels would reject without telling the size.
  const meta = await sharp(bytes, { ...decodeOptions, limitInputPixels: false }).metadata().catch(corrupt);
  if (meta.width * meta.height > maxInputPixels) {
    throw new MediaInputError(`The image is ${meta.width}×${meta.height} pixels; images may have at most 100 megapixels.`);
  }
  const alpha = meta.hasAlpha && (await transparent(bytes));
  const image = sharp(bytes, decodeOptions);
  const encoded = alpha ? image.png() : image.jpeg({ quality: 90, mozjpeg: false });
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true }).catch(corrupt);
  return { master: data, info: { format, width: info.width, height: info.height, alpha } };
}

export async function renderImage(master: Uint8Array, width: number, height: number, type: 'jpeg' | 'png'): Promise<Uint8Array> {
  assertSize(width, height);
  const resized = sharp(master).resize(width, height, { fit: 'cover', position: 'centre' });
  // A JPEG has no alpha: transparent parts of a PNG master become white, not libvips' black.
  return (type === 'png' ? resized.png() : resized.flatten({ background: '#ffffff' }).jpeg({ quality: 82 })).toBuffer();
}

/**
 * libvips gives every GIF an alpha channel and design tools write opaque ones into PNGs: only
 * visible transparency is worth a PNG master (a photo is several times smaller as a JPEG).
 * Scanning the alpha band (a byte a pixel) is three times faster than sharp's `stats()`.
 */
async function transparent(bytes: Uint8Array): Promise<boolean> {
  const alpha = await sharp(bytes, decodeOptions).extractChannel('alpha').raw({ depth: 'uchar' }).toBuffer().catch(corrupt);
  return alpha.some((value) => value !== 255);
}

/** Sizes come from core's tables, so a bad one is a bug, not user input. */
export function assertSize(width: number, height: number): void {
  const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= 10_000;
  if (!ok(width) || !ok(height)) throw new RangeError(`Image size ${width}×${height} is not two integers from 1 to 10000.`);
}

function corrupt(cause: unknown): never {
  throw new MediaInputError('The image is truncated or corrupt.', { cause });
}
