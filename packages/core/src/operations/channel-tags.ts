import { invalidField, notFound } from '../engine/errors';
import { listReply, pageOf } from '../engine/list';
import { noContent, ok, operation, type Context } from '../engine/operation';
import type { ChannelRecord } from '../records/channel';
import { readChannelTags, tagChannel, untagChannel } from '../domain/channel-tags';
import { assertModerator, findVisibleChannel } from '../domain/channels';
import { readTagWord, rejectParameters } from '../domain/tags';
import { representTag } from '../representations/tag';

/** The channel of a tag operation: SPEC.md answers 400, not 404, when there is none (or it is hidden). */
async function taggedChannel(ctx: Context<unknown>): Promise<ChannelRecord> {
  const channel = await findVisibleChannel(ctx);
  if (!channel) throw invalidField('channel_id', 'names no channel you can see');
  return channel;
}

/** The channel of a tag write: as above, and moderated by the caller (403/3200). */
async function moderatedChannel(ctx: Context<unknown>): Promise<ChannelRecord> {
  const channel = await taggedChannel(ctx);
  await assertModerator(ctx, channel, 'tag it');
  return channel;
}

const represent = (channel: ChannelRecord) => channel.tags.map((t) => representTag(t));

export const listChannelTags = operation({
  id: 'channels.tags.list',
  summary: "List a channel's tags, in the order they were added",
  method: 'GET',
  paths: ['/channels/{channel_id}/tags'],
  async handle(ctx) {
    const channel = await taggedChannel(ctx);
    // At most 20 tags, kept on the channel itself: always one page.
    return listReply(ctx, pageOf({}), channel.tags.length, represent(channel), 'tag');
  },
});

export const addChannelTagList = operation({
  id: 'channels.tags.add',
  summary: "Add tags to a channel (`tag`: a list of words); tags already on it stay; answers the channel's Tags",
  method: 'PUT',
  paths: ['/channels/{channel_id}/tags'],
  scope: 'edit',
  async handle(ctx) {
    const channel = await moderatedChannel(ctx);
    const saved = await tagChannel(ctx.store, channel, readChannelTags(ctx), ctx.now());
    return ok(represent(saved), 'tag');
  },
});

export const checkChannelTag = operation({
  id: 'channels.tags.check',
  summary: 'Check that a channel carries a tag (204); 404 when it does not',
  method: 'GET',
  paths: ['/channels/{channel_id}/tags/{word}'],
  async handle(ctx) {
    rejectParameters(ctx);
    const { canonical } = readTagWord(ctx.path.word, 'word');
    const channel = await taggedChannel(ctx);
    if (!channel.tags.some((t) => t.canonical === canonical)) throw notFound('tag');
    return noContent();
  },
});

export const addChannelTag = operation({
  id: 'channels.tags.put',
  summary: 'Add one tag to a channel (nothing changes when it is there already)',
  method: 'PUT',
  paths: ['/channels/{channel_id}/tags/{word}'],
  scope: 'edit',
  async handle(ctx) {
    rejectParameters(ctx);
    const word = readTagWord(ctx.path.word, 'word');
    await tagChannel(ctx.store, await moderatedChannel(ctx), [word], ctx.now());
    return noContent();
  },
});

export const removeChannelTag = operation({
  id: 'channels.tags.delete',
  summary: 'Take a tag off a channel (nothing changes when it is not there)',
  method: 'DELETE',
  paths: ['/channels/{channel_id}/tags/{word}'],
  scope: 'edit',
  async handle(ctx) {
    rejectParameters(ctx);
    const { canonical } = readTagWord(ctx.path.word, 'word');
    await untagChannel(ctx.store, await moderatedChannel(ctx), canonical, ctx.now());
    return noContent();
  },
});

export const channelTagOperations = [listChannelTags, addChannelTagList, checkChannelTag, addChannelTag, removeChannelTag];
