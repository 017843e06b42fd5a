import { StoreConflictError, type Store } from '../store/store';
import { and, eq } from '../store/filters';
import type { TagRecord, VideoRecord, VideoTagRecord } from '../records';
import { ApiError, codes, forbidden, invalidField } from '../engine/errors';
import type { Context } from '../engine/operation';
import { isoTime } from '../support/time';
import { canonicalTag, type TagWord } from '../records/tag';
import { recordActivity, withdrawActivity } from './activities';

/** SPEC.md, Limits: at most 20 tags per video (403 beyond). */
export const maxTagsPerVideo = 20;
const maxTagLength = 100;
/**
 * Control characters, `/` (the engine decodes `%2F` before routing, so such a word could never be
 * named in `/tags/{word}`) and `,` (lists travel comma-separated in forms and queries).
 */
const rejected = /[\u0000-\u001f\u007f/,]/;

/** Reads one tag word, or answers 400 naming `field`. */
export function readTagWord(raw: string, field: string): TagWord {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (name === '') throw invalidField(field, 'must be a tag word; it is empty');
  if ([...name].length > maxTagLength) throw invalidField(field, `must be at most ${maxTagLength} characters long`);
  if (rejected.test(name)) throw invalidField(field, 'must not contain control characters, "/" or ","');
  return { name, canonical: canonicalTag(name) };
}

/**
 * The body of PUT /videos/{id}/tags: a JSON list whose entries are `{ "tag": … }`, `{ "name": … }`
 * or plain strings. 2205 unless the body is a non-empty JSON list; 400 naming a bad entry.
 */
export function readTagList(ctx: Context<unknown>): TagWord[] {
  const { bodyKind, body } = ctx.request;
  if (bodyKind !== 'json' || !Array.isArray(body) || body.length === 0) {
    throw new ApiError(
      400,
      codes.badBody,
      'The request body could not be read.',
      'The body must be a non-empty JSON-encoded list of tags, e.g. [{"tag":"travel"},{"name":"food"}] (Content-Type: application/json).',
    );
  }
  return body.map((entry: unknown, i) => {
    if (typeof entry === 'string') return readTagWord(entry, String(i));
    if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
      const { tag, name } = entry as Record<string, unknown>;
      const [field, word] = tag !== undefined ? [`${i}.tag`, tag] : [`${i}.name`, name];
      if (typeof word === 'string') return readTagWord(word, field);
      if (word !== undefined) throw invalidField(field, 'must be a string');
    }
    throw invalidField(String(i), 'must be a tag word or an object with a tag (or name) string');
  });
}

/**
 * PUT /videos/{id}/tags/{word} and friends take no parameters besides `allowed`: SPEC.md answers
 * 400 to an unsupported one, where the engine would silently drop it.
 */
export function rejectParameters(ctx: Context<unknown>, allowed: readonly string[] = []): void {
  const { query, body, bodyKind } = ctx.request;
  if (bodyKind !== 'none' && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new ApiError(400, codes.badBody, 'The request body could not be read.', 'This operation takes no body.');
  }
  const given = [...Object.keys(query), ...Object.keys(body ?? {})].filter((n) => n !== 'fields' && !allowed.includes(n));
  if (given.length) throw invalidField(given[0], 'is not a parameter of this operation');
}

/**
 * Adds tags to a video, skipping those already on it (by canonical word), and keeps the tag rows,
 * the `video_tags` rows and the video's `tags` array in step. 403 when the video would carry more
 * than 20 tags; nothing is written then.
 */
