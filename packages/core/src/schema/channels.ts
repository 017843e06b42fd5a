import type { Schema } from '../store/schema-types';

export const channelCollections: Schema = {};
