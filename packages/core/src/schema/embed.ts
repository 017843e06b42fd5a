import type { Schema } from '../store/schema-types';

export const embedCollections: Schema = {};
