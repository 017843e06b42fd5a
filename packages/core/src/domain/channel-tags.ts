import type { Store } from '../store/store';
import { ApiError, badRequest, codes, invalidField } from '../engine/errors';
import type { Context } from '../engine/operation';
import { isoTime } from '../support/time';
import type { ChannelRecord } from '../records/channel';
import { newTags, readTagList, readTagWord, rememberTag } from './tags';
import { type TagWord } from '../records/tag';

/** SPEC.md, Limits: at most 20 tags per channel (400/2501 beyond). */
export const maxTagsPerChannel = 20;
const tooManyTags = 2501;

/**
 * The body of PUT /channels/{id}/tags: `tag`, a list of words (a comma-separated form field, or a
 * JSON list), or, as on videos, a JSON list of `{"tag": …}`, `{"name": …}` or words. 2205 when no
 * tag is given; 400 naming a bad entry.
 */
export function readChannelTags(ctx: Context<unknown>): TagWord[] {
  const { body } = ctx.request;
  if (Array.isArray(body)) return readTagList(ctx);
  const tag = body && typeof body === 'object' ? (body as Record<string, unknown>).tag : undefined;
  const entries: unknown = typeof tag === 'string' ? tag.split(',').filter((w) => w.trim() !== '') : tag;
  if (entries === undefined || (Array.isArray(entries) && entries.length === 0)) {
    throw new ApiError(400, codes.badBody, 'The request body could not be read.', 'The body must carry `tag`, a non-empty list of tag words.');
  }
  if (!Array.isArray(entries)) throw invalidField('tag', 'must be a list of tag words');
  return entries.map((entry: unknown, i) => {
    if (typeof entry !== 'string') throw invalidField(`tag.${i}`, 'must be a tag word');
    return readTagWord(entry, `tag.${i}`);
  });
}

/** Adds tags to a channel, skipping those already on it; 400/2501 beyond 20 (nothing is written then). */
export async function tagChannel(store: Store, channel: ChannelRecord, words: TagWord[], now: Date): Promise<ChannelRecord> {
  const added = newTags(channel.tags, words);
  if (added.length === 0) return channel;
  if (channel.tags.length + added.length > maxTagsPerChannel) {
    throw badRequest(`A channel carries at most ${maxTagsPerChannel} tags; this one has ${channel.tags.length} and ${added.length} more were given.`, tooManyTags, 'tag');
  }
  const time = isoTime(now);
  for (const word of added) await rememberTag(store, word, time);
  return (await store.update<ChannelRecord>('channels', channel.id, { tags: [...channel.tags, ...added], modified_time: time }))!;
}

/** Takes a tag off a channel; a tag that is not on it changes nothing. */
export async function untagChannel(store: Store, channel: ChannelRecord, canonical: string, now: Date): Promise<void> {
  if (!channel.tags.some((t) => t.canonical === canonical)) return;
  await store.update<ChannelRecord>('channels', channel.id, { tags: channel.tags.filter((t) => t.canonical !== canonical), modified_time: isoTime(now) });
}
