import { invalidField } from '../engine/errors';
import { operation, type Context, type Reply } from '../engine/operation';
import { loadImageRecord, saveImage, type ImageRecord } from '../domain/image-records';
import { authorizeUpload, blobReply, commitUpload, deadLink, mediaAccess, mediaHeaders, notModified, readUpload, uploadedBytes, type Validators } from '../domain/media-files';
import { contentVersion, extensionOf, framePrefix, imageSubject, imageType, parseLinkVersion, recordMediaPrefix, type ImageContent, type ImageFamily } from '../media/image-links';
import { type StoredImage } from '../records/image';
import { isMediaInputError } from '../media/media-tools';
import { accessHolds } from '../media/link-access';
import { isoTime } from '../support/time';
import { pictureContent, placeholderOf, sizesOf } from '../representations/picture';

/**
 * Image links: `/media/<family>/<id>/<version>-<signature>` is an image's master (and where its
 * owner PUTs a new one), `…/<w>x<h>.<ext>` one of its sizes. Made on first request from the
 * master, or from a frame of the video, then kept beside it.
 */

const families = ['pictures', 'customlogos', 'timelinethumbnails'] as const;
/** Frames nobody uploads to: a video's own, and each chapter's. */
const frameFamilies = ['videos', 'chapters'] as const;
const familyOf = (ctx: Context<unknown>): ImageFamily => ctx.request.path.split('/')[2] as ImageFamily;

/**
 * The record and content a link names, once its version is the current one, its signature holds
 * and, for a video's image, the video's access has not changed since it was handed out (nor has
 * the link expired).
 */
async function resolve(ctx: Context<unknown>, anyVersion = false): Promise<{ record: ImageRecord; content: ImageContent; bound: boolean }> {
  const family = familyOf(ctx);
  const dash = ctx.path.token.indexOf('-');
  const version = ctx.path.token.slice(0, dash);
  const parsed = parseLinkVersion(version);
  const record = dash > 0 && parsed ? await loadImageRecord(ctx.store, family, ctx.path.image_id) : null;
  if (!record || !parsed || !ctx.links.verify(imageSubject(family, record.id, version), ctx.path.token.slice(dash + 1))) throw deadLink();
  if (!accessHolds(record.video, parsed.access, ctx.now())) throw deadLink();
  const content = pictureContent(record.image, record.kind, record.time, record.frame);
  if (!anyVersion && contentVersion(content) !== parsed.content) throw deadLink();
  return { record, content, bound: parsed.access !== null };
}

/** The size a link's last segment names, among those the record is served in. */
function sizeOf(record: ImageRecord, content: ImageContent, name: string | undefined): readonly [number, number] | null {
  if (name === undefined) return null;
  const m = /^(\d{1,4})x(\d{1,4})\.(\w+)$/.exec(name);
  const dims = m && sizesOf(record.kind).find(([w, h]) => w === Number(m[1]) && h === Number(m[2]));
  if (!m || !dims || m[3] !== extensionOf(imageType(content))) throw deadLink();
  return dims;
}

const mime = (type: 'jpeg' | 'png') => `image/${type}`;

async function serve(ctx: Context<unknown>): Promise<Reply> {
  const resolved = await resolve(ctx);
  const reply = await serveImage(ctx, resolved);
  // A link bound to a video's access dies with it: no shared cache may keep its image, a browser a day at most.
  return resolved.bound ? { ...reply, headers: { ...reply.headers, 'Cache-Control': 'private, max-age=86400' } } : reply;
}

