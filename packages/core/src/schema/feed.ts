import type { Schema } from '../store/schema-types';

export const feedCollections: Schema = {};
