import { MediaInputError } from './errors';

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif';

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** Formats we refuse but can name, so the user learns what they sent. */
const refused: [name: string, test: (b: Uint8Array) => boolean][] = [
  ['tiff', (b) => ascii(b, 0, 4) === 'II*\0' || ascii(b, 0, 4) === 'MM\0*'],
  ['avif', (b) => ascii(b, 4, 8) === 'ftyp' && /^avi[fs]/.test(ascii(b, 8, 12))],
  ['heif', (b) => ascii(b, 4, 8) === 'ftyp' && /^(hei[cxms]|hev[cxms]|mif1|msf1)/.test(ascii(b, 8, 12))],
  ['bmp', (b) => ascii(b, 0, 2) === 'BM' && ascii(b, 6, 10) === '\0\0\0\0'],
  ['pdf', (b) => ascii(b, 0, 5) === '%PDF-'],
  ['svg', (b) => /<svg[\s>]/i.test(new TextDecoder().decode(b.subarray(0, 4096)))],
];

/**
 * The format named by the leading bytes. Uploads are sniffed before sharp sees them so that it
 * never parses the formats libvips would also accept (SVG, TIFF, HEIF, PDF…).
 */
export function sniffImage(bytes: Uint8Array): ImageFormat {
  if (bytes.length === 0) throw new MediaInputError('The image is empty.');
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'gif';
  const name = refused.find(([, test]) => test(bytes))?.[0];
  throw new MediaInputError(`Images must be JPEG, PNG, WebP or GIF; this is ${name ?? 'none of them'}.`);
}
