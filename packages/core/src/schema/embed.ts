import type { Schema } from '../store/schema-types';

/** Custom logos; embed presets live in the shared `presets` collection. */
export const embedCollections: Schema = {
  custom_logos: {
    id: 'auto',
    fields: { user_id: 'string', active: 'boolean', created_time: 'string' },
    indexes: [['user_id', 'created_time']],
  },
};
