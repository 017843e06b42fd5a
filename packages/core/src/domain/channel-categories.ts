import type { Filter, Store } from '../store/store';
import { and, eq, inSelect, isIn, notIn } from '../store/filters';
import { categories, type Category } from '../catalog/categories';
import { invalidField } from '../engine/errors';
import { isoTime } from '../support/time';
import type { ChannelCategoryRecord, ChannelRecord } from '../records/channel';
import { withSubcategories } from './categories';

/** The most categories a channel may be in (SPEC.md leaves the number unstated): 400/2204 beyond. */
export const maxChannelCategories = 2;

/** The channels in a category (or one of its subcategories), as a store filter; callers add the visibility rule. */
export const channelsInCategory = (category: Category): Filter =>
  inSelect('id', 'channel_categories', 'channel_id', isIn('category', withSubcategories(category)));

/**
 * Replaces a channel's categories, keeping the `channel_categories` rows and the channel's
 * `categories` array in step (rows of categories it keeps keep their time). 400/2204 naming
 * `field` beyond the maximum; nothing is written then.
 */
export async function setChannelCategories(store: Store, channel: ChannelRecord, chosen: readonly Category[], now: Date, field: string): Promise<void> {
  const slugs = [...new Set(chosen.map((c) => c.slug))];
  if (slugs.length > maxChannelCategories) {
    throw invalidField(field, `would put the channel in ${slugs.length} categories; a channel is in at most ${maxChannelCategories}`);
  }
  const time = isoTime(now);
  await store.deleteWhere('channel_categories', and(eq('channel_id', channel.id), notIn('category', slugs)));
  for (const slug of slugs) {
    if (!channel.categories.includes(slug)) await store.insert<ChannelCategoryRecord>('channel_categories', { channel_id: channel.id, category: slug, created_time: time });
  }
  await store.update<ChannelRecord>('channels', channel.id, { categories: slugs, modified_time: time });
}
