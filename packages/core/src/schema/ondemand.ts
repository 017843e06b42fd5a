import type { Schema } from '../store/schema-types';

/** On Demand pages and everything hanging off them (posters and backgrounds live in `pictures`). */
export const ondemandCollections: Schema = {
  ondemand_pages: {
    id: 'auto',
    fields: {
      user_id: 'string',
      name: 'text',
      type: 'string',
      status: 'string',
      link: 'string',
      domain_link: 'string',
      publish_time: 'string',
      preorder_time: 'string',
      publish_when_ready: 'boolean',
      rating_rank: 'integer',
      videos_total: 'integer',
      regions_total: 'integer',
      created_time: 'string',
      modified_time: 'string',
    },
    indexes: [
      ['user_id', 'created_time'],
      ['user_id', 'name'],
      ['user_id', 'modified_time'],
      ['user_id', 'publish_time'],
      ['user_id', 'rating_rank'],
      // The publishing sweep: due pre-orders, pages waiting for their videos.
      ['status', 'preorder_time'],
      ['publish_when_ready', 'status'],
    ],
    unique: [['link'], ['domain_link']],
  },
  ondemand_page_genres: {
    id: 'auto',
    fields: { page_id: 'string', genre: 'string', created_time: 'string' },
    indexes: [['genre', 'page_id'], ['page_id', 'created_time']],
    unique: [['page_id', 'genre']],
  },
  ondemand_regions: {
    id: 'auto',
    fields: { page_id: 'string', country: 'string', created_time: 'string' },
    indexes: [['country', 'page_id']],
    unique: [['page_id', 'country']],
  },
  ondemand_videos: {
    id: 'auto',
    fields: { page_id: 'string', video_id: 'string', type: 'string', position: 'number', season_id: 'string', created_time: 'string' },
    indexes: [['page_id', 'position'], ['page_id', 'type', 'position'], ['season_id', 'position']],
    // A video is on one page at most.
    unique: [['video_id']],
  },
  ondemand_seasons: {
    id: 'auto',
    fields: { page_id: 'string', number: 'integer', created_time: 'string' },
    unique: [['page_id', 'number']],
  },
  ondemand_promotions: {
    id: 'auto',
    fields: { page_id: 'string', created_time: 'string' },
    indexes: [['page_id', 'created_time']],
  },
  ondemand_promo_codes: {
    id: 'auto',
    fields: { page_id: 'string', promotion_id: 'string', code: 'string', created_time: 'string' },
    indexes: [['promotion_id', 'created_time']],
    unique: [['page_id', 'code']],
  },
  ondemand_purchases: {
    id: 'auto',
    fields: { user_id: 'string', page_id: 'string', type: 'string', purchase_time: 'string' },
    indexes: [['user_id', 'page_id', 'purchase_time'], ['page_id']],
  },
  ondemand_library: {
    id: 'auto',
    fields: { user_id: 'string', page_id: 'string', purchase_time: 'string' },
    indexes: [['user_id', 'purchase_time']],
    unique: [['user_id', 'page_id']],
  },
};