export async function addTags(store: Store, video: VideoRecord, words: TagWord[], now: Date): Promise<VideoRecord> {
  const added = newTags(video.tags, words);
  if (added.length === 0) return video;
  if (video.tags.length + added.length > maxTagsPerVideo) {
    throw forbidden(`A video carries at most ${maxTagsPerVideo} tags; this one has ${video.tags.length} and ${added.length} more were given.`);
  }
  const time = isoTime(now);
  for (const word of added) {
    await rememberTag(store, word, time);
    await store.insert<VideoTagRecord>('video_tags', { video_id: video.id, tag: word.canonical, created_time: time });
    await recordActivity(store, { type: 'tagged_with', video_id: video.id, user_id: video.user_id, subject: word.canonical }, now);
  }
  const tags = [...video.tags, ...added];
  return (await store.update<VideoRecord>('videos', video.id, { tags, tag_names: tagNames(tags), modified_time: time }))!;
}

/** A video's `tag_names`: what its search index reads of its tags. */
export const tagNames = (tags: readonly { name: string }[]): string => tags.map((t) => t.name).join(' ');

/** The words of `words` not among `present` (by canonical word), each once, in order. */
export function newTags(present: readonly TagWord[], words: readonly TagWord[]): TagWord[] {
  const seen = new Set(present.map((t) => t.canonical));
  return words.filter((word) => !seen.has(word.canonical) && !!seen.add(word.canonical));
}

/** Records a tag word the first time anything is tagged with it (its first spelling stays its name). */
export async function rememberTag(store: Store, word: TagWord, time: string): Promise<void> {
  if (!(await store.get<TagRecord>('tags', word.canonical))) await store.insert<TagRecord>('tags', { id: word.canonical, name: word.name, created_time: time });
}

/** Takes a tag off a video (rows and array); a tag that is not on it changes nothing. */
export async function removeTag(store: Store, video: VideoRecord, canonical: string, now: Date): Promise<void> {
  if (!video.tags.some((t) => t.canonical === canonical)) return;
  await store.deleteWhere('video_tags', and(eq('video_id', video.id), eq('tag', canonical)));
  await withdrawActivity(store, { type: 'tagged_with', video_id: video.id, user_id: video.user_id, subject: canonical });
  const tags = video.tags.filter((t) => t.canonical !== canonical);
  await store.update<VideoRecord>('videos', video.id, { tags, tag_names: tagNames(tags), modified_time: isoTime(now) });
}


/** Videos filled per transaction by fillTagNames. */
const fillBatch = 500;

/** fillTagNames' record in `upgrades` once no video lacks `tag_names`. */
export const TAG_NAMES_UPGRADE = 'video-tag-names';

/**
 * Gives `tag_names` to the videos stored before search read tags (a store upgraded in place), so
 * their tags are found. Each batch commits on its own: an interrupted run resumes where it
 * stopped. `progress` hears (done, total) after each batch. Answers how many videos it filled.
 * Once none is left it says so in `upgrades`, and every later call answers 0 at once: finding
 * the videos without the field reads every video (half a second a start at a million).
 */
export async function fillTagNames(store: Store, progress?: (done: number, total: number) => void, now = new Date()): Promise<number> {
  if (await store.get('upgrades', TAG_NAMES_UPGRADE)) return 0;
  const missing = eq('tag_names', null);
  // A store without videos has none to fill (a new one); every video written since has the field.
  const total = (await store.findOne('videos', and())) ? await store.count('videos', missing) : 0;
  let done = 0;
  while (done < total) {
    const { items } = await store.find<VideoRecord>('videos', { where: missing, limit: fillBatch });
    if (items.length === 0) break;
    await store.transaction(async (tx) => {
      for (const video of items) await tx.update<VideoRecord>('videos', video.id, { tag_names: tagNames(video.tags ?? []) });
    });
    done += items.length;
    progress?.(done, total);
  }
  await markUpgraded(store, TAG_NAMES_UPGRADE, now);
  return done;
}

/** Records that upgrade `name` has run to its end; another server may have recorded it first. */
export async function markUpgraded(store: Store, name: string, now: Date): Promise<void> {
  try {
    await store.insert('upgrades', { id: name, created_time: isoTime(now) });
  } catch (e) {
    if (!(e instanceof StoreConflictError)) throw e;
  }
}
