import { operation } from '../engine/operation';
import { deadLink, mediaAccess, mediaHeaders, notModified, type Validators } from '../domain/media-files';
import { portraitSizes, thumbnailSizes } from '../media/image-links';

const sizes = { portrait: portraitSizes, thumbnail: thumbnailSizes } as const;

/** Placeholders never change: one validator pair for all of them. */
const since = '2026-01-01T00:00:00+00:00';

export const getPlaceholder = operation({
  id: 'media.placeholders.get',
  summary: 'The service placeholder picture at one of its sizes (`portrait_30x30.png`, `thumbnail_640x360.png`…)',
  method: 'GET',
  paths: ['/static/placeholders/{file}'],
  async handle(ctx) {
    const m = /^(portrait|thumbnail)_(\d{1,4})x(\d{1,4})\.png$/.exec(ctx.path.file);
    const kind = m?.[1] as keyof typeof sizes | undefined;
    const dims = kind && sizes[kind].find(([w, h]) => w === Number(m![2]) && h === Number(m![3]));
    if (!kind || !dims) throw deadLink();
    const v: Validators = { etag: `"placeholder-${kind}-${dims.join('x')}"`, lastModified: since };
    const fresh = notModified(ctx, v);
    if (fresh) return fresh;
    const data = await mediaAccess(ctx).media.placeholder(kind, dims[0], dims[1]);
    // Unversioned links: cached for a day, revalidated after.
    return { status: 200, headers: mediaHeaders(v, false), bytes: { data, type: 'image/png' } };
  },
});

export const placeholderOperations = [getPlaceholder];
