import type { Schema } from '../store/schema-types';

export const albumCollections: Schema = {};
