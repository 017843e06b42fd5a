import { invalidField } from '../engine/errors';

/** `/videos/7`, `/users/3/videos/7` or a bare `7`. */
const videoEntry = /^(?:\/users\/[\w-]{1,64})?\/videos\/(\d{1,18})$|^(\d{1,18})$/;

/** The id a video URI names, or 400 naming `field`. */
export function readVideoUri(entry: string, field: string): string {
  const m = videoEntry.exec(entry.trim());
  if (!m) throw invalidField(field, `"${entry.slice(0, 100)}" is not a video URI (/videos/{video_id})`);
  return m[1] ?? m[2];
}

/** The ids a list of video URIs names, each once, in the order given. */
export const readVideoUris = (entries: string[], field: string): string[] => [...new Set(entries.map((e) => readVideoUri(e, field)))];