async function serveImage(ctx: Context<unknown>, { record, content }: { record: ImageRecord; content: ImageContent }): Promise<Reply> {
  const dims = sizeOf(record, content, ctx.path.size);
  const v: Validators = {
    etag: `"${contentVersion(content)}-${dims ? dims.join('x') : 'master'}"`,
    lastModified: content.kind === 'upload' ? content.image.time : record.created_time,
  };
  const fresh = notModified(ctx, v);
  if (fresh) return fresh;
  const { blobs, media } = mediaAccess(ctx);
  const type = imageType(content);
  if (content.kind === 'placeholder') {
    const [w, h] = dims ?? sizesOf(record.kind)[sizesOf(record.kind).length - 1];
    return { status: 200, headers: mediaHeaders(v), bytes: { data: await media.placeholder(content.placeholder, w, h), type: mime(type) } };
  }
  const dir = content.kind === 'upload' ? content.image.key : `${framePrefix(content.videoId, content.fileKey)}/t${Math.round(content.seconds * 1000)}`;
  const masterKey = `${dir}/master`;
  if (content.kind === 'frame' && !(await blobs.stat(masterKey))) {
    // A file the probe took for a video may still hold no decodable frame: its frame is the placeholder.
    const source = await blobs.materialise(content.fileKey);
    const frame = await media
      .frame(source.path, content.seconds)
      .catch(async (e: unknown) => {
        if (!isMediaInputError(e)) throw e;
        const [w, h] = sizesOf(record.kind)[sizesOf(record.kind).length - 1];
        return media.renderImage(await media.placeholder(placeholderOf(record.kind), w, h), w, h, 'jpeg');
      })
      .finally(() => source.release());
    await blobs.put(masterKey, [frame]);
  }
  if (!dims) return (await blobReply(blobs, masterKey, mime(type), v)) ?? Promise.reject(deadLink());
  const sizeKey = `${dir}/${dims[0]}x${dims[1]}`;
  const kept = await blobReply(blobs, sizeKey, mime(type), v);
  if (kept) return kept;
  const master = await readAll(blobs.reader(masterKey), (await blobs.stat(masterKey))?.size ?? 0);
  await blobs.put(sizeKey, [await media.renderImage(master, dims[0], dims[1], type)]);
  return (await blobReply(blobs, sizeKey, mime(type), v))!;
}

async function readAll(read: (offset: number, length: number) => Promise<Uint8Array>, size: number): Promise<Uint8Array> {
  if (size === 0) throw deadLink();
  return read(0, size);
}

const paths = (suffix: string) => [...families, ...frameFamilies].map((f) => `/media/${f}/{image_id}/{token}${suffix}`);

export const getImage = operation({
  id: 'media.images.get',
  summary: 'An image: the master at a picture’s `link`, each size at its `sizes[].link` (signed links; ETag, 304)',
  method: 'GET',
  paths: [...paths(''), ...paths('/{size}')],
  handle: serve,
});

export const putImage = operation({
  id: 'media.images.upload',
  summary:
    'Upload the image of a picture, portrait, logo, poster, background or timeline thumbnail: PUT its bytes to its `link` (JPEG, PNG, WebP or GIF), with the owner’s token (scope upload), or without one to the `link` the owner was handed before the first upload',
  method: 'PUT',
  paths: families.map((f) => `/media/${f}/{image_id}/{token}`),
  // Authorised by authorizeUpload: the owner's token, or the owner's upload capability.
  rawBody: {
    maxBytes: (config) => config.imageMaxBytes,
    tooLarge: (max) => invalidField('file', `Images are limited to ${max} bytes.`),
  },
  ownTransaction: true,
  async handle(ctx) {
    const { record, content } = await resolve(ctx, true);
    authorizeUpload(ctx, record.userId, `upload/${record.family}/${record.id}/${contentVersion(content)}`);
    const bytes = uploadedBytes(ctx, 'image');
    const { blobs, media } = mediaAccess(ctx);
    // Decoded before any transaction opens: a large image takes a while, and no write waits on it.
    const { master, info } = await readUpload(() => media.prepareImage(bytes));
    const prefix = recordMediaPrefix(record.owner.kind, record.owner.id, record.family, record.id);
    return commitUpload(
      ctx,
      blobs,
      prefix,
      (key) => blobs.put(`${key}/master`, [master]),
      async (tx, key) => {
        const current = await loadImageRecord(tx, record.family, record.id);
        if (!current) throw deadLink();
        const time = isoTime(ctx.now());
        const image: StoredImage = { version: (current.image?.version ?? 0) + 1, key, width: info.width, height: info.height, format: info.format, type: info.alpha ? 'png' : 'jpeg', time };
        await saveImage(tx, current, image, time);
        return current.image;
      },
    );
  },
});

export const mediaImageOperations = [getImage, putImage];
