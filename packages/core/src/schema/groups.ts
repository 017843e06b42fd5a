import type { Schema } from '../store/schema-types';

export const groupCollections: Schema = {};
