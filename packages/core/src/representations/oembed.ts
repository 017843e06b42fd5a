import type { VideoRecord } from '../records';
import { iframeHtml } from './embed-html';
import { videoUri } from './video';

/** What an oEmbed answer says of a video; the operation loads the records and makes the links. */
export interface OembedInput {
  video: VideoRecord;
  owner: { name: string; link: string };
  provider: { name: string; url: string };
  /** The player URL the iframe loads, with the embed parameters. */
  src: string;
  width: number;
  height: number;
  thumbnail: { link: string; width: number; height: number };
}

/** `2026-01-02T03:04:05+00:00` → `2026-01-02 03:04:05`, as the hosted oEmbed endpoint writes `upload_date`. */
const uploadDate = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

/** The oEmbed answer (type `video`, version 1.0) with the hosted endpoint's fields, in its order. */
export function representOembed(i: OembedInput): Record<string, string | number> {
  return {
    type: 'video',
    version: '1.0',
    provider_name: i.provider.name,
    provider_url: i.provider.url,
    title: i.video.name,
    author_name: i.owner.name,
    author_url: i.owner.link,
    html: iframeHtml(i.src, i.width, i.height, i.video.name),
    width: i.width,
    height: i.height,
    duration: Math.round(i.video.duration),
    description: i.video.description,
    thumbnail_url: i.thumbnail.link,
    thumbnail_width: i.thumbnail.width,
    thumbnail_height: i.thumbnail.height,
    upload_date: uploadDate(i.video.created_time),
    video_id: Number(i.video.id),
    uri: videoUri(i.video.id),
  };
}

const xmlText = (value: string | number): string => String(value).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);

/** The same answer as oEmbed's XML format: one element per field inside `<oembed>`. */
export const oembedXml = (fields: Record<string, string | number>): string =>
  `<?xml version="1.0" encoding="utf-8"?>\n<oembed>\n${Object.entries(fields)
    .map(([k, v]) => `  <${k}>${xmlText(v)}</${k}>`)
    .join('\n')}\n</oembed>\n`;
